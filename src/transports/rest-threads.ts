import { type APIMessage, type APIThreadChannel, REST, Routes, ThreadAutoArchiveDuration } from 'discord.js';
import type { ChannelMessage, ThreadsView } from '../interactions/library-view.ts';

/**
 * Threads through Discord's REST API, authorised by the bot token: the same on the gateway and on the
 * HTTP endpoint. Reading messages needs no Message Content intent for what the bot reads: its own
 * answers (their embeds and buttons), which are always visible to it.
 */
export function restThreads(options: { apiBase: string; token: string }): ThreadsView {
  const rest = new REST({ api: options.apiBase }).setToken(options.token);
  return {
    async startThread(channelId, messageId, name) {
      const thread = (await rest.post(Routes.threads(channelId, messageId), {
        body: { name, auto_archive_duration: ThreadAutoArchiveDuration.OneDay },
      })) as APIThreadChannel;
      return thread.id;
    },
    latestMessages: (channelId, limit) => latestMessages(rest, channelId, limit),
    message: (channelId, messageId) => oneMessage(rest, channelId, messageId),
  };
}

/** One message, or null when it is gone (threads' answers and feeds' forum posts alike). */
export async function oneMessage(
  rest: REST,
  channelId: string,
  messageId: string,
): Promise<ChannelMessage | null> {
  try {
    return channelMessage((await rest.get(Routes.channelMessage(channelId, messageId))) as APIMessage);
  } catch (error) {
    // Unknown Message (deleted, or never there): nothing to read, not a failure.
    if ((error as { code?: unknown }).code === 10008) return null;
    throw error;
  }
}

/** A channel's latest messages, newest first, as the bot reads them back (threads and feed posts alike). */
export async function latestMessages(
  rest: REST,
  channelId: string,
  limit: number,
): Promise<ChannelMessage[]> {
  const messages = (await rest.get(Routes.channelMessages(channelId), {
    query: new URLSearchParams({ limit: String(limit) }),
  })) as APIMessage[];
  return messages.map(channelMessage);
}

/** A message as the bot reads it back. */
function channelMessage(message: APIMessage): ChannelMessage {
  return {
    id: message.id,
    authorId: message.author.id,
    sentAt: message.timestamp,
    content: message.content ?? '',
    embeds: message.embeds ?? [],
    customIds: (message.components ?? []).flatMap((row) =>
      'components' in row
        ? (row.components as { custom_id?: string }[]).flatMap((component) =>
            component.custom_id ? [component.custom_id] : [],
          )
        : [],
    ),
  };
}
