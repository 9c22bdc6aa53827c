/**
 * Lets pending I/O callbacks and timers run (heartbeats, other users' questions) before continuing.
 * `setImmediate` rather than a resolved promise: microtasks would run before any I/O could.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Long work cut into slices of about `sliceMs`: call `pause()` between small steps, and it yields to
 * the event loop whenever the current slice has run its time. Counting time rather than steps keeps
 * every slice short whatever a step costs.
 */
export class TimeSlicer {
  private sliceStart = performance.now();

  constructor(private readonly sliceMs = 8) {}

  /** Whether the current slice has used its time. */
  get due(): boolean {
    return performance.now() - this.sliceStart >= this.sliceMs;
  }

  /** Yields if the slice is used up; resolves at once (without yielding) otherwise. */
  async pause(): Promise<void> {
    if (this.due) await this.yield();
  }

  /** Yields now and starts a new slice. */
  async yield(): Promise<void> {
    await yieldToEventLoop();
    this.sliceStart = performance.now();
  }
}

/**
 * Work written once as a generator that yields between small steps, run either way: `finish` runs it
 * through on the spot, `finishInSlices` gives the event loop its turn whenever a slice has run its time.
 */
export type Steps<T> = Generator<void, T, void>;

export function finish<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export async function finishInSlices<T>(steps: Steps<T>, slicer = new TimeSlicer()): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await slicer.pause();
  }
}
