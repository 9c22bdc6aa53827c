import type { Client } from 'discord.js';
import type { Config } from '../config.ts';
import { formatProblem, notReadSummary } from '../corpus/load-corpus.ts';
import { pageExtractor } from '../extract/page-extractor.ts';
import type { FeedPoller } from '../feeds/feed-poller.ts';
import { Library } from '../library.ts';
import type { Logger } from '../logging/logger.ts';
import type { StartedEngine, StartProgress } from '../search/index-cache/fast-start.ts';
import { openEngine } from '../search/index-cache/fast-start.ts';
import { type IndexCache, indexCacheOf } from '../search/index-cache/index-cache.ts';
import { persistInWorker } from '../search/index-cache/persist-in-worker.ts';
import { reloadsOnWorkers } from '../search/index-threads/worker-reloads.ts';
import type { SearchEngine } from '../search/search-engine.ts';
import { processLink, ShardCoordinator } from '../transports/sharding/shard-coordinator.ts';
import { auditChannelSink } from './audit-channel.ts';
import { systemActor } from './audit-log.ts';
import { CorpusLifecycle } from './corpus-lifecycle.ts';
import { watchCorpus } from './corpus-watch.ts';
import { takeEarlySighup } from './early-sighup.ts';
import { writePidFile } from './pid-file.ts';
import { type ReloaderOptions, summarizeOutcome } from './reloader.ts';

/** The library serving questions, and the lifecycle that reloads and edits it. */
export interface OpenedLibrary {
  library: Library;
  lifecycle: CorpusLifecycle;
}

/**
 * Opens the library for serving: reads and validates the corpus, restores the index from INDEX_CACHE_DIR
 * when it matches (else builds and persists it), and assembles the lifecycle that reloads and edits it.
 * Throws `CorpusError` for an invalid corpus: the bot does not start on one.
 */
export async function openLibrary(options: {
  config: Config;
  logger: Logger;
  /** Shows reading and indexing as they go, then one summary line (the console). */
  progress?: StartProgress;
}): Promise<OpenedLibrary> {
  const { config, logger } = options;
  const cache = indexCacheOf(config);
  const started = await openEngine(config, cache, options.progress);
  logCorpusLoaded(logger, config, started);
  const library = new Library(started.engine);
  const lifecycle = new CorpusLifecycle(library, {
    corpusPath: config.CORPUS_PATH,
    logger,
    ...(config.INDEX_THREAD === 'worker' ? reloadOnWorkers(config, cache, logger, library) : {}),
  });
  return { library, lifecycle };
}

/** The start-up line: what was loaded, from where, and what became of the index cache. */
function logCorpusLoaded(logger: Logger, config: Config, started: StartedEngine<SearchEngine>): void {
  logger.info('corpus loaded', {
    version: started.engine.version,
    articles: started.engine.corpus.articles.length,
    passages: started.engine.passageCount,
    from: started.from,
    // `cache`: restored from INDEX_CACHE_DIR because its files are byte for byte those it was read from.
    corpusFrom: started.parsed === false ? 'cache' : 'files',
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
}

/**
 * With INDEX_THREAD=worker, each reload reads the corpus and builds its index on new worker threads,
 * which save it first.
 */
function reloadOnWorkers(
  config: Config,
  cache: IndexCache,
  logger: Logger,
  library: Library,
): Pick<ReloaderOptions, 'load' | 'index'> {
  return reloadsOnWorkers({
    cache,
    workers: config.INDEX_WORKERS,
    serving: () => library.engine,
    onStarted: (built) => {
      const version = built.engine.version;
      if (built.savedTo) logger.info('index cache saved', { file: built.savedTo, version });
      if (built.saveError) logger.warn('index cache not saved', { error: built.saveError });
    },
  });
}

/** What `startLifecycle` set up; `stop` undoes all of it. */
export interface RunningLifecycle {
  /** Present when running as a shard under the ShardingManager: every shard's version for /about. */
  shards: ShardCoordinator | undefined;
  stop(): void;
}

/** What the running bot's lifecycle steps need. */
interface Wiring {
  library: Library;
  lifecycle: CorpusLifecycle;
  config: Config;
  logger: Logger;
  /** The feeds to poll, if any (see `src/feeds/`). */
  feeds?: FeedPoller | undefined;
  /** The gateway client, for the audit channel and sharding. Absent at the console and over HTTP. */
  client?: Client;
  /**
   * Tells the operator, in a line of plain words, how a reload they started by signal (or a folder
   * change) went: the console, whose log shows warnings only, prints it on stderr.
   */
  announce?: ((line: string) => void) | undefined;
  /**
   * Several replicas (REDIS_URL): the feeds are handed to this, which polls them on one replica at a
   * time, instead of being polled here.
   */
  pollFeedsElsewhere?: ((feeds: FeedPoller) => void) | undefined;
}

/**
 * Wires the corpus lifecycle into a running bot: SIGHUP reloads; WATCH_CORPUS reloads on changes;
 * every swap persists the new index off this thread; AUDIT_CHANNEL_ID receives the
 * audit log; under the ShardingManager, corpus changes reach every shard.
 */
export async function startLifecycle(options: Wiring): Promise<RunningLifecycle> {
  const shards = coordinateShards(options);
  const stops = [
    reloadOnSighup(options),
    await writePidFileOnce(options),
    await reloadOnCorpusChange(options),
    persistEachSwap(options),
    postAuditToChannel(options),
    pollFeeds(options),
    // A page being read (a link, an upload, a feed item) is given up: the stop does not wait for it.
    () => void pageExtractor.close(),
    () => shards?.stop(),
  ];
  return {
    shards,
    stop: () => {
      for (const stop of stops.splice(0)) stop();
    },
  };
}

const nothingToStop = (): void => undefined;

/**
 * Polls the followed feeds; one process does: under the ShardingManager, the first shard; among
 * replicas, the one holding the lease (`pollFeedsElsewhere`).
 */
function pollFeeds({ feeds, client, pollFeedsElsewhere }: Wiring): () => void {
  if (feeds === undefined || (client?.shard?.ids[0] ?? 0) !== 0) return nothingToStop;
  if (pollFeedsElsewhere) {
    pollFeedsElsewhere(feeds);
    return () => feeds.stop();
  }
  feeds.start();
  return () => feeds.stop();
}

/** A reload on a signal or a folder change, queued behind a running one and logged with its outcome. */
function reloadFor({ lifecycle, logger, announce }: Wiring, trigger: 'signal' | 'watch', name: string) {
  return () => {
    void lifecycle.reload({ trigger, actor: systemActor(name), queue: true }).then((outcome) => {
      const log = outcome.status === 'reloaded' ? logger.info : logger.warn;
      const summary = summarizeOutcome(outcome);
      log(`corpus reload (${name})`, {
        status: outcome.status,
        summary,
        ...(outcome.status === 'refused' ? { problems: outcome.problems } : {}),
      });
      const problems =
        outcome.status === 'refused' ? outcome.problems.map((p) => `\n  ${formatProblem(p)}`) : [];
      announce?.(`corpus reload (${name}): ${summary}${problems.join('')}`);
    });
  };
}

function reloadOnSighup(wiring: Wiring): () => void {
  const onSighup = reloadFor(wiring, 'signal', 'SIGHUP');
  process.on('SIGHUP', onSighup);
  if (takeEarlySighup()) onSighup();
  return () => process.off('SIGHUP', onSighup);
}

/**
 * With PID_FILE, the process to signal. Shards leave it to their manager, which passes SIGHUP on to
 * every shard.
 */
async function writePidFileOnce({ config, client }: Wiring): Promise<() => void> {
  if (!config.PID_FILE || client?.shard) return nothingToStop;
  return writePidFile(config.PID_FILE);
}

/** With WATCH_CORPUS, a reload when the corpus folder changes (debounced). */
async function reloadOnCorpusChange(wiring: Wiring): Promise<() => void> {
  if (!wiring.config.WATCH_CORPUS) return nothingToStop;
  const watcher = await watchCorpus({
    corpusPath: wiring.config.CORPUS_PATH,
    onChange: reloadFor(wiring, 'watch', 'corpus watch'),
  });
  return () => watcher.close();
}

/**
 * An index worker saves the index it builds before it serves; an index on this thread is saved after
 * each swap by a worker of its own, which builds it again there (one at a time; a swap meanwhile
 * saves once more after it).
 */
function persistEachSwap({ lifecycle, config, logger }: Wiring): () => void {
  const cache = indexCacheOf(config);
  if (!cache.enabled || config.INDEX_THREAD !== 'main') return nothingToStop;
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
  return lifecycle.onReloaded(persist);
}

/** With AUDIT_CHANNEL_ID and a gateway client, one line in that channel per corpus change. */
function postAuditToChannel({ lifecycle, config, client }: Wiring): () => void {
  if (!client || !config.AUDIT_CHANNEL_ID) return nothingToStop;
  return lifecycle.audit.subscribe(auditChannelSink(client, config.AUDIT_CHANNEL_ID));
}

/** Under the ShardingManager: announce this shard's corpus changes and reload on the others'. */
function coordinateShards({ library, lifecycle, logger, client }: Wiring): ShardCoordinator | undefined {
  if (!client?.shard) return undefined;
  return new ShardCoordinator({
    link: processLink(client.shard.ids[0] ?? 0),
    library,
    lifecycle,
    onRemoteReload: (outcome, from) =>
      logger.info('corpus reload (another shard changed the corpus)', {
        from,
        summary: summarizeOutcome(outcome),
      }),
  });
}
