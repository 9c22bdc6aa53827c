import type { Client } from 'discord.js';
import { commands } from '../commands/index.ts';
import { type RunningCommunity, startCommunity } from './community/start-community.ts';
import { type Config, ConfigError } from './config.ts';
import { corpusLimitsOf, setCorpusLimits } from './corpus/corpus-limits.ts';
import { CorpusError } from './corpus/load-corpus.ts';
import type { FeedPoller } from './feeds/feed-poller.ts';
import { openFeeds } from './feeds/start-feeds.ts';
import { type ServiceHealth, serviceHealth } from './health.ts';
import type { AnyCommand } from './interactions/command.ts';
import { createDispatchContext } from './interactions/context.ts';
import { type DigestScheduler, startDigests } from './interactions/digests.ts';
import type { DispatchContext } from './interactions/dispatch.ts';
import { type DiscordChannels, feedPublisher } from './interactions/feed-publisher.ts';
import type { ThreadsView } from './interactions/library-view.ts';
import type { RateLimiter } from './interactions/rate-limiter.ts';
import type { ChannelPoster } from './interactions/reload-notifier.ts';
import type { Library } from './library.ts';
import type { CorpusLifecycle } from './lifecycle/corpus-lifecycle.ts';
import { holdEarlySighup } from './lifecycle/early-sighup.ts';
import { openLibrary, type RunningLifecycle, startLifecycle } from './lifecycle/start-lifecycle.ts';
import type { Logger } from './logging/logger.ts';
import { type Replicas, replicasFor } from './replicas/replicas.ts';
import type { StartProgress } from './search/index-cache/fast-start.ts';

/** What every entry point serves from: the corpus, its lifecycle and the context commands run in. */
export interface Bootstrapped {
  library: Library;
  lifecycle: CorpusLifecycle;
  ctx: DispatchContext;
  /**
   * The community records (DATA_DIR's SQLite file, or DATABASE_URL's PostgreSQL): votes, questions
   * without coverage, watches. Stop it last.
   */
  records: RunningCommunity;
  /** Sends `/digest`s at their times (checked every 30 s); undefined when nothing is stored. */
  digests: DigestScheduler | undefined;
  /** What replicas share through Redis (REDIS_URL); undefined without it. Close it after the records. */
  replicas: Replicas | undefined;
  /** The records' database and Redis as they are now, and whether this replica serves the announced corpus. */
  health(): ServiceHealth;
  /**
   * Starts SIGHUP and WATCH_CORPUS reloads, index persistence and, given the gateway client, the audit
   * channel and (under the ShardingManager) corpus coordination between shards. Call once.
   */
  startLifecycle(client?: Client): Promise<RunningLifecycle>;
}

/**
 * The start-up every entry point shares (`npm start`, `npm run start:http`): opens the library
 * (restoring the index from INDEX_CACHE_DIR when it matches the corpus; throws `CorpusError` for an
 * invalid one), assembles its lifecycle, and builds the dispatch context with every command.
 */
export async function bootstrap(options: {
  config: Config;
  logger: Logger;
  /** Shows reading and indexing as they go, then one summary line (the console). */
  progress?: StartProgress;
  /** See `createDispatchContext`'s `rateLimited`. @default true */
  rateLimited?: boolean;
  /** Where answers to watched questions are posted; without one they are kept but not posted. */
  poster?: ChannelPoster;
  /** Threads through Discord's REST API (thread mode, a thread's context); none at the console. */
  threads?: ThreadsView;
  /** Channels through Discord's REST API, where feeds post articles and alerts; none at the console. */
  channels?: DiscordChannels;
  /** The commands to offer. @default every command in `commands/index.ts` */
  commands?: readonly AnyCommand[];
  /** See `startLifecycle`'s `announce`: how a reload by signal went, for the operator (the console). */
  announce?: (line: string) => void;
  /** See `DispatchContext.deferAfterMs`. @default 2000 */
  deferAfterMs?: number;
  /** The clock of commands, digests and feeds, for tests. @default Date.now */
  now?: () => number;
}): Promise<Bootstrapped> {
  const { config, logger, progress } = options;
  // Before the corpus is first read: every read of it, on any thread, applies the configured limits.
  setCorpusLimits(corpusLimitsOf(config));
  const { library, lifecycle } = await openLibrary({ config, logger, progress });
  const feeds = await openFeeds({
    library,
    lifecycle,
    config,
    logger,
    ...(options.channels ? { publisher: feedPublisher(options.channels) } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  // Votes, questions without coverage and watched questions (DATA_DIR); answers go on without it.
  const community = startCommunity({
    config,
    logger,
    ...(options.poster ? { poster: options.poster } : {}),
    onReloaded: (listener) => lifecycle.onReloaded(listener),
  });
  const now = options.now ?? Date.now;
  // Digests at their times, and what is new for them: each article's arrival (DATA_DIR).
  const digests = startDigests({
    keeper: community.keeper,
    library,
    lifecycle,
    logger,
    now,
    poster: options.poster,
  });
  const records: RunningCommunity = {
    ...community,
    stop: async () => {
      digests?.stop();
      await community.stop();
    },
  };
  // Rate limits, replays, reloads and the feed poller shared by every replica (REDIS_URL).
  const replicas = replicasFor(config, logger);
  const health = () =>
    serviceHealth(
      [records.keeper?.health(), replicas?.health()].filter((dependency) => dependency !== undefined),
      replicas?.corpusSync(),
    );
  // Under the ShardingManager, /about lists every shard; the coordinator exists once the client does.
  let running: RunningLifecycle | undefined;
  const ctx = createDispatchContext({
    commands: options.commands ?? commands,
    library,
    config,
    logger,
    corpus: lifecycle,
    feeds,
    peerStatuses: async () => running?.shards?.statuses(),
    rateLimited: options.rateLimited,
    community: records.keeper,
    health,
    ...(replicas ? { shareRateLimit: (local: RateLimiter) => replicas.rateLimiter(local) } : {}),
    ...(options.deferAfterMs === undefined ? {} : { deferAfterMs: options.deferAfterMs }),
    ...(options.now ? { now: options.now } : {}),
    ...(options.threads ? { threads: options.threads } : {}),
  });
  process.on('unhandledRejection', (error) => logger.error('unhandled rejection', { error }));
  return {
    library,
    lifecycle,
    ctx,
    records,
    digests: digests?.scheduler,
    replicas,
    health,
    async startLifecycle(client) {
      running = await startLifecycle({
        library,
        lifecycle,
        feeds,
        config,
        logger,
        announce: options.announce,
        ...(client ? { client } : {}),
        ...(replicas
          ? { pollFeedsElsewhere: (polled: FeedPoller) => replicas.pollFeedsUnderLease(polled) }
          : {}),
      });
      replicas?.announceReloads(library, lifecycle);
      return running;
    },
  };
}

/**
 * Runs an entry point's `main`, exiting with its code when it returns one. A bad setting or an invalid
 * corpus ends the process with its message alone (what to fix); anything else with `doing` and the stack.
 */
export function runMain(doing: string, main: () => Promise<number | undefined>): void {
  holdEarlySighup();
  main().then(
    (code) => {
      if (code !== undefined) process.exit(code);
    },
    (error: unknown) => {
      if (error instanceof ConfigError || error instanceof CorpusError) {
        process.stderr.write(`newsdesk: ${error.message}\n`);
      } else {
        const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
        process.stderr.write(`newsdesk: ${doing}: ${detail}\n`);
      }
      process.exit(1);
    },
  );
}
