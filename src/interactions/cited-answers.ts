import type { CitedPassage } from '../community/cited-passages.ts';
import type { AnswerResult } from '../search/answer.ts';
import type { CommandContext } from './command.ts';
import type { IncomingInteraction, MaybePosted } from './incoming.ts';

/** The paragraphs an answer quotes, as a correction will compare them after a reload. */
export function citedIn(results: readonly AnswerResult[]): CitedPassage[] {
  return results.map((result) => ({
    citation: result.citation,
    articleId: result.article,
    paragraph: result.paragraph,
    text: result.passage,
  }));
}

/**
 * Keeps what a public answer cites so a reload that corrects it can be told to its message. The
 * message id comes once the reply is posted (`attachPostedMessage`). Nothing is kept without a
 * database or outside a channel; a failed write is logged and the answer goes out as it is.
 */
export function followCitations(
  ctx: CommandContext,
  interaction: IncomingInteraction,
  cited: readonly CitedPassage[],
): void {
  const citations = ctx.community?.citations;
  if (!citations || !interaction.channelId || cited.length === 0) return;
  try {
    citations.follow({
      interactionId: interaction.id,
      guildId: interaction.guildId,
      channelId: interaction.channelId,
      citedAt: ctx.now(),
      passages: cited,
    });
  } catch (error) {
    ctx.logger.warn('community database: an answer’s citations could not be kept', { error });
  }
}

/** Whether the answer on `messageId` is followed (its other pages then are too); false when unsure. */
export function isFollowedMessage(ctx: CommandContext, messageId: string): boolean {
  try {
    return ctx.community?.citations.isFollowed(messageId) ?? false;
  } catch (error) {
    ctx.logger.warn('community database: could not read followed answers', { error });
    return false;
  }
}

/**
 * Called by the dispatcher once an interaction's reply is posted: if it was an answer whose citations
 * are followed, they are tied to its message, which corrections reply to. The id is asked of the
 * transport only then (on the HTTP endpoint that costs a request).
 */
export async function attachPostedMessage(
  ctx: CommandContext,
  interaction: IncomingInteraction,
  posted: MaybePosted,
): Promise<void> {
  const citations = ctx.community?.citations;
  if (!citations || !posted) return;
  try {
    if (!citations.awaitsMessage(interaction.id)) return;
    const messageId = await posted.id();
    if (messageId) citations.attachMessage(interaction.id, messageId);
    else ctx.logger.info('the posted answer’s message id is unknown; its citations will not be followed');
  } catch (error) {
    ctx.logger.warn('could not note the posted answer’s message; its citations will not be followed', {
      error,
    });
  }
}
