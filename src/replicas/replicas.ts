import type { Config } from '../config.ts';
import type { FeedPoller } from '../feeds/feed-poller.ts';
import type { CorpusSync, DependencyHealth } from '../health.ts';
import type { LibraryView } from '../interactions/library-view.ts';
import type { QuestionLimiter, RateLimiter } from '../interactions/rate-limiter.ts';
import type { CorpusLifecycle } from '../lifecycle/corpus-lifecycle.ts';
import type { Logger } from '../logging/logger.ts';
import type { ReplayGuard, ReplayMemory } from '../transports/http/replay-guard.ts';
import { Lease } from './lease.ts';
import { RedisLink } from './redis-link.ts';
import { ReloadAnnouncements } from './reload-announcements.ts';
import { SharedRateLimiter } from './shared-rate-limiter.ts';
import { SharedReplayGuard } from './shared-replay-guard.ts';

/** How often a replica that does not poll the feeds reads their state again, for `/feeds list`. */
const FEED_STATE_REFRESH_MS = 60_000;

/**
 * What replicas share through Redis (REDIS_URL): one connection, and from it the rate limiter, the
 * replay guard, reload announcements and the feed poller's lease. Each falls back to the replica's own
 * while Redis is down or slow, and takes over again when it answers.
 */
export class Replicas {
  readonly redis: RedisLink;
  readonly #logger: Logger;
  #announcements: ReloadAnnouncements | undefined;
  #lease: Lease | undefined;
  readonly #stops: (() => void)[] = [];

  constructor(url: string, logger: Logger) {
    this.redis = new RedisLink(url, logger);
    this.#logger = logger;
    logger.info('sharing rate limits, replays, reloads and the feed poller through Redis', {
      redis: this.redis.location,
    });
  }

  /** Counts each member's questions across replicas; `local` counts while Redis is away. */
  rateLimiter(local: RateLimiter): QuestionLimiter {
    return new SharedRateLimiter(this.redis, local);
  }

  /** Refuses a request any replica has admitted; `local` stands alone while Redis is away. */
  replayGuard(local: ReplayGuard): ReplayMemory {
    return new SharedReplayGuard(this.redis, local);
  }

  /** Every replica serves the corpus version announced last. Call once the lifecycle runs. */
  announceReloads(library: LibraryView, lifecycle: Pick<CorpusLifecycle, 'reload' | 'onReloaded'>): void {
    this.#announcements ??= new ReloadAnnouncements({
      redis: this.redis,
      library,
      lifecycle,
      logger: this.#logger,
    });
  }

  /** The feeds are polled by the replica holding the lease; the others keep their list fresh. */
  pollFeedsUnderLease(feeds: FeedPoller): void {
    if (this.#lease) return;
    this.#lease = new Lease({
      redis: this.redis,
      name: 'feeds',
      logger: this.#logger,
      start: () => feeds.start(),
      stop: () => feeds.stop(),
    });
    const refresh = setInterval(() => {
      if (!this.#lease?.held) void feeds.refresh();
    }, FEED_STATE_REFRESH_MS);
    refresh.unref();
    this.#stops.push(() => clearInterval(refresh));
  }

  /** Whether this replica holds the feed poller's lease (for tests and `/healthz`). */
  get pollsFeeds(): boolean {
    return this.#lease?.held ?? false;
  }

  health(): DependencyHealth {
    return this.redis.health();
  }

  corpusSync(): CorpusSync | undefined {
    return this.#announcements?.sync();
  }

  async close(): Promise<void> {
    for (const stop of this.#stops.splice(0)) stop();
    this.#announcements?.stop();
    await this.#lease?.close();
    await this.redis.close();
  }
}

/** With REDIS_URL, what replicas share; without it, nothing (each process keeps its own, as on one host). */
export function replicasFor(config: Pick<Config, 'REDIS_URL'>, logger: Logger): Replicas | undefined {
  return config.REDIS_URL ? new Replicas(config.REDIS_URL, logger) : undefined;
}
