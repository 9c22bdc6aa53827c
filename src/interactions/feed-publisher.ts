import type { ChannelKind, FeedPublisher, HealthAlert, PostTarget } from '../feeds/feed-publisher.ts';
import type { QueuedPost } from '../feeds/feed-state.ts';
import type { ReplyPayload } from './incoming.ts';
import type { ChannelMessage } from './library-view.ts';
import {
  articleThreadName,
  healthAlertOpening,
  renderArticlePost,
  renderHealthAlert,
} from './render/feeds.ts';
import { finalizeReply } from './render/payload.ts';

/**
 * Channels through Discord's REST API, as feeds post in them (src/transports/rest-channels.ts, for the
 * gateway and the HTTP endpoint alike).
 */
export interface DiscordChannels {
  /** `GET /channels/{id}`: its kind, or `unknown` when the bot cannot see it. */
  kind(channelId: string): Promise<ChannelKind>;
  /** `POST /channels/{id}/messages`; resolves to the message's id. */
  send(channelId: string, message: ReplyPayload): Promise<string>;
  /** `POST /channels/{id}/messages/{id}/threads`; false when the message has a thread already. */
  startThread(channelId: string, messageId: string, name: string): Promise<boolean>;
  /** `POST /channels/{id}/threads` in a forum: a post (a thread and its first message). */
  startForumPost(channelId: string, name: string, message: ReplyPayload): Promise<string>;
  /** A channel's latest messages, newest first. */
  latestMessages(channelId: string, limit: number): Promise<ChannelMessage[]>;
  /** `GET /channels/{id}/messages/{id}`: one message, or null when it is not there. */
  message(channelId: string, messageId: string): Promise<ChannelMessage | null>;
  /**
   * A forum's posts: its threads among the guild's active ones (`GET /guilds/{id}/threads/active`),
   * then its `archived` most recently archived public ones (`GET /channels/{id}/threads/archived/public`).
   */
  forumPosts(channelId: string, archived: number): Promise<ForumPost[]>;
  /** The bot's own user id, to tell its messages from others'. */
  botId(): Promise<string>;
}

/** A forum's post (a thread) as listed, before its first message is read. */
export interface ForumPost {
  id: string;
  name: string;
  ownerId: string;
}

/**
 * How far back a post cut short by a crash is looked for: a text channel's last 50 messages; a forum's
 * active posts and its last 50 archived (a crash is resumed within minutes, long before a post is
 * archived by itself, a week on; a moderator may close one sooner).
 */
const RESUME_LOOK_BACK = 50;

/** The feeds' posts and alerts, rendered and sent through `channels`. */
export function feedPublisher(channels: DiscordChannels): FeedPublisher {
  return {
    channelKind: (channelId) => channels.kind(channelId),
    async postArticle(target: PostTarget, post: QueuedPost, { resume }) {
      const message = finalizeReply(renderArticlePost(post));
      if (target.forum) {
        if (resume && (await findForumPost(channels, target.channelId, post)) !== undefined) return;
        await channels.startForumPost(target.channelId, articleThreadName(post), message);
        return;
      }
      // An attempt cut short may have posted: the bot's own message with this article's link is it.
      const earlier = resume ? await findPost(channels, target.channelId, post) : undefined;
      const messageId = earlier ?? (await channels.send(target.channelId, message));
      if (target.thread) await channels.startThread(target.channelId, messageId, articleThreadName(post));
    },
    async postAlert(channelId: string, alert: HealthAlert, options = {}) {
      if (options.resume !== undefined && (await findAlert(channels, channelId, alert, options.resume)))
        return;
      await channels.send(channelId, finalizeReply(renderHealthAlert(alert)));
    },
  };
}

/**
 * How much earlier than the first attempt an alert's message may be stamped by Discord (clocks differ
 * by a second or two): far less than between two alerts of one status about one feed (at least three
 * failed reads, or FEED_SILENT_HOURS, apart), so an earlier episode's message is not taken for it.
 */
const ALERT_CLOCK_SKEW_MS = 60_000;

/** The bot's message of this alert in the channel's last 50, sent since the first attempt (`since`). */
async function findAlert(
  channels: DiscordChannels,
  channelId: string,
  alert: HealthAlert,
  since: string,
): Promise<boolean> {
  const bot = await channels.botId();
  const opening = healthAlertOpening(alert);
  const earliest = Date.parse(since) - ALERT_CLOCK_SKEW_MS;
  const messages = await channels.latestMessages(channelId, RESUME_LOOK_BACK);
  return messages.some(
    (message) =>
      message.authorId === bot &&
      Date.parse(message.sentAt) >= earliest &&
      message.content.startsWith(opening),
  );
}

async function findPost(
  channels: DiscordChannels,
  channelId: string,
  post: QueuedPost,
): Promise<string | undefined> {
  const bot = await channels.botId();
  const messages = await channels.latestMessages(channelId, RESUME_LOOK_BACK);
  return messages.find(
    (message) => message.authorId === bot && message.embeds.some((embed) => embed.url === post.link),
  )?.id;
}

/**
 * The bot's forum post of this article: a thread the bot owns, named after the article, whose first
 * message (its id is the thread's) links the article, so that two articles with one headline are not
 * taken for one another.
 */
async function findForumPost(
  channels: DiscordChannels,
  channelId: string,
  post: QueuedPost,
): Promise<string | undefined> {
  const bot = await channels.botId();
  const name = articleThreadName(post);
  const candidates = (await channels.forumPosts(channelId, RESUME_LOOK_BACK)).filter(
    (thread) => thread.ownerId === bot && thread.name === name,
  );
  for (const thread of candidates) {
    const first = await channels.message(thread.id, thread.id);
    if (first?.authorId === bot && first.embeds.some((embed) => embed.url === post.link)) return thread.id;
  }
  return undefined;
}
