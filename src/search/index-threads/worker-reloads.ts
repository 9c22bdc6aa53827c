import type { Corpus } from '../../corpus/article.ts';
import type { SearchEngine } from '../search-engine.ts';
import {
  type ReadByWorker,
  type StartedWorkerEngine,
  WorkerEngine,
  type WorkerEngineOptions,
} from './worker-engine.ts';

/** What a reload needs to read and index a corpus (`ReloaderOptions.load` and `index`). */
export interface WorkerReloads {
  load(corpusPath: string): Promise<Corpus>;
  index(corpus: Corpus, onProgress: (done: number, total: number) => void): Promise<SearchEngine>;
}

/**
 * Reloads with INDEX_THREAD=worker: a worker of its own reads and validates the corpus (so no heap that
 * stays holds the garbage of parsing it) and shares it with this thread; new index workers index the
 * shared corpus while the old workers serve. A corpus equal to the one serving is not indexed.
 */
export function reloadsOnWorkers(
  options: Omit<WorkerEngineOptions, 'corpus' | 'onProgress' | 'corpusPath'> & {
    /** The engine serving now: a corpus of its version is not indexed again. */
    serving: () => SearchEngine;
    /** Told how each new index came to be (restored, built, saved). */
    onStarted?: (started: StartedWorkerEngine) => void;
  },
): WorkerReloads {
  let pending: ReadByWorker | undefined;
  let readFrom = '';
  return {
    async load(corpusPath) {
      readFrom = corpusPath;
      pending?.discard();
      pending = undefined;
      const read = await WorkerEngine.read({ ...options, corpusPath });
      if (read.corpus.version === options.serving().version) read.discard();
      else pending = read;
      return read.corpus;
    },
    async index(corpus, onProgress) {
      const read = pending;
      pending = undefined;
      // Anything but the corpus the worker just read (not expected) is indexed on new workers.
      if (read?.corpus !== corpus) read?.discard();
      const started =
        read?.corpus === corpus
          ? await read.start(onProgress)
          : await WorkerEngine.start({ ...options, corpusPath: readFrom, corpus, onProgress });
      options.onStarted?.(started);
      return started.engine;
    },
  };
}
