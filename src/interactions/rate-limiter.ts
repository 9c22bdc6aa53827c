/**
 * Counts a member's questions: `take` records one if allowed and answers 0, else how many milliseconds
 * until one is. `RateLimiter` counts in this process; with REDIS_URL, `SharedRateLimiter`
 * (`src/replicas/`) counts across every replica, falling back to a `RateLimiter` while Redis is away.
 */
export interface QuestionLimiter {
  take(key: string): number | Promise<number>;
}

/**
 * Per-user sliding-window limit on questions: at most `limit` within `windowMs`. In memory, per
 * process: each shard or HTTP replica counts on its own, which bounds load per process (its purpose)
 * while a determined user spread over replicas gets at most `limit` x replicas (unless REDIS_URL
 * shares the count).
 */
export class RateLimiter implements QuestionLimiter {
  /** Questions allowed per window, and the window, as configured. */
  readonly limit: number;
  readonly windowMs: number;
  readonly #now: () => number;
  readonly #hits = new Map<string, number[]>();
  #lastSweep = 0;

  constructor(options: {
    /** Questions allowed per window. */
    limit: number;
    /** Window length in milliseconds. */
    windowMs: number;
    /** Clock, for tests. @default Date.now */
    now?: () => number;
  }) {
    this.limit = options.limit;
    this.windowMs = options.windowMs;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Records one question by `key` if allowed. Returns 0 when allowed, otherwise how many milliseconds
   * until the oldest question in the window expires.
   */
  take(key: string): number {
    const now = this.#now();
    const recent = (this.#hits.get(key) ?? []).filter((time) => now - time < this.windowMs);
    if (recent.length >= this.limit) {
      this.#hits.set(key, recent);
      return this.windowMs - (now - recent[0]!);
    }
    recent.push(now);
    this.#hits.set(key, recent);
    // At most one sweep per window, so a crowd of users costs amortised O(1) per question.
    if (this.#hits.size > 10_000 && now - this.#lastSweep >= this.windowMs) this.#sweep(now);
    return 0;
  }

  /** Users with a question on record (for metrics, and to show memory stays bounded). */
  get trackedUsers(): number {
    return this.#hits.size;
  }

  /** Forgets users with no question in the window, so memory stays bounded by active users. */
  #sweep(now: number): void {
    this.#lastSweep = now;
    for (const [key, times] of this.#hits) {
      if (times.every((time) => now - time >= this.windowMs)) this.#hits.delete(key);
    }
  }
}
