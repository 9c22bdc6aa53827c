import {
  type APIChannel,
  type APIMessage,
  type APIThreadChannel,
  type APIUser,
  ChannelType,
  REST,
  Routes,
  ThreadAutoArchiveDuration,
} from 'discord.js';
import type { DiscordChannels } from '../interactions/feed-publisher.ts';
import { latestMessages, oneMessage } from './rest-threads.ts';

/** Discord's codes for a channel the bot cannot see: Unknown Channel, Missing Access. */
const UNSEEN = new Set([10003, 50001]);
/** "A thread has already been created for this message". */
const THREAD_EXISTS = 160004;

/**
 * Channels through Discord's REST API with the bot token, for feeds' posts and alerts: the same on the
 * gateway and on the HTTP endpoint. Needs no privileged intent: the bot reads only its own messages.
 */
export function restChannels(options: { apiBase: string; token: string }): DiscordChannels {
  const rest = new REST({ api: options.apiBase }).setToken(options.token);
  let botId: Promise<string> | undefined;
  return {
    async kind(channelId) {
      let channel: APIChannel;
      try {
        channel = (await rest.get(Routes.channel(channelId))) as APIChannel;
      } catch (error) {
        if (UNSEEN.has(Number((error as { code?: unknown }).code))) return 'unknown';
        throw error;
      }
      if (channel.type === ChannelType.GuildForum || channel.type === ChannelType.GuildMedia) return 'forum';
      if (channel.type === ChannelType.GuildText || channel.type === ChannelType.GuildAnnouncement)
        return 'text';
      return 'other';
    },
    async send(channelId, message) {
      return ((await rest.post(Routes.channelMessages(channelId), { body: message })) as APIMessage).id;
    },
    async startThread(channelId, messageId, name) {
      try {
        await rest.post(Routes.threads(channelId, messageId), {
          body: { name, auto_archive_duration: ThreadAutoArchiveDuration.OneWeek },
        });
        return true;
      } catch (error) {
        if ((error as { code?: unknown }).code === THREAD_EXISTS) return false;
        throw error;
      }
    },
    async startForumPost(channelId, name, message) {
      const thread = (await rest.post(Routes.threads(channelId), {
        body: { name, auto_archive_duration: ThreadAutoArchiveDuration.OneWeek, message },
      })) as APIChannel;
      return thread.id;
    },
    latestMessages: (channelId, limit) => latestMessages(rest, channelId, limit),
    message: (channelId, messageId) => oneMessage(rest, channelId, messageId),
    async forumPosts(channelId, archived) {
      // Active threads are listed for the whole guild; the forum's own object names its guild.
      const forum = (await rest.get(Routes.channel(channelId))) as APIChannel & { guild_id?: string };
      if (forum.guild_id === undefined) return [];
      const active = (await rest.get(Routes.guildActiveThreads(forum.guild_id))) as {
        threads: APIThreadChannel[];
      };
      const closed = (await rest.get(Routes.channelThreads(channelId, 'public'), {
        query: new URLSearchParams({ limit: String(archived) }),
      })) as { threads: APIThreadChannel[] };
      return [...active.threads.filter((thread) => thread.parent_id === channelId), ...closed.threads].map(
        (thread) => ({ id: thread.id, name: thread.name, ownerId: thread.owner_id ?? '' }),
      );
    },
    botId() {
      botId ??= (rest.get(Routes.user()) as Promise<APIUser>).then((user) => user.id);
      return botId;
    },
  };
}
