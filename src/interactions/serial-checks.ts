import type { EngineView } from './library-view.ts';

/**
 * Runs a check after each reload, never two at once: a reload during a check runs one more check
 * after it, on the engine serving by then (the latest engine covers any reloads in between).
 */
export class SerialChecks<T> {
  readonly #run: (engine: EngineView) => Promise<T>;
  #running: Promise<T> | undefined;
  #again: EngineView | undefined;

  constructor(run: (engine: EngineView) => Promise<T>) {
    this.#run = run;
  }

  /** Checks `engine` now, or after the running check (whose result this then resolves to). */
  check(engine: EngineView): Promise<T> {
    if (this.#running) {
      this.#again = engine;
      return this.#running;
    }
    this.#running = this.#run(engine).finally(() => {
      this.#running = undefined;
      const next = this.#again;
      this.#again = undefined;
      if (next) void this.check(next);
    });
    return this.#running;
  }
}
