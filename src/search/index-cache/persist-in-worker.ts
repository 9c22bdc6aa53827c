import { Worker } from 'node:worker_threads';
import { corpusLimits } from '../../corpus/corpus-limits.ts';
import type { IndexCache } from './index-cache.ts';

/** What a background persist wrote. */
export interface PersistResult {
  file: string;
  /** The corpus version the cache file is for (what was on disk when the worker read it). */
  version: string;
}

/**
 * Persists the index of the corpus at `corpusPath` from a worker thread: the worker reads the corpus,
 * builds and serializes the index on its own thread, so the main thread (answering questions) never
 * stalls on `toJSON` of a large index. Costs one more build's CPU, on the other core.
 */
export function persistInWorker(corpusPath: string, cache: IndexCache): Promise<PersistResult> {
  // The entry registers tsx itself: worker threads do not inherit the loader for their entry file.
  const worker = new Worker(new URL('./cache-worker-entry.mjs', import.meta.url), {
    workerData: {
      corpusPath,
      cacheDir: cache.dir,
      settingsFingerprint: cache.settingsFingerprint,
      cacheMaxBytes: cache.maxBytes,
      corpusLimits: corpusLimits(),
    },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (result: PersistResult) => resolve(result));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`persistInWorker: the index cache worker exited with code ${code}`));
    });
  });
}
