import { Worker } from 'node:worker_threads';
import { SEARCHES_IN_FLIGHT } from '../search/searches-in-flight.ts';
import type { BarChart } from './bar-chart.ts';
import type { ChartReply, ChartRequest, ChartWorkerData } from './chart-protocol.ts';

/** Draws charts as PNGs somewhere other than the caller's thread. */
export interface ChartRenderer {
  /** The chart as PNG bytes; rejects (`ChartError`) when it could not be drawn in time. */
  render(chart: BarChart): Promise<Uint8Array>;
  /** Ends the worker; a later `render` starts another. */
  close(): Promise<void>;
}

/** A chart that could not be drawn: the reply goes out without it. */
export class ChartError extends Error {
  override name = 'ChartError';
}

export interface ChartWorkerOptions {
  /**
   * How long one chart may take, waiting included, before the worker is taken for stuck, ended, and
   * replaced by the next render. A chart takes tens of milliseconds.
   * @default 10_000
   */
  timeoutMs?: number;
  /**
   * Charts waiting at most; more are refused at once (their replies go without), so a burst of
   * timelines cannot pile up work and memory behind the one being drawn.
   * @default 16
   */
  maxWaiting?: number;
  /**
   * Charts whose PNG is kept, the most recently used: every page of a timeline shows the same chart,
   * and `/about`'s changes only with the corpus. 0 keeps none (the benchmark measures drawing).
   * @default 32
   */
  keep?: number;
  /**
   * A count in shared memory of work charts give way to: the worker starts drawing a chart, and
   * encodes it, only while it reads 0 (or after `CHART_PATIENCE_MS` of waiting).
   * @default the searches in flight on this thread (`SEARCHES_IN_FLIGHT`)
   */
  yieldTo?: Int32Array;
}

interface Pending {
  resolve: (png: Uint8Array) => void;
  reject: (error: ChartError) => void;
  timer: NodeJS.Timeout;
}

/**
 * Charts drawn on a worker thread of their own (`chart-worker.ts`), started at the first chart and
 * referenced only while it draws, so that an idle worker never keeps the process alive. A worker that fails or exits fails the charts
 * it held; the next chart starts a new one.
 */
export class ChartWorker implements ChartRenderer {
  readonly #timeoutMs: number;
  readonly #maxWaiting: number;
  readonly #pending = new Map<number, Pending>();
  readonly #keep: number;
  /** PNGs by their chart's JSON, least recently used first. */
  readonly #kept = new Map<string, Uint8Array>();
  #worker: Worker | undefined;
  #next = 0;
  readonly #yieldTo: Int32Array;

  constructor(options: ChartWorkerOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#maxWaiting = options.maxWaiting ?? 16;
    this.#keep = options.keep ?? 32;
    this.#yieldTo = options.yieldTo ?? SEARCHES_IN_FLIGHT;
  }

  async render(chart: BarChart): Promise<Uint8Array> {
    const key = JSON.stringify(chart);
    const kept = this.#kept.get(key);
    if (kept) {
      this.#kept.delete(key);
      this.#kept.set(key, kept);
      return kept;
    }
    const png = await this.#draw(chart);
    if (this.#keep > 0) {
      this.#kept.set(key, png);
      for (const oldest of this.#kept.keys()) {
        if (this.#kept.size <= this.#keep) break;
        this.#kept.delete(oldest);
      }
    }
    return png;
  }

  #draw(chart: BarChart): Promise<Uint8Array> {
    if (this.#pending.size >= this.#maxWaiting)
      return Promise.reject(new ChartError(`${this.#pending.size} charts are already waiting`));
    const worker = this.#started();
    const id = this.#next++;
    return new Promise<Uint8Array>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#fail(new ChartError(`no chart within ${this.#timeoutMs} ms`));
        void worker.terminate();
      }, this.#timeoutMs);
      timer.unref();
      // Held open while a chart is drawn (a console whose input has ended still prints it), not when idle.
      if (this.#pending.size === 0) worker.ref();
      this.#pending.set(id, { resolve, reject, timer });
      const request: ChartRequest = { id, chart };
      worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#fail(new ChartError('the chart worker was closed'));
    if (worker) await worker.terminate();
  }

  #started(): Worker {
    if (this.#worker) return this.#worker;
    const workerData: ChartWorkerData = { yieldTo: this.#yieldTo };
    const worker = new Worker(new URL('./chart-worker-entry.mjs', import.meta.url), { workerData });
    worker.unref();
    worker.on('message', (reply: ChartReply) => {
      const pending = this.#pending.get(reply.id);
      if (!pending) return;
      this.#pending.delete(reply.id);
      if (this.#pending.size === 0) worker.unref();
      clearTimeout(pending.timer);
      if ('png' in reply) pending.resolve(reply.png);
      else pending.reject(new ChartError(reply.error));
    });
    worker.on('error', (error) => this.#fail(new ChartError(`the chart worker failed: ${error.message}`)));
    worker.on('exit', () => {
      if (this.#worker === worker) this.#fail(new ChartError('the chart worker exited'));
    });
    this.#worker = worker;
    return worker;
  }

  /** Fails every chart waiting and forgets the worker, so that the next chart starts afresh. */
  #fail(error: ChartError): void {
    this.#worker = undefined;
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.#pending.clear();
  }
}
