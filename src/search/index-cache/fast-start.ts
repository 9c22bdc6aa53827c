import type { Corpus } from '../../corpus/article.ts';
import { CorpusDigest, digestCorpusOnDisk } from '../../corpus/corpus-digest.ts';
import { type LoadOptions, loadCorpus, type ReadProgress } from '../../corpus/load-corpus.ts';
import { passageCount } from '../../corpus/shared-corpus.ts';
import { Engine } from '../engine.ts';
import { WorkerEngine } from '../index-threads/worker-engine.ts';
import type { SearchEngine } from '../search-engine.ts';
import { corpusForStart } from './corpus-for-start.ts';
import { type CacheLookup, type CacheOutcome, corpusOnDisk, type IndexCache } from './index-cache.ts';

/** What a start is doing, as it tells it. */
export interface StartProgress {
  /** Files (or records of a `.jsonl` file) read and validated so far, of all. */
  reading(done: number, total: number): void;
  /** Articles indexed so far, of all, and the passages they hold. */
  indexing(done: number, total: number, passages: number): void;
  /** The live line ends and one summary line says what is served. */
  ready(summary: StartSummary): void;
  /** The live line ends without a summary (the start failed; its error says why). */
  stop(): void;
}

/** What the summary line says. */
export interface StartSummary {
  articles: number;
  passages: number;
  from: 'cache' | 'built';
  /** The corpus came from the cache with the index: its files were unchanged and not parsed again. */
  corpusFromCache?: boolean;
  seconds: number;
  /** Names the loader did not read (other kinds of file, subfolders). */
  skipped?: readonly string[];
  /** A cache problem worth knowing: a corrupt file that was rebuilt, a save that failed. */
  cacheNote?: string;
}

/** How the start-up engine came to be, for the log line. */
export interface StartedEngine<E extends SearchEngine = Engine> {
  engine: E;
  /** `cache` when restored from INDEX_CACHE_DIR, `built` when indexed from scratch. */
  from: 'cache' | 'built';
  /**
   * False when the corpus came from the cache folder instead of being read from its files (its files
   * were byte for byte those it was read from).
   */
  parsed?: boolean;
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
  load?: (path: string, options: Pick<LoadOptions, 'onProgress' | 'onFile'>) => Promise<Corpus>;
  /** Files (or records of one `.jsonl` file) read and validated so far, of all. */
  onRead?: ReadProgress;
  /** Articles indexed so far, of all, and the passages they hold (only when the index is built). */
  onProgress?: (done: number, total: number, passages: number) => void;
  /** `startWorkerEngine` only: see `WorkerEngineOptions.workers`. @default 1 */
  workers?: number;
  /**
   * `startEngine` only: keep the parsed corpus in the cache file, and restore it from there instead of
   * parsing files that are byte for byte those it was parsed from, its text read lazily. For the CLI,
   * which answers a question or two on a large file and exits. (`startWorkerEngine`, the bot's start,
   * always keeps its corpus, as it shares it with the workers: `corpusForStart`.)
   * @default false
   */
  keepCorpus?: boolean;
}

/**
 * With `keepCorpus`, restores the corpus and its index from the cache file saved with the parsed corpus
 * of exactly these files (same bytes, names and loader), without parsing them. Otherwise reads the
 * corpus, then restores its index from the cache when the cache matches the corpus and the analysis
 * settings; otherwise (absent, stale, corrupt) builds it and persists it (with `keepCorpus`, with the
 * parsed corpus) for the next start.
 * Throws `CorpusError` when the corpus is invalid: a bot should not start on a broken corpus.
 */
export async function startEngine(options: StartEngineOptions): Promise<StartedEngine> {
  const started = performance.now();
  // Before the corpus is read: a file changed meanwhile must not be taken for the one read.
  const onDisk = options.cache.enabled ? await corpusOnDisk(options.corpusPath) : undefined;
  let restored: CacheLookup | undefined;
  if (onDisk !== undefined && options.keepCorpus) {
    const files = await digestCorpusOnDisk(options.corpusPath);
    restored = files === undefined ? undefined : await options.cache.restore(files, onDisk.bytes);
    // Anything short of a hit (none saved, a damaged file) is left to the reading below, which reports it.
    if (restored?.status === 'hit') {
      options.onRead?.(1, 1);
      return {
        engine: restored.engine,
        from: 'cache',
        parsed: false,
        lookup: { status: 'hit', file: restored.file },
        saveMs: 0,
        durationMs: performance.now() - started,
      };
    }
  }
  const digest =
    onDisk !== undefined && options.keepCorpus ? new CorpusDigest(options.corpusPath) : undefined;
  let filesRead = 0;
  const corpus = await (options.load ?? loadCorpus)(options.corpusPath, {
    onProgress: options.onRead,
    onFile: (name, bytes) => {
      filesRead++;
      digest?.add(name, bytes);
    },
  });
  const files = filesRead > 0 ? digest?.finish(corpus.skipped ?? []) : undefined;
  const lookup = await options.cache.load(corpus);
  const result: StartedEngine =
    lookup.status === 'hit'
      ? { engine: lookup.engine, from: 'cache', lookup, saveMs: 0, durationMs: 0 }
      : { engine: await buildEngine(corpus, options), from: 'built', lookup, saveMs: 0, durationMs: 0 };
  // A build is saved; so is an index saved without a usable parsed corpus of these very files (by a
  // worker, before a file or the loader changed, or one that failed to restore), so that the next start
  // need not parse them.
  const stale =
    lookup.status !== 'hit' ||
    (files !== undefined && (lookup.files !== files || restored?.status === 'corrupt'));
  if (options.cache.enabled && stale) {
    const saving = performance.now();
    try {
      result.savedTo = await options.cache.save(result.engine, onDisk?.source, files);
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
 * corpus, or restores it from the cache folder when its files are byte for byte those it was read from
 * (`corpusForStart`), and the worker restores or builds (and persists) the index. Throws `CorpusError`
 * for an invalid corpus, and an `Error` when the worker cannot serve it.
 */
export async function startWorkerEngine(options: StartEngineOptions): Promise<StartedEngine<WorkerEngine>> {
  const started = performance.now();
  let counted: ((done: number, total: number) => void) | undefined;
  // Read here while the worker starts and reads the cache file.
  const reading = corpusForStart(options);
  const { engine, from, lookup, saveMs, savedTo, saveError } = await WorkerEngine.start({
    corpusPath: options.corpusPath,
    corpus: reading.then((read) => {
      counted = withPassages(read.corpus, options.onProgress);
      return read;
    }),
    cache: options.cache,
    workers: options.workers,
    onProgress: options.onProgress === undefined ? undefined : (done, total) => counted?.(done, total),
  });
  const { parsed, problem, saved } = await reading;
  const corpusSaveError = await saved;
  const anySaveError = saveError ?? (corpusSaveError && `the corpus was not saved: ${corpusSaveError}`);
  return {
    engine,
    from,
    parsed,
    // A damaged corpus file is worth the same note as a damaged index file: both were written anew.
    lookup: lookup.status === 'corrupt' ? lookup : (problem ?? lookup),
    ...(savedTo ? { savedTo } : {}),
    ...(anySaveError ? { saveError: anySaveError } : {}),
    saveMs,
    durationMs: performance.now() - started,
  };
}

function buildEngine(corpus: Corpus, options: StartEngineOptions): Promise<Engine> {
  const onProgress = withPassages(corpus, options.onProgress);
  return Engine.buildAsync(corpus, onProgress ? { onProgress } : {});
}

/** Progress in articles, with the passages of the articles indexed so far added. */
function withPassages(
  corpus: Corpus,
  onProgress: StartEngineOptions['onProgress'],
): ((done: number, total: number) => void) | undefined {
  if (!onProgress) return undefined;
  const passagesBefore = [0];
  // Counted without making the passages of a shared corpus.
  for (const article of corpus.articles) passagesBefore.push(passagesBefore.at(-1)! + passageCount(article));
  return (done, total) => onProgress(done, total, passagesBefore[done] ?? passagesBefore.at(-1)!);
}

/**
 * The start-up engine as the configuration asks for it (on a worker or this thread, from INDEX_CACHE_DIR
 * when it matches), telling `progress` how it goes. The bot and the CLI both start this way.
 */
export async function openEngine(
  config: { CORPUS_PATH: string; INDEX_THREAD: 'worker' | 'main'; INDEX_WORKERS: number },
  cache: IndexCache,
  progress?: StartProgress,
  options: Pick<StartEngineOptions, 'keepCorpus'> = {},
): Promise<StartedEngine<SearchEngine>> {
  const inWorker = config.INDEX_THREAD === 'worker';
  try {
    const started: StartedEngine<SearchEngine> = await (inWorker ? startWorkerEngine : startEngine)({
      corpusPath: config.CORPUS_PATH,
      cache,
      workers: config.INDEX_WORKERS,
      ...options,
      onRead: progress?.reading,
      onProgress: progress?.indexing,
    });
    progress?.ready({
      articles: started.engine.corpus.articles.length,
      passages: started.engine.passageCount,
      from: started.from,
      corpusFromCache: started.parsed === false,
      seconds: started.durationMs / 1000,
      skipped: started.engine.corpus.skipped ?? [],
      ...cacheNote(started),
    });
    return started;
  } catch (error) {
    progress?.stop();
    throw error;
  }
}

/** A cache problem worth a note in the summary line; none for a hit, a first build or a disabled cache. */
function cacheNote(started: StartedEngine<SearchEngine>): { cacheNote?: string } {
  if (started.lookup.status === 'corrupt') {
    return { cacheNote: `the cache file was unusable (${started.lookup.reason}) and was rebuilt` };
  }
  if (started.saveError)
    return { cacheNote: `the index could not be saved to the cache: ${started.saveError}` };
  return {};
}
