import { z } from 'zod';
import { type EarlierExchange, type FollowUpSearch, followUpSearch } from '../followups/follow-up-context.ts';
import { answerQuestion } from './answer-question.ts';
import type { ButtonHandler, CommandContext, ModalHandler } from './command.ts';
import { askerOf, withDismiss } from './dismiss.ts';
import { staleButton, UserError } from './errors.ts';
import { followReply, recordReply, withVotes } from './feedback.ts';
import type { IncomingInteraction, ReplyPayload, SourceMessage } from './incoming.ts';
import {
  customIdsIn,
  FOLLOW_UP_FIELD,
  firstCitationOf,
  followUpCitationOf,
  followUpModal,
  MAX_FOLLOW_UP_LENGTH,
  renderFollowUp,
  withFollowUpButton,
} from './render/follow-up.ts';
import { readQueryState } from './render/query-state.ts';

/** Results a follow-up's answer shows, as `/ask` by default. */
const FOLLOW_UP_LIMIT = 3;

/** "Follow up" under a public answer, its first result naming the story (nothing when it has none). */
export function offerFollowUp(payload: ReplyPayload): ReplyPayload {
  const citation = firstCitationOf(customIdsIn(payload.components));
  return citation ? withFollowUpButton(payload, citation) : payload;
}

/** The earlier question and its story, read back from an answer's message; null for any other message. */
export function earlierFrom(message: Pick<SourceMessage, 'embeds' | 'customIds'>): EarlierExchange | null {
  const state = readQueryState(message.embeds);
  const citation = followUpCitationOf(message.customIds);
  if (!state || !citation) return null;
  return { question: state.question, article: articleOf(citation), citation };
}

function articleOf(citation: string): string {
  const hash = citation.lastIndexOf('#');
  return hash === -1 ? citation : citation.slice(0, hash);
}

/**
 * Answers `followUp` about the story of `earlier`: within that story, or, when it holds nothing for
 * the question, over the archive with the story's names added; the reply says which story it assumed
 * and offers to ask without it. A story that has left the archive is said, and the question asked alone.
 */
export async function answerFollowUp(
  ctx: CommandContext,
  interaction: IncomingInteraction,
  followUp: string,
  earlier: EarlierExchange,
): Promise<ReplyPayload> {
  const engine = ctx.library.engine;
  const asked = followUp.replace(/\s+/g, ' ').trim();
  const story = engine.article(earlier.article) ?? null;
  if (!story) {
    const alone = await askAndDecorate(ctx, interaction, { question: asked });
    return {
      ...alone,
      content: `The earlier story is no longer in the archive, so this is your question on its own.\n${alone.content ?? ''}`,
    };
  }
  const search = await firstAnswering(ctx, followUpSearch(asked, earlier, story));
  const answer = await askAndDecorate(ctx, interaction, search);
  return renderFollowUp(answer, story, { length: asked.length, fellBack: search.articleId === undefined });
}

/** The first search of the chain (the story, then its fallbacks) that finds something; else the last. */
async function firstAnswering(ctx: CommandContext, search: FollowUpSearch): Promise<FollowUpSearch> {
  let step: FollowUpSearch = search;
  for (;;) {
    // The engine keeps recent answers, so asking again to render the chosen one costs nothing.
    const answer = await ctx.library.engine.answerAsync(step.question, {
      limit: FOLLOW_UP_LIMIT,
      ...(step.articleId ? { articleId: step.articleId } : {}),
    });
    if (answer.results.length > 0 || step.fallback === undefined) return step;
    step = step.fallback;
  }
}

/** One search answered and rendered as `/ask` renders it, recorded, with its own "Follow up". */
async function askAndDecorate(
  ctx: CommandContext,
  interaction: IncomingInteraction,
  search: Pick<FollowUpSearch, 'question' | 'articleId'>,
): Promise<ReplyPayload> {
  const { reply, payload } = await answerQuestion(ctx.library.engine, {
    question: search.question,
    limit: FOLLOW_UP_LIMIT,
    sourceId: search.articleId ?? null,
  });
  recordReply(ctx, interaction, reply);
  followReply(ctx, interaction, reply);
  return offerFollowUp(withVotes(ctx, reply, payload));
}

/** `ask:followup:<citation>`: opens the follow-up modal (the story named in its description). */
export const followUpButton: ButtonHandler = {
  execute(ctx, args) {
    const citation = args.join(':');
    if (citation === '') throw staleButton();
    return { modal: followUpModal(citation, ctx.library.engine.article(articleOf(citation))) };
  },
};

const FollowUpText = z.string().trim().min(1).max(MAX_FOLLOW_UP_LENGTH);

/** `followup:<citation>`: the modal submitted; the earlier question is read from the answer's message. */
export const followUpSubmitted: ModalHandler = {
  rateLimited: true,
  async execute(ctx, args, interaction) {
    const citation = args.join(':');
    const text = FollowUpText.safeParse(interaction.fields[FOLLOW_UP_FIELD] ?? '');
    if (!text.success)
      throw new UserError(
        'bad-follow-up',
        `Write a follow-up question of 1 to ${MAX_FOLLOW_UP_LENGTH} characters.`,
      );
    const state = interaction.message ? readQueryState(interaction.message.embeds) : null;
    if (citation === '' || !state) throw staleButton();
    const answer = await answerFollowUp(ctx, interaction, text.data, {
      question: state.question,
      article: articleOf(citation),
      citation,
    });
    // A public answer, as the one it follows: its asker (or a moderator) may remove it.
    return withDismiss(answer, interaction.userId);
  },
};

/** `ask:nostory:<n>`: the follow-up asked on its own, replacing the answer that assumed a story. */
export const withoutStoryButton: ButtonHandler = {
  rateLimited: true,
  async execute(ctx, [length = ''], interaction) {
    const state = readQueryState(interaction.message.embeds);
    const n = z.coerce.number().int().min(1).max(MAX_FOLLOW_UP_LENGTH).safeParse(length);
    if (!state || !n.success) throw staleButton();
    const question = state.question.slice(0, n.data);
    const answer = await askAndDecorate(ctx, interaction, { question });
    const asker = askerOf(interaction.message);
    return { update: asker ? withDismiss(answer, asker) : answer };
  },
};
