/**
 * Searches under way on this thread's behalf (asked of an index worker, or run here), counted in shared
 * memory so that a thread drawing charts can wait for none (`Atomics.wait`): a chart drawn beside a
 * question slowed the question's p99 1.5-2x on 2 shared cores, even with the drawing thread at the
 * lowest priority. Each thread has its own count; the one that hands charts to the chart worker
 * shares it with that worker.
 */
export const SEARCHES_IN_FLIGHT = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));

/** Counts a search as under way; call the function returned, once, when it has ended. */
export function searchBegun(): () => void {
  Atomics.add(SEARCHES_IN_FLIGHT, 0, 1);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    if (Atomics.sub(SEARCHES_IN_FLIGHT, 0, 1) === 1) Atomics.notify(SEARCHES_IN_FLIGHT, 0);
  };
}

/** `run`, counted as a search under way while it runs. */
export function asSearch<T>(run: () => T): T {
  const ended = searchBegun();
  try {
    return run();
  } finally {
    ended();
  }
}
