import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEngine } from '../../../src/search/index-cache/fast-start.ts';
import { IndexCache } from '../../../src/search/index-cache/index-cache.ts';
import { persistInWorker } from '../../../src/search/index-cache/persist-in-worker.ts';
import { copyOfBundledCorpus, LIGHTHOUSE } from '../../support/temp-corpus.ts';

let root: string;
let folder: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ root, corpus: folder, cleanup } = await copyOfBundledCorpus());
});
afterEach(() => cleanup());

describe('persistInWorker', () => {
  // Two starts and a worker thread that loads the TypeScript sources: slow on a loaded machine.
  it('persists the index of the corpus on disk from a worker thread, so the next start is from the cache', {
    timeout: 90_000,
  }, async () => {
    const cache = new IndexCache({ dir: path.join(root, 'cache') });
    await startEngine({ corpusPath: folder, cache });
    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);

    const result = await persistInWorker(folder, cache);
    expect(result.file).toBe(cache.fileFor(result.version));

    const next = await startEngine({ corpusPath: folder, cache });
    expect(next.from).toBe('cache');
    expect(next.engine.version).toBe(result.version);
    expect(next.engine.answer('who rescued the stranded kayakers?').results[0]?.article).toBe('lighthouse');
  });
});
