import type { GapsReport } from '../community/gaps-report.ts';
import type { BarChart } from './bar-chart.ts';
import { stackSeries } from './stack-series.ts';
import { bucketLabel, bucketsBetween, formatSpan, scaleFor } from './time-buckets.ts';
import { CHART_HEIGHT, CHART_WIDTH } from './timeline-chart.ts';

/** Characters of a subject's name in the legend. */
const SUBJECT_CHARS = 32;

/**
 * `/gaps`'s chart: the questions without coverage per week of the period (per month or year when the
 * period is too long for weekly bars), stacked by the report's largest groups (what they are about),
 * the rest as "other subjects". Undefined when no such question was asked: nothing to draw.
 */
export function gapsChart(report: GapsReport): BarChart | undefined {
  const asked = report.groups.flatMap((group) =>
    group.askedAt.map((at) => ({ day: utcDay(at), group: subject(group.words, group.terms) })),
  );
  if (asked.length === 0) return undefined;
  const first = utcDay(report.from);
  const last = utcDay(report.to);
  const scale = scaleFor(first, last, 'week');
  const starts = bucketsBetween(first, last, scale);
  return {
    name: 'gaps',
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
    title: `Questions without coverage, last ${report.days} day${report.days === 1 ? '' : 's'}`,
    subtitle: `${asked.length.toLocaleString('en-US')} question${asked.length === 1 ? '' : 's'} per ${scale}, by subject · ${formatSpan(first, last, 'day')}`,
    unit: 'questions',
    labels: starts.map((start) => bucketLabel(start, scale)),
    series: stackSeries(asked, starts, scale, 'other subjects'),
  };
}

/** A group's subject as the legend names it: its words ("bridge, reopen"), cut to fit. */
function subject(words: readonly string[], terms: readonly string[]): string {
  const name = (words.length > 0 ? words : terms).join(', ') || 'no distinctive words';
  return name.length <= SUBJECT_CHARS ? name : `${name.slice(0, SUBJECT_CHARS - 1).trimEnd()}…`;
}

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
