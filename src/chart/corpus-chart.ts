import type { ArticleMeta } from '../corpus/article.ts';
import { publishedDay } from '../corpus/published-date.ts';
import type { BarChart } from './bar-chart.ts';
import { seriesColour } from './palette.ts';
import {
  bucketLabel,
  bucketStart,
  bucketsBetween,
  formatSpan,
  scaleFor,
  type TimeScale,
} from './time-buckets.ts';

/** `/about`'s strip: as wide as the other charts, a third of their height. */
export const STRIP_WIDTH = 800;
export const STRIP_HEIGHT = 200;
/** Months a strip shows, 20 years, each bar still 3 pixels wide; a longer archive is shown per year. */
const STRIP_BARS = 240;

/**
 * `/about`'s chart: the corpus's articles per month (per year past 20 years), one strip without legend,
 * like a sparkline; undated articles counted in the note. Undefined when none is dated.
 */
export function corpusChart(articles: readonly Pick<ArticleMeta, 'published'>[]): BarChart | undefined {
  const days = articles.flatMap((article) => (article.published ? [publishedDay(article.published)] : []));
  if (days.length === 0) return undefined;
  days.sort();
  const first = days[0]!;
  const last = days.at(-1)!;
  const scale = scaleFor(first, last, 'month', STRIP_BARS);
  const starts = bucketsBetween(first, last, scale);
  const position = new Map(starts.map((start, index) => [start, index]));
  const counts = starts.map(() => 0);
  for (const day of days) counts[position.get(bucketStart(day, scale))!]! += 1;
  const undated = articles.length - days.length;
  return {
    name: 'articles',
    width: STRIP_WIDTH,
    height: STRIP_HEIGHT,
    title: `Articles per ${scale}, ${formatSpan(first, last, scale)}`,
    subtitle: `${days.length.toLocaleString('en-US')} dated article${days.length === 1 ? '' : 's'} · most in ${busiest(starts, counts, scale)}`,
    unit: 'articles',
    labels: starts.map((start) => bucketLabel(start, scale)),
    series: [{ name: 'articles', counts, colour: seriesColour(0) }],
    compact: true,
    ...(undated > 0 ? { note: `${undated.toLocaleString('en-US')} undated not drawn` } : {}),
  };
}

/** The period with the most articles, and how many: `Mar 1987 (11,021)`. */
function busiest(starts: readonly string[], counts: readonly number[], scale: TimeScale): string {
  const top = counts.indexOf(Math.max(...counts));
  return `${bucketLabel(starts[top]!, scale)} (${counts[top]!.toLocaleString('en-US')})`;
}
