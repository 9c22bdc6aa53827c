import type { ChartSeries } from './bar-chart.ts';
import { OTHER_COLOUR, SERIES_COLOURS, seriesColour } from './palette.ts';
import { bucketStart, type TimeScale } from './time-buckets.ts';

/** Something counted in one bar: the day it happened and the part of the bar it belongs to. */
export interface Counted {
  day: string;
  group: string;
}

/** Named parts a bar is split into at most; the rest go together in one, so that colours stay apart. */
export const TOP_GROUPS = SERIES_COLOURS.length - 1;

/**
 * Counts `items` per period (`starts`, from `bucketsBetween`) and group: the TOP_GROUPS largest groups
 * (ties: the one met first) each a part of their own, the largest first, and every other group in one
 * part named `rest`, last and grey; when there is only one group more than that, it keeps its name.
 */
export function stackSeries(
  items: readonly Counted[],
  starts: readonly string[],
  scale: TimeScale,
  rest: string,
): ChartSeries[] {
  const totals = new Map<string, number>();
  for (const item of items) totals.set(item.group, (totals.get(item.group) ?? 0) + 1);
  const ranked = [...totals.keys()].sort((a, b) => totals.get(b)! - totals.get(a)!);
  const named = ranked.length <= TOP_GROUPS + 1 ? ranked : ranked.slice(0, TOP_GROUPS);
  const series: ChartSeries[] = named.map((name, index) => ({
    name,
    counts: starts.map(() => 0),
    colour: seriesColour(index),
  }));
  const other: ChartSeries = { name: rest, counts: starts.map(() => 0), colour: OTHER_COLOUR };
  const byName = new Map(series.map((part) => [part.name, part]));
  const position = new Map(starts.map((start, index) => [start, index]));
  for (const item of items) {
    const index = position.get(bucketStart(item.day, scale));
    if (index === undefined) continue;
    const part = byName.get(item.group) ?? other;
    part.counts[index]! += 1;
  }
  return named.length < ranked.length ? [...series, other] : series;
}
