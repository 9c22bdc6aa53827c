/**
 * What a chart shows, without the drawing: the bars, their stacked parts and what marks them. Builders
 * (`timeline-chart.ts`, `gaps-chart.ts`, `corpus-chart.ts`) make one from the product's data, tests read
 * it as the data behind the picture, `describe-chart.ts` words it for the attachment's alt text, and
 * `draw-chart.ts` draws it. Plain data, so it crosses to the chart worker as it is.
 */
export interface BarChart {
  /** The attachment's file name without `.png`: `timeline`, `gaps`, `articles`. */
  name: string;
  /** The picture's size in pixels. */
  width: number;
  height: number;
  /** What and when, e.g. `Gravelines dock strike, 1987 – 2016`. */
  title: string;
  /** How to read it, e.g. `7 dated articles per year, by outlet`. */
  subtitle: string;
  /** What one unit of a bar is, for the axis and the alt text: `articles`, `questions`. */
  unit: string;
  /** The bars' periods, oldest first, e.g. `Mar 2003`. */
  labels: string[];
  /** The stacked parts of every bar, the largest first; `counts[i]` is its part of bar `i`. */
  series: ChartSeries[];
  /** A bar to point at (the first report), with what to say there. */
  marker?: { index: number; label: string };
  /** A last line under the chart, e.g. how many undated articles are not drawn. */
  note?: string;
  /** One short strip without legend or axis title (`/about`'s articles per month). */
  compact?: boolean;
}

export interface ChartSeries {
  name: string;
  counts: number[];
  /** `#rrggbb`, from `palette.ts`. */
  colour: string;
}

/** What the bars add up to. */
export function chartTotal(chart: BarChart): number {
  return chart.series.reduce((sum, series) => sum + series.counts.reduce((a, b) => a + b, 0), 0);
}

/** Each bar's height (its parts added). */
export function barTotals(chart: BarChart): number[] {
  return chart.labels.map((_, index) =>
    chart.series.reduce((sum, series) => sum + (series.counts[index] ?? 0), 0),
  );
}
