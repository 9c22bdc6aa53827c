import type { Corpus } from '../../corpus/article.ts';
import { CorpusDigest, digestCorpusOnDisk } from '../../corpus/corpus-digest.ts';
import { type LoadOptions, loadCorpus, type ReadProgress } from '../../corpus/load-corpus.ts';
import { readSharedCorpus, shareCorpus } from '../../corpus/shared-corpus.ts';
import type { SharedRead } from '../index-threads/worker-engine.ts';
import { type CacheOutcome, corpusOnDisk, type IndexCache } from './index-cache.ts';

/** The corpus a worker engine starts on, and how it came. */
export interface CorpusForStart extends SharedRead {
  /** False when it was restored from the cache folder instead of read from its files. */
  parsed: boolean;
  /** A shared corpus file that could not be used (and is written again), for the start-up note. */
  problem?: Extract<CacheOutcome, { status: 'corrupt' }>;
  /** Settles once a corpus read from its files is saved for the next start: with why not, if it failed. */
  saved: Promise<string | undefined>;
}

/**
 * The corpus of a start with the index on worker threads, laid out in shared memory. When the cache
 * folder holds the shared corpus saved from files with the same `CorpusDigest` as those on disk now
 * (every file's name and bytes, the names skipped, the loader's code: the rule the CLI keeps its
 * parsed corpus by), it is read from there and its files are not parsed; a file edited, added or
 * removed since gives another digest, so the files are read. Otherwise (none saved, or one damaged:
 * its checksum fails) the files are read, validated and shared, and the shared corpus is saved for the
 * next start. Throws `CorpusError` for an invalid corpus.
 */
export async function corpusForStart(options: {
  corpusPath: string;
  cache: IndexCache;
  load?: (path: string, options: Pick<LoadOptions, 'onProgress' | 'onFile'>) => Promise<Corpus>;
  onRead?: ReadProgress;
}): Promise<CorpusForStart> {
  const { corpusPath, cache } = options;
  let problem: CorpusForStart['problem'];
  if (await cache.holdsCorpora()) {
    const [files, onDisk] = await Promise.all([digestCorpusOnDisk(corpusPath), corpusOnDisk(corpusPath)]);
    const restored = files === undefined ? undefined : await cache.restoreCorpus(files, onDisk.bytes);
    if (restored?.status === 'read') {
      options.onRead?.(1, 1);
      const corpus = await readSharedCorpus(restored.shared);
      return { shared: restored.shared, corpus, parsed: false, saved: Promise.resolve(undefined) };
    }
    if (restored?.status === 'corrupt') problem = restored;
  }
  const digest = cache.enabled ? new CorpusDigest(corpusPath) : undefined;
  let filesRead = 0;
  const read = await (options.load ?? loadCorpus)(corpusPath, {
    onProgress: options.onRead,
    onFile: (name, bytes) => {
      filesRead++;
      digest?.add(name, bytes);
    },
  });
  // A loader that reports no file (a test's) gives nothing to key the corpus on: it is not saved.
  const files = filesRead > 0 ? digest?.finish(read.skipped ?? []) : undefined;
  const { shared, corpus } = await shareCorpus(read);
  const saved =
    files === undefined
      ? Promise.resolve(undefined)
      : cache.saveCorpus(shared, files).then(
          () => undefined,
          (error: unknown) => String(error),
        );
  return { shared, corpus, parsed: true, ...(problem ? { problem } : {}), saved };
}
