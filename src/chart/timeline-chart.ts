import { PUBLISHER_UNKNOWN } from '../corpus/citation.ts';
import { publishedDay } from '../corpus/published-date.ts';
import type { Timeline } from '../search/answer.ts';
import type { Period } from '../search/period.ts';
import type { BarChart } from './bar-chart.ts';
import { stackSeries } from './stack-series.ts';
import { bucketLabel, bucketStart, bucketsBetween, formatDay, formatSpan, scaleFor } from './time-buckets.ts';

/** The size of `/timeline`'s and `/gaps`'s charts: wide enough for 45 bars, short enough for a phone. */
export const CHART_WIDTH = 800;
export const CHART_HEIGHT = 400;

/**
 * The chart of a timeline: its dated articles (the ones `/timeline` lists) per day, week, month or year
 * (the finest that fits the span), stacked by outlet, the first report marked; the undated ones are
 * counted in the note, not drawn. Undefined when no listed article is dated: nothing to draw.
 * `period` is the `since` / `until` the timeline was limited to, as written, for the title.
 */
export function timelineChart(timeline: Timeline, period: Period = {}): BarChart | undefined {
  const first = timeline.dated[0];
  const last = timeline.dated.at(-1);
  if (!first?.published || !last?.published) return undefined;
  const firstDay = publishedDay(first.published);
  const lastDay = publishedDay(last.published);
  const scale = scaleFor(firstDay, lastDay);
  const starts = bucketsBetween(firstDay, lastDay, scale);
  const series = stackSeries(
    timeline.dated.map((entry) => ({
      day: publishedDay(entry.published!),
      group: entry.publisher?.trim() || PUBLISHER_UNKNOWN,
    })),
    starts,
    scale,
    'other outlets',
  );
  const dated = timeline.dated.length;
  const undated = timeline.undated.length;
  return {
    name: 'timeline',
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
    title: `${oneLine(timeline.topic)}, ${periodWords(period) ?? formatSpan(firstDay, lastDay, scale)}`,
    subtitle: `${dated.toLocaleString('en-US')} dated article${dated === 1 ? '' : 's'} per ${scale}, by outlet`,
    unit: 'articles',
    labels: starts.map((start) => bucketLabel(start, scale)),
    series,
    marker: {
      index: starts.indexOf(bucketStart(firstDay, scale)),
      label: `First report ${formatDay(firstDay)}${first.publisher ? `, ${oneLine(first.publisher)}` : ''}`,
    },
    ...(undated > 0
      ? {
          note: `${undated.toLocaleString('en-US')} undated article${undated === 1 ? ' is' : 's are'} listed but not drawn.`,
        }
      : {}),
  };
}

/** `since 2003`, `until 2015-08`, `2003 – 2015-08`: the period as the member wrote it. */
function periodWords({ since, until }: Period): string | undefined {
  if (since && until) return since === until ? since : `${since} – ${until}`;
  if (since) return `since ${since}`;
  if (until) return `until ${until}`;
  return undefined;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
