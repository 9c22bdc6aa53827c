import type { Client } from 'discord.js';
import type { Config } from '../config.ts';
import type { Logger } from '../interactions/logger.ts';
import { Library } from '../library.ts';
import { processLink, ShardCoordinator } from '../transports/sharding/shard-coordinator.ts';
import { auditChannelSink } from './audit-channel.ts';
import { AuditLog, systemActor } from './audit-log.ts';
import { watchCorpus } from './corpus-watch.ts';
import { openEngine } from './fast-start.ts';
import { indexCacheOf } from './index-cache.ts';
import { persistInWorker } from './persist-in-worker.ts';
import { writePidFile } from './pid-file.ts';
import { notReadSummary, summarizeOutcome } from './reloader.ts';
import type { StartProgress } from './start-progress.ts';
import { WorkerEngine } from './worker-engine.ts';

/**
 * Opens the library for serving: reads and validates the corpus, restores the index from INDEX_CACHE_DIR
 * when it matches (else builds and persists it), and equips the library to reload and be edited.
 * Throws `CorpusError` for an invalid corpus: the bot does not start on one.
 */
export async function openLibrary(options: {
  config: Config;
  logger: Logger;
  /** Shows reading and indexing as they go, then one summary line (the console). */
  progress?: StartProgress;
}): Promise<Library> {
  const { config, logger } = options;
  const cache = indexCacheOf(config);
  const started = await openEngine(config, cache, options.progress);
  logger.info('corpus loaded', {
    version: started.engine.version,
    articles: started.engine.corpus.articles.length,
    passages: started.engine.passageCount,
    from: started.from,
    indexThread: config.INDEX_THREAD,
    cache:
      started.lookup.status === 'hit'
        ? 'hit'
        : started.lookup.status === 'miss'
          ? started.lookup.reason
          : 'corrupt',
    ...(started.lookup.status === 'corrupt' ? { cacheProblem: started.lookup.reason } : {}),
    ...(started.saveError ? { cacheSaveError: started.saveError } : {}),
    ...(started.engine.corpus.skipped?.length
      ? { notRead: notReadSummary(started.engine.corpus.skipped) }
      : {}),
    ms: Math.round(started.durationMs),
  });
  return new Library(started.engine, {
    corpusPath: config.CORPUS_PATH,
    lifecycle: {
      audit: new AuditLog({ log: (entry) => logger.info('corpus change', { ...entry }) }),
      ...(config.INDEX_THREAD === 'worker'
        ? {
            index: async (corpus, onProgress) => {
              const built = await WorkerEngine.start({
                corpusPath: config.CORPUS_PATH,
                corpus,
                cache,
                onProgress,
                workers: config.INDEX_WORKERS,
              });
              if (built.savedTo)
                logger.info('index cache saved', { file: built.savedTo, version: corpus.version });
              if (built.saveError) logger.warn('index cache not saved', { error: built.saveError });
              return built.engine;
            },
          }
        : {}),
    },
  });
}

/** What `startLifecycle` set up; `stop` undoes all of it. */
export interface RunningLifecycle {
  /** Present when running as a shard under the ShardingManager: every shard's version for /about. */
  shards: ShardCoordinator | undefined;
  stop(): void;
}

/**
 * Wires the corpus lifecycle into a running bot: SIGHUP reloads; WATCH_CORPUS reloads on changes;
 * every swap persists the new index off this thread; AUDIT_CHANNEL_ID receives the
 * audit log; under the ShardingManager, corpus changes reach every shard.
 */
export async function startLifecycle(options: {
  library: Library;
  config: Config;
  logger: Logger;
  /** The gateway client, for the audit channel and sharding. Omit at the console. */
  client?: Client;
}): Promise<RunningLifecycle> {
  const { library, config, logger, client } = options;
  const lifecycle = library.lifecycle;
  const stops: (() => void)[] = [];
  if (lifecycle === undefined) return { shards: undefined, stop: () => undefined };

  const reloadFor = (trigger: 'signal' | 'watch', name: string) => () => {
    void library.reload({ trigger, actor: systemActor(name), queue: true }).then((outcome) => {
      const log = outcome.status === 'reloaded' ? logger.info : logger.warn;
      log(`corpus reload (${name})`, {
        status: outcome.status,
        summary: summarizeOutcome(outcome),
        ...(outcome.status === 'refused' ? { problems: outcome.problems } : {}),
      });
    });
  };

  const onSighup = reloadFor('signal', 'SIGHUP');
  process.on('SIGHUP', onSighup);
  stops.push(() => process.off('SIGHUP', onSighup));
  // The process to signal. Shards leave it to their manager, which passes SIGHUP on to every shard.
  if (config.PID_FILE && !client?.shard) stops.push(await writePidFile(config.PID_FILE));

  if (config.WATCH_CORPUS) {
    const watcher = await watchCorpus({
      corpusPath: config.CORPUS_PATH,
      onChange: reloadFor('watch', 'corpus watch'),
    });
    stops.push(() => watcher.close());
  }

  const cache = indexCacheOf(config);
  // An index worker saves the index it builds before it serves; an index on this thread is saved by a
  // worker of its own, which builds it again there.
  if (cache.enabled && config.INDEX_THREAD === 'main') {
    let persisting: Promise<void> | undefined;
    let again = false;
    const persist = (): void => {
      if (persisting) {
        again = true;
        return;
      }
      persisting = persistInWorker(config.CORPUS_PATH, cache)
        .then((result) => logger.info('index cache saved', { ...result }))
        .catch((error: unknown) => logger.warn('index cache not saved', { error }))
        .finally(() => {
          persisting = undefined;
          if (again) {
            again = false;
            persist();
          }
        });
    };
    stops.push(lifecycle.onReloaded(persist));
  }

  if (client && config.AUDIT_CHANNEL_ID) {
    stops.push(lifecycle.audit.subscribe(auditChannelSink(client, config.AUDIT_CHANNEL_ID)));
  }

  let shards: ShardCoordinator | undefined;
  if (client?.shard) {
    shards = new ShardCoordinator({
      link: processLink(client.shard.ids[0] ?? 0),
      library,
      onRemoteReload: (outcome, from) =>
        logger.info('corpus reload (another shard changed the corpus)', {
          from,
          summary: summarizeOutcome(outcome),
        }),
    });
    lifecycle.shards = shards;
    stops.push(() => shards?.stop());
  }

  return {
    shards,
    stop: () => {
      for (const stop of stops.splice(0)) stop();
    },
  };
}
