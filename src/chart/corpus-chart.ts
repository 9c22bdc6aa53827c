import type { ArticleMeta } from '../corpus/article.ts';
import { publishedDay } from '../corpus/published-date.ts';
import type { BarChart } from './bar-chart.ts';
import { seriesColour } from './palette.ts';
import { bucketLabel, bucketStart, bucketsBetween, formatSpan, scaleFor } from './time-buckets.ts';

/** `/about`'s strip: as wide as the other charts, a third of their height. */
export const STRIP_WIDTH = 800;
export const STRIP_HEIGHT = 200;

/**
 * `/about`'s chart: the corpus's articles per month (per year when that would be too many bars), one
 * strip without legend; undated articles counted in the note. Undefined when none is dated.
 */
export function corpusChart(articles: readonly Pick<ArticleMeta, 'published'>[]): BarChart | undefined {
  const days = articles.flatMap((article) => (article.published ? [publishedDay(article.published)] : []));
  if (days.length === 0) return undefined;
  days.sort();
  const first = days[0]!;
  const last = days.at(-1)!;
  const scale = scaleFor(first, last, 'month');
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
    subtitle: `${days.length} dated article${days.length === 1 ? '' : 's'}`,
    unit: 'articles',
    labels: starts.map((start) => bucketLabel(start, scale)),
    series: [{ name: 'articles', counts, colour: seriesColour(0) }],
    compact: true,
    ...(undated > 0 ? { note: `${undated} undated not drawn` } : {}),
  };
}
