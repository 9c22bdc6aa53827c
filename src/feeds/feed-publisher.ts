import type { FeedHealth, FeedRecord, QueuedPost } from './feed-state.ts';

/** What kind of channel a feed's articles would be posted to, as Discord reports it. */
export type ChannelKind = 'text' | 'forum' | 'other' | 'unknown';

/** Where one feed's articles go. */
export interface PostTarget {
  channelId: string;
  /** A thread of its own for each article (text channels). */
  thread: boolean;
  /** The channel is a forum: each article is a post of its own. */
  forum: boolean;
}

/** A message for the moderators' channel about one feed's health. */
export interface HealthAlert {
  feed: Pick<FeedRecord, 'url' | 'title' | 'errors' | 'lastError' | 'lastNewItemAt' | 'addedAt'>;
  status: FeedHealth['status'];
  /** The status before, for a recovery. */
  was: FeedHealth['status'];
  silentHours: number;
}

/**
 * Posting a feed's articles and its health alerts in Discord. The feeds folder decides what is posted
 * and when and keeps the state; an implementation (src/interactions/feed-publisher.ts) renders and
 * sends. `resume` means an earlier attempt may have been cut short: look for it before posting again
 * (an alert: one sent since `resume`, when the first attempt began).
 */
export interface FeedPublisher {
  channelKind(channelId: string): Promise<ChannelKind>;
  postArticle(target: PostTarget, post: QueuedPost, options: { resume: boolean }): Promise<void>;
  postAlert(channelId: string, alert: HealthAlert, options?: { resume?: string | undefined }): Promise<void>;
}
