import { type APIMessage, REST, Routes } from 'discord.js';
import type { ReplyPayload } from '../interactions/incoming.ts';
import type { ChannelPoster } from '../interactions/reload-notifier.ts';

/**
 * Posts as the bot through Discord's REST API (`POST /channels/{id}/messages`, authorised by the bot
 * token), outside any interaction: the same on the gateway and on the HTTP endpoint, which has no
 * gateway connection to post through.
 */
export function restPoster(options: { apiBase: string; token: string }): ChannelPoster {
  const rest = new REST({ api: options.apiBase }).setToken(options.token);
  return {
    async post(channelId, message: ReplyPayload, options = {}) {
      const body = options.replyTo
        ? { ...message, message_reference: { message_id: options.replyTo, fail_if_not_exists: true } }
        : message;
      const created = (await rest.post(Routes.channelMessages(channelId), { body })) as APIMessage;
      return created.id;
    },
  };
}
