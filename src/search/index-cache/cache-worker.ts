// Worker thread entry: builds the index for the corpus at `corpusPath` and persists it to the cache,
// off the main thread, so that serializing a large index never stalls the bot after a reload.
import { parentPort, workerData } from 'node:worker_threads';
import { loadCorpus } from '../../corpus/load-corpus.ts';
import { Engine } from '../engine.ts';
import { IndexCache } from './index-cache.ts';

interface CacheJob {
  corpusPath: string;
  cacheDir: string;
  settingsFingerprint: string;
  cacheMaxBytes: number;
}

const job = workerData as CacheJob;
const corpus = await loadCorpus(job.corpusPath);
const cache = new IndexCache({
  dir: job.cacheDir,
  settingsFingerprint: job.settingsFingerprint,
  maxBytes: job.cacheMaxBytes,
});
const existing = await cache.load(corpus);
const file = existing.status === 'hit' ? existing.file : await cache.save(Engine.build(corpus));
parentPort?.postMessage({ file, version: corpus.version });
