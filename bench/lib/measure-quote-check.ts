import { fileURLToPath } from 'node:url';
import { forkMeasurement } from './fork-measurement.ts';
import type { LatencySummary } from './percentiles.ts';

/** What the quote-check measurement is asked to do (issue 18). */
export interface QuoteCheckJob {
  corpusName: string;
  /** A `Corpus` as JSON, as the engine measurements read it. */
  corpusFile: string;
  questionsFile: string;
  /** Cases of each kind made from the corpus (verbatim, function word, number, ...). */
  perKind: number;
  /** At most this many seconds of timed checks. */
  budgetSeconds: number;
}

export interface QuoteCheckOutcome {
  corpusName: string;
  passages: number;
  /** Latency of `checkQuote` (index candidates + alignment), ms. */
  quoteCheck: LatencySummary;
  /** CPU time per check (user + system), which other load on the machine does not inflate, ms. */
  cpuPerCheckMs: number;
  /** Latency of `engine.answer` for NewsQA questions in the same process, for comparison, ms. */
  ask: LatencySummary;
}

const entry = fileURLToPath(new URL('./quote-check-process.ts', import.meta.url));

/** Measures the quote check in a fresh process; a failure is returned as `{ error }`, never thrown. */
export function measureQuoteCheck(
  job: QuoteCheckJob,
  timeoutMs: number,
): Promise<QuoteCheckOutcome | { error: string }> {
  return forkMeasurement<QuoteCheckOutcome | { error: string }>(entry, job, {
    timeoutMs,
    execArgv: ['--max-old-space-size=8192'],
    fail: (error) => ({ error }),
  });
}

/** The report's lines for the quote check, with its p99 against Discord's 3-second window. */
export function quoteCheckLines(outcome: QuoteCheckOutcome | { error: string }): string[] {
  if ('error' in outcome) return [`Quote check (issue 18): FAILED: ${outcome.error.split('\n')[0]}`];
  const { quoteCheck: q, ask } = outcome;
  return [
    `Quote check (issue 18) at ${outcome.passages} passages (${outcome.corpusName}), ${q.count} checks: p50 ${q.p50.toFixed(1)} ms, p99 ${q.p99.toFixed(1)} ms, max ${q.max.toFixed(1)} ms, CPU ${outcome.cpuPerCheckMs.toFixed(1)} ms per check`,
    `  p99 is ${((q.p99 / 3000) * 100).toFixed(1)}% of Discord's 3 s window; /ask in the same process: p50 ${ask.p50.toFixed(1)} ms, p99 ${ask.p99.toFixed(1)} ms (quote check / ask p99: ${(q.p99 / ask.p99).toFixed(2)}x)`,
  ];
}
