/** One thread's heap, in bytes: its own JavaScript heap, and memory outside it that the thread holds. */
export interface ThreadMemory {
  heapUsed: number;
  /** Buffers, typed arrays and other memory outside the heap (process-wide in Node 20). */
  external: number;
}

/**
 * This thread's heap after a full garbage collection when the process runs with `--expose-gc` (a
 * worker inherits the flag), so what is counted is what is still reachable; otherwise as it stands.
 */
export function threadMemory(): ThreadMemory {
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  collect?.();
  const { heapUsed, external } = process.memoryUsage();
  return { heapUsed, external };
}
