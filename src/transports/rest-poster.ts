import { type APIMessage, type REST, Routes } from 'discord.js';
import type { ReplyPayload } from '../interactions/incoming.ts';
import type { ChannelPoster } from '../interactions/watch-notifier.ts';

/**
 * Posts through Discord's REST API (`POST /channels/{id}/messages`) with the bot token: the gateway
 * client's own `client.rest`, or, on the HTTP endpoint, a REST client given DISCORD_TOKEN.
 */
export function restPoster(rest: REST): ChannelPoster {
  return {
    async post(channelId, message: ReplyPayload) {
      const created = (await rest.post(Routes.channelMessages(channelId), { body: message })) as APIMessage;
      return created.id;
    },
  };
}
