import { questionHash } from '../community/community-store.ts';
import type { RecordKeeper } from '../community/record-keeper.ts';
import type { Awaitable, RecordStore } from '../community/record-store.ts';
import type { AnswerOutcome } from './answer-question.ts';
import { followCitations } from './cited-answers.ts';
import type { ButtonHandler, CommandContext } from './command.ts';
import { UserError } from './errors.ts';
import type { IncomingInteraction, ReplyPayload } from './incoming.ts';
import { feedbackRow, withNotifyMe, withRow } from './render/community.ts';
import { ephemeral } from './render/payload.ts';
import { readQueryState } from './render/query-state.ts';

/**
 * What `/ask` adds to an answer once the community database is there: the answer (or the question
 * without coverage) is recorded, a public answer's citations are followed for corrections, the answer
 * gets Helpful / Not helpful, and "No coverage found" gets Notify me. Recording never costs a reply:
 * the records go to the keeper, which writes them at once or, the database being locked, down or
 * slow, keeps them and writes them once it answers again.
 */
export function recordAndDecorate(
  ctx: CommandContext,
  interaction: IncomingInteraction,
  asked: {
    question: string;
    outcome: AnswerOutcome | undefined;
    record: boolean;
    offerWatch: boolean;
    /** Keep what the answer cites, to reply to its message if a reload corrects it (public answers). */
    follow: boolean;
  },
  payload: ReplyPayload,
): ReplyPayload {
  const community = ctx.community;
  const outcome = asked.outcome;
  if (!community || !outcome) return payload;
  const place = { guildId: interaction.guildId, channelId: interaction.channelId ?? null };
  const question = community.recordQuestions ? asked.question : null;
  if (asked.record) {
    const at = ctx.now();
    if (outcome.kind === 'answered') {
      const hash = questionHash(asked.question);
      community.write('an answer', (store) =>
        store.records.recordAnswer({
          ...place,
          answeredAt: at,
          question,
          questionHash: hash,
          citations: outcome.citations,
          corpusVersion: outcome.corpusVersion,
        }),
      );
    } else {
      community.write('a question without coverage', (store) =>
        store.records.recordUnanswered({
          ...place,
          question,
          askedAt: at,
          corpusVersion: outcome.corpusVersion,
        }),
      );
    }
  }
  if (outcome.kind === 'answered') {
    if (asked.follow) followCitations(ctx, interaction, outcome.cited);
    return withRow(payload, feedbackRow(questionHash(asked.question), outcome.citations[0] ?? ''));
  }
  // A watch posts in the channel, so it is offered where that is possible and the question was public.
  return asked.offerWatch && interaction.guildId && interaction.channelId
    ? withNotifyMe(payload, asked.question)
    : payload;
}

/** `ask:vote:<1|0>:<hash>:<citation>`: one vote per member per answer; pressing again changes it. */
export const voteButton: ButtonHandler = {
  async execute(ctx, [helpful = '', hash = '', ...citationParts], interaction) {
    available(ctx);
    const state = readQueryState(interaction.message.embeds);
    if (!state || (helpful !== '1' && helpful !== '0') || questionHash(state.question) !== hash)
      throw new UserError('stale-button', 'This button no longer works; ask the question again.');
    const firstCitation = citationParts.join(':');
    const channelId = interaction.channelId ?? null;
    const result = await writing(ctx, async (store) => {
      const answerId =
        (
          await store.records.findAnswer({
            messageId: interaction.message.id,
            questionHash: hash,
            firstCitation,
            channelId,
          })
        )?.id ??
        // Asked before recording began (or while the database was down): the press says enough.
        (await store.records.recordAnswer({
          guildId: interaction.guildId,
          channelId,
          messageId: interaction.message.id,
          answeredAt: ctx.now(),
          question: store.recordQuestions ? state.question : null,
          questionHash: hash,
          citations: firstCitation ? [firstCitation] : [],
          corpusVersion: ctx.library.engine.version,
        }));
      return store.records.vote({
        answerId,
        userId: interaction.userId,
        helpful: helpful === '1',
        at: ctx.now(),
      });
    });
    const label = helpful === '1' ? 'helpful' : 'not helpful';
    const content =
      result === 'unchanged'
        ? `You already marked this answer ${label}.`
        : result === 'changed'
          ? `Changed: you now mark this answer ${label}. Thank you.`
          : `Thank you: you marked this answer ${label}.${helpful === '1' ? '' : ' Moderators see which answers miss, to improve the coverage.'} Press the other button to change your vote.`;
    return { reply: ephemeral({ content }) };
  },
};

/** `ask:watch`: watch the question of this "No coverage found" message. */
export const watchButton: ButtonHandler = {
  async execute(ctx, _args, interaction) {
    available(ctx);
    const state = readQueryState(interaction.message.embeds);
    if (!state) throw new UserError('stale-button', 'This button no longer works; ask the question again.');
    if (!interaction.guildId || !interaction.channelId)
      throw new UserError('not-in-guild', 'Questions can be watched in a server’s channels only.');
    const { guildId, channelId } = interaction;
    const result = await writing(ctx, (store) =>
      store.watches.add({
        userId: interaction.userId,
        guildId,
        channelId,
        question: state.question,
        at: ctx.now(),
      }),
    );
    const content =
      result.status === 'limit-reached'
        ? `You are already watching ${result.limit} questions, the most one member may. Cancel one with \`/watches\` first.`
        : result.status === 'already-watching'
          ? 'You are already watching this question here. `/watches` lists your watched questions.'
          : `Watching. When the archive covers this question I will post the answer here, once, mentioning only you. The watch lasts until <t:${Math.floor(result.watch.expiresAt.getTime() / 1000)}:D>; \`/watches\` lists and cancels them.`;
    return { reply: ephemeral({ content }) };
  },
};

/** The community database, or a clear message that nothing can be recorded now. */
export function available(ctx: CommandContext): RecordKeeper {
  if (!ctx.community)
    throw new UserError(
      'no-records',
      'This bot does not record votes or watched questions (no database is configured).',
    );
  return ctx.community;
}

/**
 * A read or write a member waits for, within the keeper's short timeout: failing, they are told so
 * privately (and the details are logged).
 */
export async function writing<T>(ctx: CommandContext, run: (store: RecordStore) => Awaitable<T>): Promise<T> {
  try {
    return await available(ctx).ask(run);
  } catch (error) {
    if (error instanceof UserError) throw error;
    ctx.logger.error('community database write failed', { error });
    throw new UserError(
      'records-unavailable',
      'I could not record that just now; please try again in a moment.',
    );
  }
}
