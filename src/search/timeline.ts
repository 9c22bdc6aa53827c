import { publishedDay } from '../corpus/published-date.ts';
import type { Timeline, TimelineEntry } from './answer.ts';

/** The most articles a timeline lists: the most relevant ones, then put in date order. */
export const TIMELINE_ARTICLES = 50;
/** Ranked passages looked through for them (an article often has several among the best). */
export const TIMELINE_DEPTH = 150;

/**
 * Entries (most relevant first) in date order, oldest first, so the first is the first report;
 * articles of the same day keep their relevance order. Undated articles are listed apart, by relevance:
 * their place in time is unknown.
 */
export function orderTimeline(topic: string, entries: readonly TimelineEntry[]): Timeline {
  const dated = entries
    .filter((entry) => entry.published !== null)
    .sort((a, b) => publishedDay(a.published!).localeCompare(publishedDay(b.published!)));
  return { topic, dated, undated: entries.filter((entry) => entry.published === null) };
}
