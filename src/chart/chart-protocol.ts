import type { BarChart } from './bar-chart.ts';

/** Draw this chart. */
export interface ChartRequest {
  id: number;
  chart: BarChart;
}

/** The PNG of request `id`, or why it could not be drawn. */
export type ChartReply = { id: number; png: Uint8Array } | { id: number; error: string };

/** What the worker is started with. */
export interface ChartWorkerData {
  /** Work under way that drawing gives way to (see `ChartWorkerOptions.yieldTo`). */
  yieldTo: Int32Array;
}
