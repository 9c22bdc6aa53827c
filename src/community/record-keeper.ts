import { type DependencyHealth, DependencyState } from '../health.ts';
import type { Logger } from '../logging/logger.ts';
import type { Awaitable, RecordStore } from './record-store.ts';

/** The records cannot be read or written just now; the caller tells the member in plain words. */
export class RecordsUnavailableError extends Error {
  override name = 'RecordsUnavailableError';
}

/** A write nobody waits for, kept until it lands. */
interface PendingWrite {
  what: string;
  run: (store: RecordStore) => Awaitable<unknown>;
}

export interface RecordKeeperOptions {
  store: RecordStore;
  logger: Logger;
  /** How long a member waits for a read or a write they asked for before being told to try later. @default 2000 */
  askTimeoutMs?: number;
  /** Writes kept waiting at most; past it the oldest are given up, each counted and logged. @default 10_000 */
  maxPending?: number;
  /** The first wait before a failed write is tried again; it doubles up to `maxRetryMs`. @default 250 */
  firstRetryMs?: number;
  /** @default 10_000 */
  maxRetryMs?: number;
}

/**
 * Stands between the bot and its record store (SQLite or PostgreSQL) so that answering never waits on
 * recording. Writes nobody waits for (an answer shown, a question without coverage, cited passages, a
 * posted watch's end) are `write`n: tried at once, and when the store is locked, down or slow, kept in
 * order and tried again in the background, doubling the wait up to 10 s, until they land; none is
 * dropped silently (past `maxPending` the oldest are given up, logged and counted in `/healthz`).
 * What a member waits for (a vote, a watch, `/gaps`) is `ask`ed, within a short timeout, and a failure
 * is theirs to retry. Recovery is automatic: the first write or question that succeeds again drains
 * what waits.
 */
export class RecordKeeper {
  readonly store: RecordStore;
  readonly state: DependencyState;
  readonly #logger: Logger;
  readonly #askTimeoutMs: number;
  readonly #maxPending: number;
  readonly #firstRetryMs: number;
  readonly #maxRetryMs: number;
  readonly #queue: PendingWrite[] = [];
  #retryMs: number;
  #retryTimer: NodeJS.Timeout | undefined;
  #running = false;
  #dropped = 0;
  #drained: (() => void)[] = [];

  constructor(options: RecordKeeperOptions) {
    this.store = options.store;
    this.#logger = options.logger;
    this.#askTimeoutMs = options.askTimeoutMs ?? 2_000;
    this.#maxPending = options.maxPending ?? 10_000;
    this.#firstRetryMs = options.firstRetryMs ?? 250;
    this.#maxRetryMs = options.maxRetryMs ?? 10_000;
    this.#retryMs = this.#firstRetryMs;
    this.state = new DependencyState({
      name: 'database',
      kind: options.store.kind,
      logger: options.logger,
      meanwhile: 'answers go on; records wait in memory and are written once it is back',
    });
  }

  /** RECORD_QUESTIONS, as the store was opened with. */
  get recordQuestions(): boolean {
    return this.store.recordQuestions;
  }

  /** Writes waiting for the store. */
  get pending(): number {
    return this.#queue.length;
  }

  /**
   * Records something nobody waits for. Tried now when nothing waits before it (SQLite writes then
   * before this returns), else kept behind what waits, in order.
   */
  write(what: string, run: (store: RecordStore) => Awaitable<unknown>): void {
    if (this.#queue.length >= this.#maxPending) {
      const given = this.#queue.shift();
      this.#dropped += 1;
      this.#logger.error('community records: too many waiting for the database; the oldest is given up', {
        what: given?.what,
        waiting: this.#queue.length,
        dropped: this.#dropped,
      });
    }
    this.#queue.push({ what, run });
    this.#pump();
  }

  /**
   * Reads or writes what a member waits for, within the ask timeout. Rejects with
   * `RecordsUnavailableError` when the store fails or is too slow.
   */
  async ask<T>(run: (store: RecordStore) => Awaitable<T>, timeoutMs = this.#askTimeoutMs): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await Promise.race([
        Promise.resolve().then(() => run(this.store)),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(new RecordsUnavailableError(`the ${this.store.kind} database did not answer in time`)),
            timeoutMs,
          );
        }),
      ]);
      this.#succeeded();
      return result;
    } catch (error) {
      this.state.failed(error, { waiting: this.#queue.length });
      throw error instanceof RecordsUnavailableError
        ? error
        : new RecordsUnavailableError(error instanceof Error ? error.message : String(error), {
            cause: error,
          });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Like `ask`, but `fallback` instead of an error: for what an answer can do without. `timeoutMs`
   * (at most the ask timeout) bounds what a question waits for it.
   */
  async askOr<T>(fallback: T, run: (store: RecordStore) => Awaitable<T>, timeoutMs?: number): Promise<T> {
    if (this.state.degraded && this.#queue.length > 0) return fallback;
    try {
      return await this.ask(run, Math.min(timeoutMs ?? this.#askTimeoutMs, this.#askTimeoutMs));
    } catch {
      return fallback;
    }
  }

  health(): DependencyHealth {
    return this.state.report({
      ...(this.#queue.length > 0 ? { pending: this.#queue.length } : {}),
      ...(this.#dropped > 0 ? { dropped: this.#dropped } : {}),
    });
  }

  /**
   * Waits (at most `timeoutMs`) for what waits to be written, trying at once; resolves to how many
   * are still waiting, each then logged as lost with the stop.
   */
  async flush(timeoutMs: number): Promise<number> {
    if (this.#queue.length > 0) {
      clearTimeout(this.#retryTimer);
      this.#retryTimer = undefined;
      this.#pump();
      await Promise.race([
        new Promise<void>((resolve) => this.#drained.push(resolve)),
        new Promise((resolve) => setTimeout(resolve, timeoutMs).unref()),
      ]);
    }
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    const left = this.#queue.length;
    if (left > 0) {
      this.#logger.error('community records: not written before stopping (the database did not come back)', {
        lost: left,
        what: [...new Set(this.#queue.map((write) => write.what))],
      });
    }
    return left;
  }

  /** Writes what waits, in order, synchronously while the store answers synchronously. */
  #pump(): void {
    if (this.#running || this.#retryTimer) return;
    this.#running = true;
    while (this.#queue.length > 0) {
      const head = this.#queue[0] as PendingWrite;
      let result: Awaitable<unknown>;
      try {
        result = head.run(this.store);
      } catch (error) {
        this.#running = false;
        this.#failed(error);
        return;
      }
      if (result instanceof Promise) {
        result.then(
          () => {
            this.#landed(head);
            this.#running = false;
            this.#pump();
          },
          (error: unknown) => {
            this.#running = false;
            this.#failed(error);
          },
        );
        return;
      }
      this.#landed(head);
    }
    this.#running = false;
    this.#succeeded();
    for (const resolve of this.#drained.splice(0)) resolve();
  }

  #landed(write: PendingWrite): void {
    if (this.#queue[0] === write) this.#queue.shift();
  }

  #failed(error: unknown): void {
    this.state.failed(error, { waiting: this.#queue.length });
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#pump();
    }, this.#retryMs);
    this.#retryTimer.unref();
    this.#retryMs = Math.min(this.#retryMs * 2, this.#maxRetryMs);
  }

  /** The store answered: what waits is tried at once. */
  #succeeded(): void {
    if (this.#queue.length > 0) {
      if (this.#retryTimer && !this.#running) {
        clearTimeout(this.#retryTimer);
        this.#retryTimer = undefined;
        this.#pump();
      }
      return;
    }
    this.#retryMs = this.#firstRetryMs;
    this.state.succeeded();
  }
}
