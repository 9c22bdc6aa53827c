/** Heap and resident set size at one moment, in bytes. */
export interface MemorySnapshot {
  heapUsed: number;
  rss: number;
}

/**
 * Collects garbage (when node runs with `--expose-gc`) and reads memory use, so what is counted is what
 * is still reachable. Two collections, because one full GC can leave objects freed by finalisers.
 */
export function settledMemory(): MemorySnapshot {
  const collect = globalThis.gc;
  if (collect) {
    collect();
    collect();
  }
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

/** Whether `settledMemory` can collect garbage first; without it heap numbers include garbage. */
export function canCollectGarbage(): boolean {
  return typeof globalThis.gc === 'function';
}
