import { type ChartRenderer, ChartWorker } from '../chart/chart-renderer.ts';
import type { RecordKeeper } from '../community/record-keeper.ts';
import type { Config } from '../config.ts';
import type { ServiceHealth } from '../health.ts';
import { createLogger, type Logger } from '../logging/logger.ts';
import type { AnyCommand } from './command.ts';
import type { DispatchContext } from './dispatch.ts';
import type {
  CorpusAdministration,
  FeedsAdministration,
  LibraryView,
  PeerStatus,
  ThreadsView,
} from './library-view.ts';
import { type QuestionLimiter, RateLimiter } from './rate-limiter.ts';
import { CommandRegistry } from './registry.ts';

/**
 * The context every transport passes to `dispatchInteraction`: the library, the config, the
 * registered commands and one rate limiter per process.
 */
export function createDispatchContext(options: {
  library: LibraryView;
  config: Config;
  /** Reloading and editing the corpus (a `CorpusLifecycle`); omit for a bot that cannot. */
  corpus?: CorpusAdministration;
  /** Following news feeds (a `FeedPoller`); omit for a bot that cannot. */
  feeds?: FeedsAdministration;
  /** Every shard's status, for `/about`; see `CommandContext.peerStatuses`. */
  peerStatuses?: () => Promise<PeerStatus[] | undefined>;
  /** The community records; omit to store nothing. */
  community?: RecordKeeper;
  /** The records' database and Redis, and the replica's corpus version, for `/about`. */
  health?: () => ServiceHealth;
  /**
   * Draws replies' charts; `null` for none.
   * @default a chart worker thread, started at the first chart
   */
  charts?: ChartRenderer | null;
  /**
   * Counts questions across replicas (REDIS_URL), given this process's limiter to fall back on.
   * @default this process's limiter alone
   */
  shareRateLimit?: (local: RateLimiter) => QuestionLimiter;
  /** @default a JSON-lines logger on stderr at `config.LOG_LEVEL` */
  logger?: Logger;
  /** The commands to offer: start-up passes every command in `commands/index.ts`. */
  commands: readonly AnyCommand[];
  /** @default Date.now */
  now?: () => number;
  /** @default 2000 */
  deferAfterMs?: number;
  /** Threads through Discord's REST API; omit where there are none (the console). */
  threads?: ThreadsView;
  /**
   * Whether questions count against RATE_LIMIT_QUESTIONS. The local console is its operator's own
   * tool, with one user: no limit there.
   * @default true
   */
  rateLimited?: boolean;
}): DispatchContext {
  const now = options.now ?? Date.now;
  return {
    library: options.library,
    config: options.config,
    logger: options.logger ?? createLogger(options.config.LOG_LEVEL),
    // Uptime counts from the process's start, not from when the corpus finished loading.
    startedAt: new Date(Math.round(performance.timeOrigin)),
    now: () => new Date(now()),
    commands: new CommandRegistry(options.commands),
    rateLimiter: limiterFor(options, now),
    autocompleteLimiter: new RateLimiter({
      limit: (options.rateLimited ?? true) ? AUTOCOMPLETE_PER_WINDOW : Number.POSITIVE_INFINITY,
      windowMs: AUTOCOMPLETE_WINDOW_MS,
      now,
    }),
    corpus: options.corpus,
    feeds: options.feeds,
    peerStatuses: options.peerStatuses,
    deferAfterMs: options.deferAfterMs,
    community: options.community,
    health: options.health,
    ...(options.charts === null ? {} : { charts: options.charts ?? new ChartWorker() }),
    ...(options.threads ? { threads: options.threads } : {}),
  };
}

/**
 * Autocomplete requests a member may make per window, in this process. Discord sends one a keystroke
 * (debounced): typing an id quickly is some 10 in 5 seconds, and a loop of them kept others' `/ask`
 * waiting seconds. Past it the member gets no choices until the window moves on.
 */
const AUTOCOMPLETE_PER_WINDOW = 20;
const AUTOCOMPLETE_WINDOW_MS = 10_000;

/** One limiter per process, shared across replicas when asked to; never a limit at the console. */
function limiterFor(
  options: {
    config: Config;
    rateLimited?: boolean;
    shareRateLimit?: (local: RateLimiter) => QuestionLimiter;
  },
  now: () => number,
): QuestionLimiter {
  const limited = options.rateLimited ?? true;
  const local = new RateLimiter({
    limit: limited ? options.config.RATE_LIMIT_QUESTIONS : Number.POSITIVE_INFINITY,
    windowMs: options.config.RATE_LIMIT_WINDOW_SECONDS * 1000,
    now,
  });
  return limited && options.shareRateLimit ? options.shareRateLimit(local) : local;
}
