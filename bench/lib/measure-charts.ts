import { fileURLToPath } from 'node:url';
import type { ChartOutcome } from './chart-modes.ts';
import { forkMeasurement } from './fork-measurement.ts';
import type { DatedJob } from './measure-dated.ts';

/**
 * What the chart measurement is asked to do (issue 30): what the dated one is, its `budgetSeconds` shared
 * by the two phases (a third for the timelines and their charts, the rest for `/ask` in turn).
 */
export type ChartJob = DatedJob;

const entry = fileURLToPath(new URL('./chart-process.ts', import.meta.url));

/** Measures charts and `/ask` beside them in a fresh process; a failure is returned as `{ error }`. */
export function measureCharts(job: ChartJob, timeoutMs: number): Promise<ChartOutcome | { error: string }> {
  return forkMeasurement<ChartOutcome | { error: string }>(entry, job, {
    timeoutMs,
    execArgv: ['--max-old-space-size=8192'],
    fail: (error) => ({ error }),
  });
}
