import type { Corpus } from '../../corpus/article.ts';
import { loadCorpus } from '../../corpus/load-corpus.ts';
import { Engine } from '../engine.ts';
import { WorkerEngine } from '../index-threads/worker-engine.ts';
import type { SearchEngine } from '../search-engine.ts';
import type { CacheOutcome, IndexCache } from './index-cache.ts';

/** How the start-up engine came to be, for the log line. */
export interface StartedEngine<E extends SearchEngine = Engine> {
  engine: E;
  /** `cache` when restored from INDEX_CACHE_DIR, `built` when indexed from scratch. */
  from: 'cache' | 'built';
  lookup: CacheOutcome;
  /** The cache file written after a build, or undefined when nothing was written. */
  savedTo?: string;
  /** Why persisting failed; the engine serves all the same. */
  saveError?: string;
  /** Of `durationMs`, the part spent persisting the index (0 when nothing was written). */
  saveMs: number;
  durationMs: number;
}

/** Options of {@link startEngine}. */
export interface StartEngineOptions {
  corpusPath: string;
  cache: IndexCache;
  /** @default loadCorpus */
  load?: (path: string) => Promise<Corpus>;
  onProgress?: (done: number, total: number) => void;
  /** `startWorkerEngine` only: see `WorkerEngineOptions.workers`. @default 1 */
  workers?: number;
}

/**
 * Reads the corpus, then restores its index from the cache when the cache matches the corpus and the
 * analysis settings; otherwise (absent, stale, corrupt) builds it and persists it for the next start.
 * Throws `CorpusError` when the corpus is invalid: a bot should not start on a broken corpus.
 */
export async function startEngine(options: StartEngineOptions): Promise<StartedEngine> {
  const started = performance.now();
  const corpus = await (options.load ?? loadCorpus)(options.corpusPath);
  const lookup = await options.cache.load(corpus);
  if (lookup.status === 'hit') {
    return {
      engine: lookup.engine,
      from: 'cache',
      lookup,
      saveMs: 0,
      durationMs: performance.now() - started,
    };
  }
  const engine = await Engine.buildAsync(
    corpus,
    options.onProgress ? { onProgress: options.onProgress } : {},
  );
  const result: StartedEngine = { engine, from: 'built', lookup, saveMs: 0, durationMs: 0 };
  if (options.cache.enabled) {
    const saving = performance.now();
    try {
      result.savedTo = await options.cache.save(engine);
    } catch (error) {
      result.saveError = String(error);
    }
    result.saveMs = performance.now() - saving;
  }
  result.durationMs = performance.now() - started;
  return result;
}

/**
 * `startEngine` with the index on a worker thread (`WorkerEngine`): this thread reads and validates the
 * corpus, the worker restores or builds (and persists) the index. Throws `CorpusError` for an invalid
 * corpus, and an `Error` when the worker cannot serve it.
 */
export async function startWorkerEngine(options: StartEngineOptions): Promise<StartedEngine<WorkerEngine>> {
  const started = performance.now();
  const { engine, from, lookup, saveMs, savedTo, saveError } = await WorkerEngine.start({
    corpusPath: options.corpusPath,
    // Read here while the worker starts and reads the cache file.
    corpus: (options.load ?? loadCorpus)(options.corpusPath),
    // Nothing is served yet: a pause to copy the corpus across costs nobody, and saves a second reading.
    sendCorpus: true,
    cache: options.cache,
    workers: options.workers,
    onProgress: options.onProgress,
  });
  return {
    engine,
    from,
    lookup,
    ...(savedTo ? { savedTo } : {}),
    ...(saveError ? { saveError } : {}),
    saveMs,
    durationMs: performance.now() - started,
  };
}
