import type { HealthAlert } from '../../feeds/feed-publisher.ts';
import type { FeedRecord, FeedSettings, QueuedPost } from '../../feeds/feed-state.ts';
import type { ReplyPayload } from '../incoming.ts';
import { escapeText } from './escape.ts';
import { channelMention } from './settings.ts';
import { fitText } from './truncate.ts';

/** Feeds shown by `/feeds list` before "and N more" (an embed holds at most 6000 characters). */
const FEEDS_SHOWN = 8;

/** The reply to `/feeds add`. */
export function renderFeedAdded(
  record: FeedRecord,
  items: number,
  everyMinutes: number,
  postsPerPoll: number,
): ReplyPayload {
  return {
    content:
      `Following **${escapeText(record.title ?? 'an untitled feed')}** (${escapeText(record.url)}): ${items} item${items === 1 ? '' : 's'} listed now. ` +
      `It is read now and then every ${everyMinutes} minutes; new articles are added in one batch per read.` +
      (record.post
        ? ` ${postsWhere(record.post)}, at most ${postsPerPoll} per read (the rest at the next reads).`
        : '') +
      ' `/feeds list` shows how it goes.',
  };
}

/** Where and how a feed's new articles are posted. */
function postsWhere(post: NonNullable<FeedRecord['post']>): string {
  if (post.forum) return `Each new article is a post of its own in ${channelMention(post.channelId)}`;
  return `Each new article is posted in ${channelMention(post.channelId)}${post.thread ? ', with a thread of its own' : ''}`;
}

/** A feed's filter, after `/feeds filter`. */
export function renderFeedFilter(record: FeedRecord): ReplyPayload {
  const name = `**${escapeText(record.title ?? record.url)}**`;
  if (!record.filter) return { content: `${name} has no filter: every new item is added.` };
  return { content: `${name}: ${filterLine(record.filter)} Items already read are not read again.` };
}

function filterLine(filter: NonNullable<FeedRecord['filter']>): string {
  const words = (list: string[]) => list.map((word) => `“${escapeText(word)}”`).join(', ');
  return [
    filter.include.length > 0 ? `only items naming ${words(filter.include)} are added.` : '',
    filter.exclude.length > 0 ? `Items naming ${words(filter.exclude)} are skipped.` : '',
  ]
    .filter((part) => part)
    .join(' ')
    .replace(/^only/, 'Only');
}

/** `/feeds alerts`: where health alerts go. */
export function renderAlertsChannel(settings: FeedSettings, silentHours: number): ReplyPayload {
  if (!settings.alertsChannelId)
    return { content: 'Feed alerts are off. Set a moderators’ channel with `/feeds alerts channel:`.' };
  return {
    content:
      `Feed alerts go to ${channelMention(settings.alertsChannelId)}: a message when a feed fails 3 reads in a row ` +
      `or brings nothing new for ${silentHours} hours, and one when it recovers.`,
  };
}

/** `/feeds list`: each feed's last poll, items added and last error. */
export function renderFeedList(
  feeds: readonly FeedRecord[],
  now: Date,
  settings: FeedSettings = {},
): ReplyPayload {
  if (feeds.length === 0) return { content: 'No feeds are followed. Add one with `/feeds add url:`.' };
  const shown = feeds.slice(0, FEEDS_SHOWN);
  const alerts = settings.alertsChannelId ? ` Alerts go to ${channelMention(settings.alertsChannelId)}.` : '';
  return {
    content: `${feeds.length} feed${feeds.length === 1 ? '' : 's'} followed${feeds.length > FEEDS_SHOWN ? ` (first ${FEEDS_SHOWN} shown)` : ''}:${alerts}`,
    embeds: [
      {
        fields: shown.map((feed) => ({
          name: fitText(feed.title ?? feed.url, 256, { render: escapeText }),
          // Escaped piece by piece: the timestamps are Discord markup that must stay intact. A field holds
          // 1,024 characters: the URL, two lines and the last error (the unreadable items and why) fit.
          value: [
            fitText(feed.url, 200, { render: escapeText }),
            `Last read: ${feed.lastPollAt ? timestamp(feed.lastPollAt) : 'not yet'} · next: ${timestamp(feed.nextPollAt, now)}`,
            `Articles added: ${feed.itemsAdded} · added by ${escapeText(feed.addedBy)}`,
            ...(feed.post
              ? [
                  `${postsWhere(feed.post)} · posted: ${feed.postsMade ?? 0}${feed.queue?.length ? ` · waiting: ${feed.queue.length}` : ''}` +
                    (feed.postError
                      ? ` · last post failed: ${fitText(feed.postError, 150, { render: escapeText })}`
                      : ''),
                ]
              : []),
            ...(feed.filter ? [`Filter: ${fitText(filterLine(feed.filter), 200)}`] : []),
            ...(feed.itemsFiltered
              ? [
                  `Skipped by the filter: ${feed.itemsFiltered} (latest: ${fitText(
                    (feed.filtered ?? []).map((title) => `“${title}”`).join(', '),
                    200,
                    { render: escapeText },
                  )})`,
                ]
              : []),
            feed.lastError
              ? `Last error: ${fitText(feed.lastError, 400, { render: escapeText })}${feed.errors > 1 ? ` (${feed.errors} failed reads in a row)` : ''}`
              : 'No errors',
          ].join('\n'),
        })),
      },
    ],
  };
}

/** Discord's relative timestamp, or "now" for a time already past. */
function timestamp(iso: string, now?: Date): string {
  const time = Date.parse(iso);
  if (now !== undefined && time <= now.getTime()) return 'due now';
  if (Number.isNaN(time)) return 'unknown';
  return `<t:${Math.floor(time / 1000)}:R>`;
}

/** Discord's longest thread name. */
const THREAD_NAME_MAX = 100;

/** The post of one article a feed brought: headline (linked), outlet, date and lede, as an embed. */
export function renderArticlePost(post: QueuedPost): ReplyPayload {
  const published = post.published ? Date.parse(post.published) : Number.NaN;
  return {
    embeds: [
      {
        title: fitText(post.title, 256, { render: escapeText }),
        url: post.link,
        ...(post.outlet ? { author: { name: fitText(post.outlet, 256) } } : {}),
        ...(post.lede ? { description: fitText(post.lede, 700, { render: escapeText }) } : {}),
        ...(Number.isNaN(published) ? {} : { timestamp: new Date(published).toISOString() }),
        footer: { text: `cite ${post.articleId}`.slice(0, 2048) },
      },
    ],
  };
}

/** A thread's or a forum post's name: the headline, cut at a word to Discord's 100 characters. */
export function articleThreadName(post: QueuedPost): string {
  return fitText(post.title.replace(/\s+/g, ' ').trim() || post.articleId, THREAD_NAME_MAX);
}

/** The moderators' message about a feed that fails, went silent, or recovered. */
export function renderHealthAlert(alert: HealthAlert): ReplyPayload {
  const opening = healthAlertOpening(alert);
  let content: string;
  if (alert.status === 'failing') {
    content = `${opening}${alert.feed.errors} reads in a row. Last error: ${fitText(alert.feed.lastError ?? 'unknown', 600, { render: escapeText })}`;
  } else if (alert.status === 'silent') {
    content = `${opening}${alert.silentHours} hours (since ${timestamp(alert.feed.lastNewItemAt ?? alert.feed.addedAt)}).`;
  } else {
    content = `${opening}${alert.was === 'failing' ? 'it reads again' : 'it brings new items again'}.`;
  }
  return { content };
}

/**
 * The words a health alert's message opens with, the same from one poll to the next (the count of
 * failed reads and the last error change): how a message cut short by a crash is recognised.
 */
export function healthAlertOpening(alert: HealthAlert): string {
  const name = `**${escapeText(alert.feed.title ?? alert.feed.url)}** (${escapeText(alert.feed.url)})`;
  if (alert.status === 'failing') return `⚠️ The feed ${name} failed `;
  if (alert.status === 'silent') return `⚠️ The feed ${name} has brought nothing new for `;
  return `✅ The feed ${name} has recovered: `;
}
