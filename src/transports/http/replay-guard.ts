/** Why a correctly signed request is still refused. */
export type FreshnessProblem = 'stale' | 'replayed';

/**
 * What the endpoint asks of its replay memory: `ReplayGuard` remembers in this process; with
 * REDIS_URL, `SharedReplayGuard` (`src/replicas/`) remembers for every replica.
 */
export interface ReplayMemory {
  isFresh(timestamp: string, nowMs?: number): boolean;
  admit(
    signature: string,
    timestamp: string,
    nowMs?: number,
  ): FreshnessProblem | undefined | Promise<FreshnessProblem | undefined>;
}

export interface ReplayGuardOptions {
  /**
   * How far a request's `X-Signature-Timestamp` may be from this machine's clock, either way.
   * @default 300 (five minutes)
   */
  toleranceSeconds?: number;
  /**
   * The most signatures remembered at once. Past it the oldest are forgotten first, so a flood larger
   * than this within the tolerance window could let an old request be replayed once.
   * @default 100_000
   */
  maxEntries?: number;
}

const TIMESTAMP = /^\d{1,12}$/;

/**
 * Refuses signed requests that are stale or exact repeats. Signatures are remembered only while their
 * timestamp is fresh: once it is stale the timestamp check refuses a replay anyway, which keeps the
 * memory bounded by the request rate times the tolerance window.
 *
 * Call it only after the signature has been verified, or anyone could fill the memory with garbage.
 * Each replica remembers its own requests, unless REDIS_URL shares the memory (docs/several-hosts.md).
 */
export class ReplayGuard implements ReplayMemory {
  readonly #toleranceMs: number;
  readonly #maxEntries: number;
  /** Signature to the time (ms) its timestamp goes stale, in arrival order. */
  readonly #seen = new Map<string, number>();

  constructor(options: ReplayGuardOptions = {}) {
    this.#toleranceMs = (options.toleranceSeconds ?? 300) * 1000;
    this.#maxEntries = options.maxEntries ?? 100_000;
  }

  /**
   * Whether a timestamp is a number of seconds within the tolerance of now. Remembers nothing, so it
   * may be asked before the signature is verified.
   */
  isFresh(timestamp: string, nowMs: number = Date.now()): boolean {
    return TIMESTAMP.test(timestamp) && Math.abs(nowMs - Number(timestamp) * 1000) <= this.#toleranceMs;
  }

  /** Records the request and returns `undefined` when it may be served, or why it may not. */
  admit(signature: string, timestamp: string, nowMs: number = Date.now()): FreshnessProblem | undefined {
    if (!this.isFresh(timestamp, nowMs)) return 'stale';
    const sentMs = Number(timestamp) * 1000;
    this.#forgetExpired(nowMs);
    const key = signature.toLowerCase();
    if (this.#seen.has(key)) return 'replayed';
    if (this.#seen.size >= this.#maxEntries) {
      const oldest = this.#seen.keys().next();
      if (!oldest.done) this.#seen.delete(oldest.value);
    }
    this.#seen.set(key, sentMs + this.#toleranceMs);
    return undefined;
  }

  /** How long a signature sent at `timestamp` must be remembered from `nowMs`, in milliseconds. */
  rememberFor(timestamp: string, nowMs: number = Date.now()): number {
    return Math.max(1, Number(timestamp) * 1000 + this.#toleranceMs - nowMs);
  }

  /** How many signatures are remembered now. */
  get size(): number {
    return this.#seen.size;
  }

  #forgetExpired(nowMs: number): void {
    // Arrival order is nearly expiry order; an entry left behind a later-expiring one is merely kept longer.
    for (const [signature, expiresMs] of this.#seen) {
      if (expiresMs >= nowMs) break;
      this.#seen.delete(signature);
    }
  }
}
