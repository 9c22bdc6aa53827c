import type { RetrievalScores } from './newsqa.ts';
import type { LatencySummary } from './percentiles.ts';

/** What the parent asks one child process to measure. */
export interface MeasurementJob {
  engine: string;
  /** Name of the corpus size, echoed in the result. */
  corpusName: string;
  /** A JSON file holding the `Corpus` to index. */
  corpusFile: string;
  questionsFile: string;
  /** Questions run untimed first, so JIT compilation is not counted as query latency. */
  warmupQuestions: number;
  /** Ask only N questions, a fixed pseudo-random sample (all when null); for quick development runs. */
  questionLimit: number | null;
  /**
   * Seconds the timed queries may take before the rest are skipped; hit@5 then covers only the
   * questions asked and the result says so.
   */
  queryBudgetSeconds: number;
  /** Whether to save and reload the index (skipped when the run is short of time). */
  measurePersistence: boolean;
}

/** Serialized-index figures, for engines that can save and load their index. */
export interface PersistenceMeasurement {
  bytes: number;
  saveMs: number;
  loadMs: number;
  /** Whether the loaded index returned the same top results as the built one on the first questions. */
  loadedMatches: boolean;
}

/** Everything measured for one engine on one corpus size. */
export interface EngineMeasurement {
  engine: string;
  corpusName: string;
  passages: number;
  buildMs: number;
  /**
   * CPU time of the build (user + system, all threads). Other load on a shared machine inflates wall
   * time but hardly CPU time, so growth across sizes is judged on this.
   */
  buildCpuMs: number;
  /** Heap in use after building and collecting garbage, minus the same before building (corpus loaded). */
  indexHeapBytes: number;
  heapUsedBytes: number;
  rssBytes: number;
  /** RSS growth across the build. */
  indexRssBytes: number;
  latency: LatencySummary;
  /** CPU time per timed query (user + system, all threads), for the same reason as `buildCpuMs`. */
  cpuPerQueryMs: number;
  quality: RetrievalScores;
  questionsAvailable: number;
  /** True when the query budget ran out before every question was asked. */
  truncated: boolean;
  persistence: PersistenceMeasurement | null;
  /** Whether garbage was collected before memory readings (node --expose-gc). */
  memorySettled: boolean;
}

/** A measurement that failed: the engine crashed, ran out of memory or timed out. */
export interface FailedMeasurement {
  engine: string;
  corpusName: string;
  error: string;
}

export type MeasurementOutcome = EngineMeasurement | FailedMeasurement;

export function isFailed(outcome: MeasurementOutcome): outcome is FailedMeasurement {
  return 'error' in outcome;
}
