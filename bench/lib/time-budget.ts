/** Share of an engine's time slot given to timed queries; the rest covers start-up, build, save and load. */
export const QUERY_SHARE_OF_SLOT = 0.35;

/**
 * Fixed cost of one measurement (process start, reading the corpus, warm-up), counted as this many
 * passages when sharing time, so small corpora are not starved of questions.
 */
export const OVERHEAD_PASSAGES = 40_000;

/** Below this many seconds left in the whole run, saving and loading indexes is skipped. */
export const PERSISTENCE_CUTOFF_SECONDS = 30;

export interface SlotRequest {
  /** Seconds left before the run's time limit. */
  remainingSeconds: number;
  /** Passages of the corpus this measurement indexes. */
  passages: number;
  /** Passages summed over this and every measurement still to run. */
  remainingPassages: number;
  /** How many measurements remain, this one included. */
  remainingMeasurements: number;
  /** Query budget never exceeds this (the `--query-budget` option). */
  maxQuerySeconds: number;
  /** Query budget never falls below this, so every engine answers some questions. */
  minQuerySeconds: number;
}

/** What one measurement may spend. */
export interface Slot {
  querySeconds: number;
  measurePersistence: boolean;
}

/**
 * Splits the time left among the measurements still to run in proportion to their corpus sizes plus a
 * fixed overhead (cost grows with passages), so a run stays within its time limit however loaded the machine is: on a busy
 * machine engines get fewer timed questions, never more time.
 */
export function allotSlot(request: SlotRequest): Slot {
  const weight = request.passages + OVERHEAD_PASSAGES;
  const totalWeight = request.remainingPassages + request.remainingMeasurements * OVERHEAD_PASSAGES;
  const share = (Math.max(0, request.remainingSeconds) * weight) / totalWeight;
  const querySeconds = Math.min(
    request.maxQuerySeconds,
    Math.max(request.minQuerySeconds, share * QUERY_SHARE_OF_SLOT),
  );
  return { querySeconds, measurePersistence: request.remainingSeconds >= PERSISTENCE_CUTOFF_SECONDS };
}
