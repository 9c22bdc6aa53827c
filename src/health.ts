import type { Logger } from './logging/logger.ts';

/** How one dependency (the records' database, Redis) is doing, as `/healthz` and `/about` show it. */
export interface DependencyHealth {
  /** What it is for: `database` (the community's records) or `redis` (what replicas share). */
  name: string;
  /** What serves it: `sqlite`, `postgres`, `redis`. */
  kind: string;
  status: 'ok' | 'degraded';
  /** When it became degraded (ISO 8601). */
  since?: string;
  /** The last failure, in the client's words. */
  error?: string;
  /** What the replica does meanwhile, in plain words. */
  meanwhile?: string;
  /** Records waiting to be written (the database). */
  pending?: number;
  /** Records given up (past the most kept waiting); also logged as errors. */
  dropped?: number;
}

/**
 * Whether a dependency answers, from the outcomes of what was asked of it: degraded from the first
 * failure, ok again from the first success. Each change is logged once (a warning going down, the
 * recovery coming back), not each failure.
 */
export class DependencyState {
  readonly name: string;
  readonly kind: string;
  readonly #logger: Logger;
  readonly #meanwhile: string;
  #since: Date | undefined;
  #error: string | undefined;

  constructor(options: { name: string; kind: string; logger: Logger; meanwhile: string }) {
    this.name = options.name;
    this.kind = options.kind;
    this.#logger = options.logger;
    this.#meanwhile = options.meanwhile;
  }

  get degraded(): boolean {
    return this.#since !== undefined;
  }

  failed(error: unknown, fields: Record<string, unknown> = {}): void {
    this.#error = error instanceof Error ? error.message : String(error);
    if (this.#since !== undefined) return;
    this.#since = new Date();
    this.#logger.warn(`${this.name} (${this.kind}) unavailable: ${this.#meanwhile}`, {
      error: this.#error,
      ...fields,
    });
  }

  succeeded(fields: Record<string, unknown> = {}): void {
    if (this.#since === undefined) return;
    const downForMs = Date.now() - this.#since.getTime();
    this.#since = undefined;
    this.#error = undefined;
    this.#logger.info(`${this.name} (${this.kind}) available again`, { downForMs, ...fields });
  }

  report(extra: Partial<DependencyHealth> = {}): DependencyHealth {
    return {
      name: this.name,
      kind: this.kind,
      status: this.degraded ? 'degraded' : 'ok',
      ...(this.#since ? { since: this.#since.toISOString(), meanwhile: this.#meanwhile } : {}),
      ...(this.#error ? { error: this.#error } : {}),
      ...extra,
    };
  }
}
