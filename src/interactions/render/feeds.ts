import type { FeedRecord } from '../../feeds/feed-state.ts';
import type { ReplyPayload } from '../incoming.ts';
import { escapeText } from './escape.ts';
import { fitText } from './truncate.ts';

/** Feeds shown by `/feeds list` before "and N more" (an embed holds at most 6000 characters). */
const FEEDS_SHOWN = 8;

/** The reply to `/feeds add`. */
export function renderFeedAdded(record: FeedRecord, items: number, everyMinutes: number): ReplyPayload {
  return {
    content:
      `Following **${escapeText(record.title ?? 'an untitled feed')}** (${escapeText(record.url)}): ${items} item${items === 1 ? '' : 's'} listed now. ` +
      `It is read now and then every ${everyMinutes} minutes; new articles are added in one batch per read. \`/feeds list\` shows how it goes.`,
  };
}

/** `/feeds list`: each feed's last poll, items added and last error. */
export function renderFeedList(feeds: readonly FeedRecord[], now: Date): ReplyPayload {
  if (feeds.length === 0) return { content: 'No feeds are followed. Add one with `/feeds add url:`.' };
  const shown = feeds.slice(0, FEEDS_SHOWN);
  return {
    content: `${feeds.length} feed${feeds.length === 1 ? '' : 's'} followed${feeds.length > FEEDS_SHOWN ? ` (first ${FEEDS_SHOWN} shown)` : ''}:`,
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
