/**
 * The value at percentile `p` (0-100) of `values`, by the nearest-rank method: the smallest value
 * such that at least `p`% of the values are less than or equal to it. Nearest-rank never
 * interpolates, so p99 of 2,130 latencies is a latency that was actually observed.
 * Throws on an empty list or a `p` outside 0-100.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError('percentile: no values');
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile: p must be within 0-100, got ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/** Latency summary of a run of timed operations, in milliseconds. */
export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  /** Operations per second when run back to back on one thread: `count / total time`. */
  perSecond: number;
}

/** Summarises per-operation latencies given in milliseconds. Throws on an empty list. */
export function summarizeLatencies(latenciesMs: readonly number[]): LatencySummary {
  const total = latenciesMs.reduce((sum, ms) => sum + ms, 0);
  return {
    count: latenciesMs.length,
    p50: percentile(latenciesMs, 50),
    p90: percentile(latenciesMs, 90),
    p99: percentile(latenciesMs, 99),
    max: percentile(latenciesMs, 100),
    mean: total / latenciesMs.length,
    perSecond: total > 0 ? (latenciesMs.length * 1000) / total : Number.POSITIVE_INFINITY,
  };
}
