import { fileURLToPath } from 'node:url';
import type { ChartOutcome } from './chart-modes.ts';
import { forkMeasurement } from './fork-measurement.ts';

/** What the chart measurement is asked to do (issue 30). */
export interface ChartJob {
  corpusName: string;
  /** A `Corpus` as JSON, as the engine measurements read it. */
  corpusFile: string;
  questionsFile: string;
  /** At most this many NewsQA questions (a fixed sample), then every written BBC/Reuters question. */
  newsqaQuestions: number;
  /** At most this many seconds, half for the timelines and their charts, half for `/ask` in turn. */
  budgetSeconds: number;
}

const entry = fileURLToPath(new URL('./chart-process.ts', import.meta.url));

/** Measures charts and `/ask` beside them in a fresh process; a failure is returned as `{ error }`. */
export function measureCharts(job: ChartJob, timeoutMs: number): Promise<ChartOutcome | { error: string }> {
  return forkMeasurement<ChartOutcome | { error: string }>(entry, job, {
    timeoutMs,
    execArgv: ['--max-old-space-size=8192'],
    fail: (error) => ({ error }),
  });
}
