import { type ChannelView, channelView } from '../community/channel-settings.ts';
import type { CommandContext } from './command.ts';
import { UserError } from './errors.ts';
import type { IncomingInteraction } from './incoming.ts';

/** The settings where an interaction came from: a thread has its channel's. */
export function channelOf(
  ctx: Pick<CommandContext, 'community'>,
  incoming: Pick<IncomingInteraction, 'guildId' | 'channelId' | 'parentChannelId'>,
): Promise<ChannelView> {
  return channelView(ctx.community, {
    guildId: incoming.guildId,
    channelId: incoming.parentChannelId ?? incoming.channelId ?? null,
  });
}

/**
 * Refuses, privately, a question asked outside the guild's answer channels, naming those channels
 * (Discord shows `<#id>` as a link to each). A guild that lists none is answered everywhere, and a
 * thread is answered where its channel is.
 */
export function checkAnswerChannel(
  incoming: Pick<IncomingInteraction, 'guildId' | 'channelId' | 'parentChannelId'>,
  view: ChannelView,
  isModerator: boolean,
): void {
  const listed = view.answerChannels;
  if (incoming.guildId === null || listed.length === 0) return;
  const here = [incoming.channelId, incoming.parentChannelId].filter((id): id is string => !!id);
  if (here.some((id) => listed.includes(id))) return;
  const shown = listed.slice(0, 10).map((id) => `<#${id}>`);
  const where =
    shown.length === 1
      ? shown[0]
      : `${shown.slice(0, -1).join(', ')}${listed.length > 10 ? ', …' : ''} and ${shown.at(-1)}`;
  throw new UserError(
    'not-an-answer-channel',
    `I answer questions only in ${where} on this server: ask me there.${isModerator ? ' Moderators change where with `/settings channels`.' : ''}`,
  );
}
