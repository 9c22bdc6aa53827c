// Worker thread entry: builds the index for the corpus at `corpusPath` and persists it to the cache,
// off the main thread, so that serializing a large index never stalls the bot after a reload.
import { parentPort, workerData } from 'node:worker_threads';
import { type CorpusLimits, setCorpusLimits } from '../../corpus/corpus-limits.ts';
import { loadCorpus } from '../../corpus/load-corpus.ts';
import { Engine } from '../engine.ts';
import { corpusOnDisk, IndexCache } from './index-cache.ts';

interface CacheJob {
  corpusPath: string;
  cacheDir: string;
  settingsFingerprint: string;
  cacheMaxBytes: number;
  corpusLimits: CorpusLimits;
}

const job = workerData as CacheJob;
setCorpusLimits(job.corpusLimits);
// Before the corpus is read: a file changed meanwhile must not be taken for the one read.
const onDisk = await corpusOnDisk(job.corpusPath);
const corpus = await loadCorpus(job.corpusPath);
const cache = new IndexCache({
  dir: job.cacheDir,
  settingsFingerprint: job.settingsFingerprint,
  maxBytes: job.cacheMaxBytes,
});
const existing = await cache.load(corpus);
const file =
  existing.status === 'hit' ? existing.file : await cache.save(Engine.build(corpus), onDisk.source);
parentPort?.postMessage({ file, version: corpus.version });
