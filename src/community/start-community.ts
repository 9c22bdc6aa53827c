import type { Config } from '../config.ts';
import { CorrectionNotifier } from '../interactions/correction-notifier.ts';
import type { EngineView } from '../interactions/library-view.ts';
import type { ChannelPoster } from '../interactions/reload-notifier.ts';
import { WatchNotifier } from '../interactions/watch-notifier.ts';
import type { Logger } from '../logging/logger.ts';
import { Community } from './community.ts';
import { CommunityDatabaseError, SERVING_BUSY_TIMEOUT_MS } from './database.ts';
import { PostgresCommunity } from './postgres-community.ts';
import { RecordKeeper } from './record-keeper.ts';
import type { RecordStore } from './record-store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The settings the community records are opened with. */
type CommunityConfig = Pick<Config, 'DATA_DIR' | 'RECORD_QUESTIONS' | 'RECORD_DAYS'> &
  Partial<Pick<Config, 'DATABASE_URL'>>;

/**
 * Opens the community database DATA_DIR names. A database that cannot be used does not stop the bot:
 * the problem is written to stderr in plain words (and logged), and the bot answers questions without
 * recording anything, offering no buttons that need the database. Undefined also when DATA_DIR is empty.
 */
export function openCommunity(options: {
  config: CommunityConfig;
  logger: Logger;
  /** Where the start-up problem is written. @default stderr */
  writeLine?: (line: string) => void;
  /** SQLite's busy timeout; see `openDatabase`. @default 5000 */
  busyTimeoutMs?: number;
}): Community | undefined {
  const { config, logger } = options;
  const file = Community.fileFor(config);
  if (file === undefined) {
    logger.info('community records off (DATA_DIR is empty)');
    return undefined;
  }
  try {
    const community = Community.open({
      file,
      recordQuestions: config.RECORD_QUESTIONS,
      recordDays: config.RECORD_DAYS,
      ...(options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs }),
    });
    logger.info('community database open', {
      file,
      recordQuestions: config.RECORD_QUESTIONS,
      recordDays: config.RECORD_DAYS,
    });
    return community;
  } catch (error) {
    const message = error instanceof CommunityDatabaseError ? error.message : String(error);
    (options.writeLine ?? ((line) => process.stderr.write(`${line}\n`)))(
      `newsdesk: the community database cannot be used: ${message}\n` +
        'newsdesk: answering questions anyway, without recording votes, questions or watches.',
    );
    logger.error('community database unusable; nothing will be recorded', { file, error });
    return undefined;
  }
}

/**
 * With DATABASE_URL, the records in PostgreSQL. Nothing connects yet beyond a first try in the
 * background: a server that is down at start-up does not stop the bot, whose records wait for it.
 */
function openPostgres(url: string, config: CommunityConfig, logger: Logger): PostgresCommunity {
  const store = new PostgresCommunity({
    url,
    recordQuestions: config.RECORD_QUESTIONS,
    recordDays: config.RECORD_DAYS,
  });
  store.ready().then(
    (version) =>
      logger.info('community database open', {
        database: store.location,
        schema: version,
        recordQuestions: config.RECORD_QUESTIONS,
        recordDays: config.RECORD_DAYS,
      }),
    (error: unknown) =>
      logger.error('community database (PostgreSQL) not reachable yet; records wait for it', {
        database: store.location,
        error: error instanceof Error ? error.message : String(error),
      }),
  );
  return store;
}

/**
 * Enforces RECORD_DAYS now and then once a day: deletes older answers, votes and questions without
 * coverage, and expired watches. Returns a function that stops it.
 */
export function keepRetention(
  community: RecordStore,
  logger: Logger,
  now: () => Date = () => new Date(),
): () => void {
  const failed = (error: unknown) =>
    logger.warn('community records: the daily clean-up failed; it will be tried again tomorrow', { error });
  const purge = () => {
    try {
      // SQLite deletes before this returns; PostgreSQL when it answers.
      Promise.resolve(community.enforceRetention(now())).then(
        (deleted) =>
          logger.info('community records older than RECORD_DAYS deleted', {
            ...deleted,
            days: community.recordDays,
          }),
        failed,
      );
    } catch (error) {
      failed(error);
    }
  };
  purge();
  const timer = setInterval(purge, DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** What `startCommunity` set up. */
export interface RunningCommunity {
  /**
   * The SQLite file, when the records are kept there (tools and tests read it directly); undefined with
   * DATABASE_URL, or when nothing is recorded (DATA_DIR empty, or the database unusable).
   */
  community: Community | undefined;
  /** What the bot records through, whichever store keeps the records; undefined when nothing is recorded. */
  keeper: RecordKeeper | undefined;
  /** Stops the clean-up and the checks, writes what waits (a few seconds at most), then closes the store. */
  stop(): Promise<void>;
}

/** The longest a stop waits for records still waiting on the database. */
const STOP_FLUSH_MS = 2_000;

/**
 * Everything the community database does in a running bot: opened at start, cleaned daily, and after
 * every successful reload (a `/reload`, a moderator's edit, a feed poll, the folder watch, another
 * shard's change) the watched questions are asked again and the answered ones posted through `poster`,
 * and answers whose cited paragraphs changed are replied to with the correction.
 */
export function startCommunity(options: {
  config: CommunityConfig;
  logger: Logger;
  /**
   * How answers to watched questions and corrections are posted; without one, watches and citations
   * are kept but not checked.
   */
  poster?: ChannelPoster;
  /** Subscribes to successful reloads (`CorpusLifecycle.onReloaded`); returns an unsubscribe. */
  onReloaded?: (listener: (engine: EngineView) => void) => () => void;
}): RunningCommunity {
  const url = options.config.DATABASE_URL;
  const sqlite = url ? undefined : openCommunity({ ...options, busyTimeoutMs: SERVING_BUSY_TIMEOUT_MS });
  const store: RecordStore | undefined = url ? openPostgres(url, options.config, options.logger) : sqlite;
  if (!store) return { community: undefined, keeper: undefined, stop: async () => undefined };
  const keeper = new RecordKeeper({ store, logger: options.logger });
  const stops = [keepRetention(store, options.logger)];
  if (options.poster && options.onReloaded) {
    const settings = {
      community: store,
      poster: options.poster,
      logger: options.logger,
      record: keeper.write.bind(keeper),
    };
    const watches = new WatchNotifier(settings);
    const corrections = new CorrectionNotifier(settings);
    stops.push(
      options.onReloaded((engine) => {
        void watches.check(engine);
        void corrections.check(engine);
      }),
    );
  } else {
    options.logger.warn(
      'watched questions and corrections to cited answers will not be posted: set DISCORD_TOKEN so the bot can post in channels',
    );
  }
  return {
    community: sqlite,
    keeper,
    stop: async () => {
      for (const stop of stops.splice(0)) stop();
      // Nothing waiting (as it should be): closed before this returns, as a tool expects of SQLite.
      if (keeper.pending > 0) await keeper.flush(STOP_FLUSH_MS);
      await store.close();
    },
  };
}
