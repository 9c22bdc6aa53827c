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

/** Whether this replica serves the version the replicas last announced (REDIS_URL), for `/healthz` and `/about`. */
export interface CorpusSync {
  /** The version announced last, when known. */
  announced?: string;
  serving: string;
  /** False when this replica could not read the announced version and serves its own. */
  inStep: boolean;
  /** Why not, in plain words. */
  problem?: string;
}

/** What a running bot reports about itself beyond its corpus: its dependencies and its replicas. */
export interface ServiceHealth {
  /** True when a dependency is degraded or this replica is out of step. */
  degraded: boolean;
  dependencies: DependencyHealth[];
  corpusSync?: CorpusSync;
}

/** Puts the parts together: degraded when any dependency is, or the replica serves another version. */
export function serviceHealth(dependencies: DependencyHealth[], corpusSync?: CorpusSync): ServiceHealth {
  return {
    degraded:
      dependencies.some((dependency) => dependency.status === 'degraded') || corpusSync?.inStep === false,
    dependencies,
    ...(corpusSync ? { corpusSync } : {}),
  };
}

/** What is wrong, one plain line each, for `/about`; empty when all is well. */
export function healthWarnings(health: ServiceHealth): string[] {
  const lines = health.dependencies
    .filter((dependency) => dependency.status === 'degraded')
    .map(
      (dependency) =>
        `${dependency.name === 'database' ? 'The records database' : 'Redis'} (${dependency.kind}) is unavailable` +
        `${dependency.since ? ` since ${dependency.since.slice(0, 19).replace('T', ' ')} UTC` : ''}` +
        `${dependency.pending ? `; ${dependency.pending} records wait for it` : ''}.`,
    );
  const sync = health.corpusSync;
  if (sync && !sync.inStep)
    lines.push(
      `This replica serves corpus version ${sync.serving.slice(0, 12)}, not ${sync.announced?.slice(0, 12) ?? 'the announced one'} that the other replicas announced${sync.problem ? ` (${sync.problem})` : ''}.`,
    );
  return lines;
}
