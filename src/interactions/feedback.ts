import type { QuestionReply } from '../answering/reply-to-question.ts';
import { questionHash } from '../community/community-store.ts';
import type { RecordKeeper } from '../community/record-keeper.ts';
import type { Awaitable, RecordStore } from '../community/record-store.ts';
import { writeReplyRecord } from './answer-records.ts';
import { followCitations } from './cited-answers.ts';
import type { ButtonHandler, CommandContext } from './command.ts';
import { staleButton, UserError } from './errors.ts';
import type { IncomingInteraction, ReplyPayload } from './incoming.ts';
import { feedbackRow, withNotifyMe, withRow } from './render/community.ts';
import { ephemeral } from './render/payload.ts';
import { type QueryState, readQueryState } from './render/query-state.ts';

/**
 * Records a reply to a member's question in the community database (the answer, or the question
 * without coverage, for `/gaps`). Recording never costs a reply: the keeper writes at once or, the
 * database being locked, down or slow, keeps the record and writes it once the database answers again.
 */
export function recordReply(
  ctx: CommandContext,
  interaction: IncomingInteraction,
  reply: QuestionReply,
): void {
  const community = ctx.community;
  if (!community) return;
  writeReplyRecord(
    (what, write) => community.write(what, write),
    {
      question: reply.question,
      at: ctx.now(),
      place: { guildId: interaction.guildId, channelId: interaction.channelId ?? null },
    },
    reply.outcome,
  );
}

/** Keeps what a public answer cites, to reply to its message if a reload corrects it. */
export function followReply(
  ctx: CommandContext,
  interaction: IncomingInteraction,
  reply: QuestionReply,
): void {
  if (reply.outcome.kind === 'answered') followCitations(ctx, interaction, reply.outcome.cited);
}

/** Helpful / Not helpful under an answer, where votes are recorded; other replies as they are. */
export function withVotes(ctx: CommandContext, reply: QuestionReply, payload: ReplyPayload): ReplyPayload {
  if (!ctx.community || reply.outcome.kind !== 'answered') return payload;
  return withRow(payload, feedbackRow(questionHash(reply.question), reply.outcome.citations[0] ?? ''));
}

/**
 * "Notify me" under a reply that does not answer (closest coverage or none), where watches are
 * recorded and can post: a server's channel.
 */
export function withWatchOffer(
  ctx: CommandContext,
  interaction: IncomingInteraction,
  reply: QuestionReply,
  payload: ReplyPayload,
  state: QueryState,
): ReplyPayload {
  if (!ctx.community || reply.outcome.kind === 'answered') return payload;
  return interaction.guildId && interaction.channelId ? withNotifyMe(payload, state) : payload;
}

/** `ask:vote:<1|0>:<hash>:<citation>`: one vote per member per answer; pressing again changes it. */
export const voteButton: ButtonHandler = {
  async execute(ctx, [helpful = '', hash = '', ...citationParts], interaction) {
    available(ctx);
    const state = readQueryState(interaction.message.embeds);
    if (!state || (helpful !== '1' && helpful !== '0') || questionHash(state.question) !== hash)
      throw staleButton();
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
    if (!state) throw staleButton();
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
