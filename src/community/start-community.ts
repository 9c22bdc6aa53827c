import type { Config } from '../config.ts';
import { CorrectionNotifier } from '../interactions/correction-notifier.ts';
import type { EngineView } from '../interactions/library-view.ts';
import type { ChannelPoster } from '../interactions/reload-notifier.ts';
import { WatchNotifier } from '../interactions/watch-notifier.ts';
import type { Logger } from '../logging/logger.ts';
import { Community } from './community.ts';
import { CommunityDatabaseError } from './database.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Opens the community database DATA_DIR names. A database that cannot be used does not stop the bot:
 * the problem is written to stderr in plain words (and logged), and the bot answers questions without
 * recording anything, offering no buttons that need the database. Undefined also when DATA_DIR is empty.
 */
export function openCommunity(options: {
  config: Pick<Config, 'DATA_DIR' | 'RECORD_QUESTIONS' | 'RECORD_DAYS'>;
  logger: Logger;
  /** Where the start-up problem is written. @default stderr */
  writeLine?: (line: string) => void;
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
 * Enforces RECORD_DAYS now and then once a day: deletes older answers, votes and questions without
 * coverage, and expired watches. Returns a function that stops it.
 */
export function keepRetention(
  community: Community,
  logger: Logger,
  now: () => Date = () => new Date(),
): () => void {
  const purge = () => {
    try {
      const deleted = community.enforceRetention(now());
      logger.info('community records older than RECORD_DAYS deleted', {
        ...deleted,
        days: community.recordDays,
      });
    } catch (error) {
      logger.warn('community records: the daily clean-up failed; it will be tried again tomorrow', { error });
    }
  };
  purge();
  const timer = setInterval(purge, DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** What `startCommunity` set up. */
export interface RunningCommunity {
  /** Undefined when nothing is recorded (DATA_DIR empty, or the database unusable). */
  community: Community | undefined;
  stop(): void;
}

/**
 * Everything the community database does in a running bot: opened at start, cleaned daily, and after
 * every successful reload (a `/reload`, a moderator's edit, a feed poll, the folder watch, another
 * shard's change) the watched questions are asked again and the answered ones posted through `poster`,
 * and answers whose cited paragraphs changed are replied to with the correction.
 */
export function startCommunity(options: {
  config: Pick<Config, 'DATA_DIR' | 'RECORD_QUESTIONS' | 'RECORD_DAYS'>;
  logger: Logger;
  /**
   * How answers to watched questions and corrections are posted; without one, watches and citations
   * are kept but not checked.
   */
  poster?: ChannelPoster;
  /** Subscribes to successful reloads (`CorpusLifecycle.onReloaded`); returns an unsubscribe. */
  onReloaded?: (listener: (engine: EngineView) => void) => () => void;
}): RunningCommunity {
  const community = openCommunity(options);
  if (!community) return { community, stop: () => undefined };
  const stops = [keepRetention(community, options.logger)];
  if (options.poster && options.onReloaded) {
    const settings = { community, poster: options.poster, logger: options.logger };
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
    community,
    stop: () => {
      for (const stop of stops.splice(0)) stop();
      community.close();
    },
  };
}
