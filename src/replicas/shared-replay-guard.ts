import type { FreshnessProblem, ReplayGuard, ReplayMemory } from '../transports/http/replay-guard.ts';
import type { RedisLink } from './redis-link.ts';

/**
 * The replay guard every replica shares (REDIS_URL): a signed request is admitted once, whichever
 * replica it reaches first. Each signature is set in Redis only if absent (`SET NX`), for as long as
 * its timestamp is fresh; the replica's own `ReplayGuard` is asked first (it also keeps the stale
 * check) and stands alone while Redis is down or slow, as on one host, so a request replayed to the
 * same replica is refused even then.
 */
export class SharedReplayGuard implements ReplayMemory {
  readonly #redis: RedisLink;
  readonly #local: ReplayGuard;

  constructor(redis: RedisLink, local: ReplayGuard) {
    this.#redis = redis;
    this.#local = local;
  }

  isFresh(timestamp: string, nowMs?: number): boolean {
    return this.#local.isFresh(timestamp, nowMs);
  }

  async admit(
    signature: string,
    timestamp: string,
    nowMs: number = Date.now(),
  ): Promise<FreshnessProblem | undefined> {
    const local = this.#local.admit(signature, timestamp, nowMs);
    if (local !== undefined) return local;
    try {
      const set = await this.#redis.run((redis) =>
        redis.set(
          `newsdesk:seen:${signature.toLowerCase()}`,
          '1',
          'PX',
          this.#local.rememberFor(timestamp, nowMs),
          'NX',
        ),
      );
      return set === 'OK' ? undefined : 'replayed';
    } catch {
      // Redis away: this replica's memory alone, which has just admitted it.
      return undefined;
    }
  }
}
