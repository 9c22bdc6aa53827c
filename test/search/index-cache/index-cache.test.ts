import { readdir, readFile, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../../src/corpus/load-corpus.ts';
import { startEngine } from '../../../src/search/index-cache/fast-start.ts';
import { IndexCache } from '../../../src/search/index-cache/index-cache.ts';
import { copyOfBundledCorpus, DATED_CORPUS, LIGHTHOUSE } from '../../support/temp-corpus.ts';

let root: string;
let folder: string;
let cleanup: () => Promise<void>;
let cache: IndexCache;

beforeEach(async () => {
  ({ root, corpus: folder, cleanup } = await copyOfBundledCorpus());
  cache = new IndexCache({ dir: path.join(root, 'cache') });
});
afterEach(() => cleanup());

const QUESTION = 'who threatened the mayor of Teteghem?';

describe('startEngine with the index cache', () => {
  it('builds and persists on a cold start, then restores an engine that answers identically', async () => {
    const cold = await startEngine({ corpusPath: folder, cache });
    expect(cold.from).toBe('built');
    expect(cold.lookup).toEqual({ status: 'miss', reason: 'absent' });
    expect(cold.savedTo).toBe(cache.fileFor(cold.engine.version));

    const warm = await startEngine({ corpusPath: folder, cache });
    expect(warm.from).toBe('cache');
    expect(warm.engine.version).toBe(cold.engine.version);
    expect(warm.engine.passageCount).toBe(cold.engine.passageCount);
    expect(warm.engine.answer(QUESTION)).toEqual(cold.engine.answer(QUESTION));
  });

  it('restores an engine whose citations keep their dates', async () => {
    const cold = await startEngine({ corpusPath: DATED_CORPUS, cache });
    const warm = await startEngine({ corpusPath: DATED_CORPUS, cache });
    expect(warm.from).toBe('cache');
    const dates = (engine: typeof warm.engine) =>
      engine.answer('Gravelines dock strike', { limit: 10 }).results.map((r) => [r.citation, r.published]);
    expect(dates(warm.engine)).toEqual(dates(cold.engine));
    expect(dates(warm.engine)).toContainEqual(['wire-1987#1', '1987-02-26T15:01:11.79']);
  });

  it('rebuilds when the corpus changed, and keeps only the newest cache file', async () => {
    const first = await startEngine({ corpusPath: folder, cache });
    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);
    const second = await startEngine({ corpusPath: folder, cache });
    expect(second.from).toBe('built');
    expect(second.engine.version).not.toBe(first.engine.version);
    expect(await readdir(cache.dir)).toEqual([path.basename(cache.fileFor(second.engine.version))]);
  });

  it('rebuilds when the analysis settings changed', async () => {
    await startEngine({ corpusPath: folder, cache });
    const retuned = new IndexCache({ dir: cache.dir, settingsFingerprint: 'analysis-999' });
    const started = await startEngine({ corpusPath: folder, cache: retuned });
    expect(started.from).toBe('built');
    expect(started.lookup).toEqual({ status: 'miss', reason: 'absent' });
  });

  it('rebuilds over a truncated cache file and replaces it with a good one', async () => {
    const cold = await startEngine({ corpusPath: folder, cache });
    const file = cache.fileFor(cold.engine.version);
    await truncate(file, 100);
    const started = await startEngine({ corpusPath: folder, cache });
    expect(started.from).toBe('built');
    expect(started.lookup).toMatchObject({ status: 'corrupt', file });
    expect((await startEngine({ corpusPath: folder, cache })).from).toBe('cache');
  });

  it('rebuilds when the cache file parses but holds an index for another corpus', async () => {
    const cold = await startEngine({ corpusPath: folder, cache });
    const file = cache.fileFor(cold.engine.version);
    const envelope = JSON.parse(await readFile(file, 'utf8')) as { engine: { corpusVersion: string } };
    envelope.engine.corpusVersion = 'somethingelse';
    await writeFile(file, JSON.stringify(envelope));
    const started = await startEngine({ corpusPath: folder, cache });
    expect(started.lookup).toMatchObject({
      status: 'corrupt',
      reason: expect.stringContaining('another corpus'),
    });
    expect(started.engine.answer(QUESTION).results.length).toBeGreaterThan(0);
  });

  it('never touches the disk when the cache is disabled', async () => {
    const disabled = new IndexCache({ dir: '' });
    const started = await startEngine({ corpusPath: folder, cache: disabled });
    expect(started).toMatchObject({ from: 'built', lookup: { status: 'miss', reason: 'disabled' } });
    expect(started.savedTo).toBeUndefined();
    expect(await readdir(root)).toEqual(['corpus']);
  });

  it('keys the cache on the corpus version and settings only', async () => {
    const corpus = await loadCorpus(folder);
    expect(cache.keyFor(corpus.version)).toBe(new IndexCache({ dir: 'elsewhere' }).keyFor(corpus.version));
    expect(cache.keyFor(corpus.version)).not.toBe(cache.keyFor(`${corpus.version}x`));
  });

  it('reads the one cache file ahead of the corpus, and uses it only for the corpus it was built for', async () => {
    expect(await cache.prefetch()).toBeUndefined();
    const cold = await startEngine({ corpusPath: folder, cache });
    const prefetched = await cache.prefetch();
    expect(prefetched?.file).toBe(cache.fileFor(cold.engine.version));

    const restored = await cache.load(await loadCorpus(folder), prefetched);
    expect(restored.status).toBe('hit');
    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);
    expect(await cache.load(await loadCorpus(folder), prefetched)).toEqual({
      status: 'miss',
      reason: 'absent',
    });

    // With more than one file there is no telling which is wanted: nothing is read ahead.
    await writeFile(path.join(cache.dir, 'index-000000000000000000000000.json'), '{}');
    expect(await cache.prefetch()).toBeUndefined();
  });
});
