import { randomBytes } from 'node:crypto';
import type { Logger } from '../logging/logger.ts';
import type { RedisLink } from './redis-link.ts';

/** Extends the lease only while this holder still holds it. */
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;
/** Gives the lease up only if this holder holds it. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * Work one replica at a time does (polling the feeds), under a lease in Redis: taken with `SET NX PX`
 * by whoever finds it free, renewed every third of its time by its holder, given up at a stop. A
 * holder that dies stops renewing, and another replica takes the lease over once it lapses
 * (`ttlMs`, 15 s by default). A holder that cannot reach Redis stops the work when its lease would
 * lapse, so two never run it at once; while Redis is down nobody does.
 */
export class Lease {
  readonly holder = `${process.pid}:${randomBytes(6).toString('hex')}`;
  readonly #redis: RedisLink;
  readonly #key: string;
  readonly #ttlMs: number;
  readonly #logger: Logger;
  readonly #start: () => void;
  readonly #stop: () => void;
  readonly #timer: NodeJS.Timeout;
  /** When the lease lapses unless renewed (this clock), while held. */
  #heldUntil: number | undefined;
  #busy = false;

  constructor(options: {
    redis: RedisLink;
    /** What the lease is for, e.g. `feeds`. */
    name: string;
    logger: Logger;
    /** Starts the work: this replica holds the lease. */
    start: () => void;
    /** Stops it: the lease is lost or given up. */
    stop: () => void;
    /** @default 15_000 */
    ttlMs?: number;
  }) {
    this.#redis = options.redis;
    this.#key = `newsdesk:lease:${options.name}`;
    this.#ttlMs = options.ttlMs ?? 15_000;
    this.#logger = options.logger;
    this.#start = options.start;
    this.#stop = options.stop;
    this.#timer = setInterval(() => void this.#tick(), Math.max(50, Math.floor(this.#ttlMs / 3)));
    this.#timer.unref();
    void this.#tick();
  }

  get held(): boolean {
    return this.#heldUntil !== undefined;
  }

  /** Stops the work and gives the lease up, so another replica takes it at once. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    if (!this.held) return;
    this.#lost('given up');
    await this.#redis.run((redis) => redis.eval(RELEASE, 1, this.#key, this.holder)).catch(() => undefined);
  }

  async #tick(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    try {
      const asked = Date.now();
      if (this.held) {
        const renewed = await this.#redis
          .run((redis) => redis.eval(RENEW, 1, this.#key, this.holder, this.#ttlMs))
          .then(
            (result) => (Number(result) === 1 ? 'renewed' : 'taken'),
            () => 'unknown' as const,
          );
        if (renewed === 'renewed') this.#heldUntil = asked + this.#ttlMs;
        else if (renewed === 'taken') this.#lost('taken over by another replica');
        // Redis away: held until it would have lapsed, then let go.
        else if (Date.now() >= (this.#heldUntil ?? 0) - 1_000) this.#lost('Redis unreachable');
        return;
      }
      const taken = await this.#redis
        .run((redis) => redis.set(this.#key, this.holder, 'PX', this.#ttlMs, 'NX'))
        .catch(() => null);
      if (taken === 'OK') {
        this.#heldUntil = asked + this.#ttlMs;
        this.#logger.info(`this replica holds the ${this.#key} lease`, { holder: this.holder });
        this.#start();
      }
    } finally {
      this.#busy = false;
    }
  }

  #lost(why: string): void {
    this.#heldUntil = undefined;
    this.#logger.info(`this replica no longer holds the ${this.#key} lease`, { holder: this.holder, why });
    this.#stop();
  }
}
