import { SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import {
  type AnswerOutcome,
  answerQuestion,
  sinceOption,
  untilOption,
} from '../src/interactions/answer-question.ts';
import { openThreadOnceAnswered, threadContext } from '../src/interactions/answer-threads.ts';
import { isFollowedMessage } from '../src/interactions/cited-answers.ts';
import type { Command } from '../src/interactions/command.ts';
import { askerOf, dismissButton, withDismiss } from '../src/interactions/dismiss.ts';
import { UserError } from '../src/interactions/errors.ts';
import { recordAndDecorate, voteButton, watchButton } from '../src/interactions/feedback.ts';
import {
  answerFollowUp,
  followUpButton,
  followUpSubmitted,
  offerFollowUp,
  withoutStoryButton,
} from '../src/interactions/follow-up.ts';
import { code } from '../src/interactions/render/citation.ts';
import { customIdsIn, followUpCitationOf } from '../src/interactions/render/follow-up.ts';
import { renderPassageInContext } from '../src/interactions/render/passage.ts';
import { ephemeral } from '../src/interactions/render/payload.ts';
import { readQueryState } from '../src/interactions/render/query-state.ts';
import { showTimeline } from '../src/interactions/show-timeline.ts';
import { resolveSource, sourceChoices } from '../src/interactions/source-option.ts';
import { topicOf } from '../src/search/time-words.ts';

/** Longest question accepted; Discord enforces it in the client too (`setMaxLength`). */
export const MAX_QUESTION_LENGTH = 300;
/** Paragraphs shown either side of a result by "Show context". */
const CONTEXT_RADIUS = 2;

const AskOptions = z.object({
  question: z.string().trim().min(1, 'write a question').max(MAX_QUESTION_LENGTH),
  limit: z.number().int().min(1).max(5).default(3),
  source: z.string().trim().min(1).max(100).optional(),
  since: z.string().trim().max(40).optional(),
  until: z.string().trim().max(40).optional(),
  /** Absent: the channel's default (`/settings visibility`), public unless set. */
  private: z.boolean().optional(),
});

export default {
  data: new SlashCommandBuilder()
    .setName('ask')
    .setDescription('Ask the news archive a question; answers are quoted word for word, with citations')
    .addStringOption((o) =>
      o
        .setName('question')
        .setDescription('What you want to know')
        .setRequired(true)
        .setMaxLength(MAX_QUESTION_LENGTH),
    )
    .addIntegerOption((o) =>
      o.setName('limit').setDescription('How many passages (1-5, default 3)').setMinValue(1).setMaxValue(5),
    )
    .addStringOption((o) =>
      o
        .setName('source')
        .setDescription('Only answer from this article or outlet')
        .setAutocomplete(true)
        .setMaxLength(100),
    )
    .addStringOption(sinceOption)
    .addStringOption(untilOption)
    .addBooleanOption((o) =>
      o.setName('private').setDescription("Show the answer only to you (default: the channel's setting)"),
    ),
  options: AskOptions,
  rateLimited: true,
  channelScoped: true,
  isPrivate: (options, channel) => options.private ?? channel?.settings.visibility === 'private',
  async execute(ctx, options, interaction) {
    const isPrivate = options.private ?? ctx.channel?.settings.visibility === 'private';
    // In a thread, a question follows the thread's latest answer, unless it names its own scope.
    const scoped = options.source || options.since || options.until;
    const earlier = scoped ? null : await threadContext(ctx, interaction);
    if (earlier) {
      const followUp = await answerFollowUp(ctx, interaction, options.question, earlier);
      return isPrivate ? followUp : withDismiss(followUp, interaction.userId);
    }
    const channelOutlets = ctx.channel?.settings.outlets ?? [];
    const scope = resolveSource(ctx.library.engine, options.source, channelOutlets);
    let outcome: AnswerOutcome | undefined;
    const payload = await answerQuestion(ctx.library.engine, {
      question: options.question,
      limit: options.limit,
      sourceId: scope.article?.id ?? null,
      outlets: scope.outlets,
      ...(options.since ? { since: options.since } : {}),
      ...(options.until ? { until: options.until } : {}),
      observe: (said) => {
        outcome = said;
      },
    });
    // A question limited to one article or some outlets is not watched: a watch answers from them all.
    const offerWatch = !isPrivate && !options.source && channelOutlets.length === 0;
    const decorated = recordAndDecorate(
      ctx,
      interaction,
      { question: options.question, outcome, record: true, offerWatch, follow: !isPrivate },
      payload,
    );
    if (isPrivate) return decorated;
    const answer = withDismiss(offerFollowUp(decorated), interaction.userId);
    // Thread mode: an answer (one with a story to follow up) opens a thread for the conversation.
    if (ctx.channel?.settings.threadMode && followUpCitationOf(customIdsIn(answer.components)))
      openThreadOnceAnswered(interaction, options.question);
    return answer;
  },
  autocomplete(ctx, focused) {
    if (focused.name !== 'source') return [];
    return sourceChoices(ctx.library.engine, focused.value, 25);
  },
  buttons: {
    /** `ask:more:<offset>:<limit>`: the next page, replacing this one; the question is read from the message. */
    'ask:more': {
      rateLimited: true,
      async execute(ctx, [offset = '', limit = ''], interaction) {
        const state = readQueryState(interaction.message.embeds);
        const page = z
          .object({
            offset: z.coerce.number().int().min(1).max(1000),
            limit: z.coerce.number().int().min(1).max(5),
          })
          .safeParse({ offset, limit });
        if (!state || !page.success)
          throw new UserError('stale-button', 'This button no longer works; ask the question again.');
        let outcome: AnswerOutcome | undefined;
        // Read beside the search, which never waits for it (false at once while the database is down).
        const followed = isFollowedMessage(ctx, interaction.message.id);
        const payload = await answerQuestion(ctx.library.engine, {
          question: state.question,
          limit: page.data.limit,
          offset: page.data.offset,
          sourceId: state.source,
          ...(state.outlets ? { outlets: state.outlets } : {}),
          ...(state.since ? { since: state.since } : {}),
          ...(state.until ? { until: state.until } : {}),
          observe: (said) => {
            outcome = said;
          },
        });
        // The page keeps the Dismiss of whoever asked, whoever turns it.
        const asker = askerOf(interaction.message);
        const dismissible = (page: ReturnType<typeof recordAndDecorate>) =>
          asker ? withDismiss(page, asker) : page;
        // Another page of an answer already recorded: it gets its own feedback buttons, not a new record.
        const decorated = recordAndDecorate(
          ctx,
          interaction,
          {
            question: state.question,
            outcome,
            record: false,
            offerWatch: false,
            // A private answer is not followed, so neither are its pages.
            follow: await followed,
          },
          payload,
        );
        // A page keeps "Follow up" where the answer had it (a private answer has none).
        const hadFollowUp = followUpCitationOf(interaction.message.customIds) !== null;
        return { update: dismissible(hadFollowUp ? offerFollowUp(decorated) : decorated) };
      },
    },
    /** `ask:timeline`: the timeline of this answer's topic (its question without time words), privately. */
    'ask:timeline': {
      rateLimited: true,
      async execute(ctx, _args, press) {
        const state = readQueryState(press.message.embeds);
        if (!state)
          throw new UserError('stale-button', 'This button no longer works; ask the question again.');
        const topic = topicOf(state.question);
        const timeline = await showTimeline(
          ctx.library.engine,
          {
            topic,
            page: 0,
            ...(state.since ? { since: state.since } : {}),
            ...(state.until ? { until: state.until } : {}),
          },
          ctx,
        );
        return { reply: ephemeral(timeline) };
      },
    },
    /** `ask:vote:<1|0>:<hash>:<citation>`: Helpful / Not helpful (see src/interactions/feedback.ts). */
    'ask:vote': voteButton,
    /** `ask:dismiss:<asker>`: the asker or a moderator deletes a public answer (src/interactions/dismiss.ts). */
    'ask:dismiss': dismissButton,
    /** `ask:watch`: Notify me on "No coverage found". */
    'ask:watch': watchButton,
    /** `ask:followup:<citation>`: the follow-up modal (src/interactions/follow-up.ts). */
    'ask:followup': followUpButton,
    /** `ask:nostory:<n>`: a follow-up asked again without the story it assumed. */
    'ask:nostory': withoutStoryButton,
    /** `ask:ctx:<citation>`: the paragraphs around one result, shown only to whoever pressed it. */
    'ask:ctx': {
      execute(ctx, args) {
        const citation = args.join(':');
        const found = ctx.library.engine.context(citation, CONTEXT_RADIUS);
        if (!found) {
          throw new UserError(
            'unknown-citation',
            `Passage ${code(citation)} is no longer in the archive; it may have been reloaded.`,
          );
        }
        return { reply: ephemeral(renderPassageInContext(found, `Context of ${code(citation)}:`)) };
      },
    },
  },
  modals: {
    /** `followup:<citation>`: a follow-up submitted from the modal of "Follow up". */
    followup: followUpSubmitted,
  },
} satisfies Command<typeof AskOptions>;
