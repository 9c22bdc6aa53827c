import { fileURLToPath } from 'node:url';
import type { DatedOutcome } from './dated-modes.ts';
import { forkMeasurement } from './fork-measurement.ts';

/** What the filtered-/ask and /timeline measurement is asked to do (issue 11). */
export interface DatedJob {
  corpusName: string;
  /** A `Corpus` as JSON, as the engine measurements read it. */
  corpusFile: string;
  questionsFile: string;
  /** At most this many NewsQA questions (a fixed sample), then every written BBC/Reuters question. */
  newsqaQuestions: number;
  /** At most this many seconds of timed questions (each asked three ways). */
  budgetSeconds: number;
}

const entry = fileURLToPath(new URL('./dated-process.ts', import.meta.url));

/** Measures `/ask`, filtered `/ask` and `/timeline` in a fresh process; a failure is returned as `{ error }`. */
export function measureDated(job: DatedJob, timeoutMs: number): Promise<DatedOutcome | { error: string }> {
  return forkMeasurement<DatedOutcome | { error: string }>(entry, job, {
    timeoutMs,
    execArgv: ['--max-old-space-size=8192'],
    fail: (error) => ({ error }),
  });
}
