import type { ChannelKind, FeedPublisher, HealthAlert, PostTarget } from '../feeds/feed-publisher.ts';
import type { QueuedPost } from '../feeds/feed-state.ts';
import type { ReplyPayload } from './incoming.ts';
import type { ChannelMessage } from './library-view.ts';
import { articleThreadName, renderArticlePost, renderHealthAlert } from './render/feeds.ts';
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
  /** The bot's own user id, to tell its messages from others'. */
  botId(): Promise<string>;
}

/** How far back a post cut short by a crash is looked for in a text channel. */
const RESUME_LOOK_BACK = 50;

/** The feeds' posts and alerts, rendered and sent through `channels`. */
export function feedPublisher(channels: DiscordChannels): FeedPublisher {
  return {
    channelKind: (channelId) => channels.kind(channelId),
    async postArticle(target: PostTarget, post: QueuedPost, { resume }) {
      const message = finalizeReply(renderArticlePost(post));
      if (target.forum) {
        await channels.startForumPost(target.channelId, articleThreadName(post), message);
        return;
      }
      // An attempt cut short may have posted: the bot's own message with this article's link is it.
      const earlier = resume ? await findPost(channels, target.channelId, post) : undefined;
      const messageId = earlier ?? (await channels.send(target.channelId, message));
      if (target.thread) await channels.startThread(target.channelId, messageId, articleThreadName(post));
    },
    async postAlert(channelId: string, alert: HealthAlert) {
      await channels.send(channelId, finalizeReply(renderHealthAlert(alert)));
    },
  };
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
