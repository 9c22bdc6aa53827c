import type { CitedPassage } from '../community/cited-passages.ts';
import { followCited } from './answer-records.ts';
import type { CommandContext } from './command.ts';
import type { IncomingInteraction, MaybePosted } from './incoming.ts';

/**
 * Interactions whose answer's citations were handed to the keeper, waiting for their message id: known
 * here rather than read back, since the write may still be waiting for the database.
 */
const awaitingMessage = new WeakSet<IncomingInteraction>();

/**
 * Keeps what a public answer cites so a reload that corrects it can be told to its message. The
 * message id comes once the reply is posted (`attachPostedMessage`). Nothing is kept without a
 * database or outside a channel; the answer never waits for the write (see `RecordKeeper`).
 */
export function followCitations(
  ctx: CommandContext,
  interaction: IncomingInteraction,
  cited: readonly CitedPassage[],
): void {
  const community = ctx.community;
  const channelId = interaction.channelId;
  if (!community || !channelId || cited.length === 0) return;
  followCited((what, write) => community.write(what, write), {
    key: interaction.id,
    guildId: interaction.guildId,
    channelId,
    at: ctx.now(),
    passages: cited,
  });
  awaitingMessage.add(interaction);
}

/**
 * Whether the answer on `messageId` is followed (its other pages then are too); false when unsure,
 * at once while the database is known to be down.
 */
export function isFollowedMessage(ctx: CommandContext, messageId: string): Promise<boolean> {
  return (
    ctx.community?.askOr(false, (store) => store.citations.isFollowed(messageId)) ?? Promise.resolve(false)
  );
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
  const community = ctx.community;
  if (!community || !posted || !awaitingMessage.has(interaction)) return;
  awaitingMessage.delete(interaction);
  try {
    const messageId = await posted.id();
    // Behind the citations' own write, in order: attached once they are there.
    if (messageId)
      community.write('a posted answer’s message id', (store) =>
        store.citations.attachMessage(interaction.id, messageId),
      );
    else ctx.logger.info('the posted answer’s message id is unknown; its citations will not be followed');
  } catch (error) {
    ctx.logger.warn('could not note the posted answer’s message; its citations will not be followed', {
      error,
    });
  }
}
