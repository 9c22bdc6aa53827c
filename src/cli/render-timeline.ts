import { PUBLISHER_UNKNOWN } from '../corpus/citation.ts';
import { publishedDay } from '../corpus/published-date.ts';
import type { Timeline, TimelineEntry } from '../search/answer.ts';
import { stripControls } from '../text/controls.ts';
import { markQuote, type Style } from './render-answer.ts';

/**
 * A timeline as a person reads it in a terminal: one line per article, oldest first, the first report
 * marked, then the undated articles under their own heading. Corpus text is stripped of control characters.
 */
export function renderTimeline(timeline: Timeline, style: Style): string {
  const topic = stripControls(timeline.topic.trim().slice(0, 200));
  if (timeline.dated.length + timeline.undated.length === 0) return `No coverage found for “${topic}”.\n`;
  const line = (entry: TimelineEntry, first: boolean) =>
    [
      entry.published === null ? '' : `${style.bold(publishedDay(entry.published))}  `,
      stripControls(entry.publisher ?? PUBLISHER_UNKNOWN),
      ` — “${markQuote(entry, style.highlight)}”`,
      ` ${style.dim(`[${stripControls(entry.citation)}]`)}`,
      first ? `  ${style.bold('← first report')}` : '',
    ].join('');
  const lines = [`Timeline of “${topic}”, oldest first:`];
  for (const [i, entry] of timeline.dated.entries()) lines.push(line(entry, i === 0));
  if (timeline.undated.length > 0) {
    lines.push('', 'Undated (when these appeared is not known):');
    for (const entry of timeline.undated) lines.push(line(entry, false));
  }
  return `${lines.join('\n')}\n`;
}

/** A timeline in the CLI's JSON shape: `published` as ISO 8601, `firstReport` on the oldest dated entry. */
export function timelineToJson(timeline: Timeline): object {
  const entry = (e: TimelineEntry, firstReport: boolean) => ({
    citation: e.citation,
    article: e.article,
    title: e.title,
    publisher: e.publisher,
    url: e.url,
    published: e.published,
    quote: e.quote,
    firstReport,
  });
  return {
    topic: timeline.topic,
    dated: timeline.dated.map((e, i) => entry(e, i === 0)),
    undated: timeline.undated.map((e) => entry(e, false)),
  };
}
