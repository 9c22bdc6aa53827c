import { cp, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { digestCorpusOnDisk } from '../../src/corpus/corpus-digest.ts';
import { corpusLimits, DEFAULT_CORPUS_LIMITS, setCorpusLimits } from '../../src/corpus/corpus-limits.ts';
import { CorpusError, loadCorpus } from '../../src/corpus/load-corpus.ts';
import { WorkerEngine } from '../../src/search/index-threads/worker-engine.ts';

let root: string;
let folder: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'newsdesk-file-size-'));
  folder = join(root, 'corpus');
  await cp('corpus', folder, { recursive: true });
  // Sparse: 200 MB as stated, no disk taken. Before the cap, reading it took a reload 33 s and 2.9 GB.
  await writeFile(join(folder, 'huge.md'), '');
  await truncate(join(folder, 'huge.md'), 200 * 1024 * 1024);
});
afterEach(() => setCorpusLimits(DEFAULT_CORPUS_LIMITS));
afterAll(() => rm(root, { recursive: true, force: true }));

async function problemsOf(reading: Promise<unknown>): Promise<string[]> {
  const error = await reading.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CorpusError);
  return (error as CorpusError).problems.map((problem) => `${problem.file}: ${problem.message}`);
}

describe('GIVEN a corpus folder holding a sparse 200 MB file beside its articles', () => {
  it('THEN loading refuses it by its size, before reading it, naming the file', async () => {
    const started = performance.now();
    const rss = process.memoryUsage().rss;
    expect(await problemsOf(loadCorpus(folder))).toEqual([
      `${join(folder, 'huge.md')}: is 200 MB; corpus files may be at most 64 MB (CORPUS_MAX_FILE_MB): not read`,
    ]);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(100 * 1024 * 1024);
  });

  it('THEN the index cache takes no digest of it, so the file is never read to be hashed', async () => {
    // The cache's digest hashed every byte before the loader refused the file: 6 s for 1.9 GB.
    expect(await digestCorpusOnDisk(folder)).toBeUndefined();
    setCorpusLimits({ ...corpusLimits(), maxFileBytes: 300 * 1024 * 1024 });
    expect(await digestCorpusOnDisk(folder)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('THEN a reload on a worker thread applies the cap the process was configured with', async () => {
    setCorpusLimits({ ...corpusLimits(), maxFileBytes: 1024 });
    expect(await problemsOf(WorkerEngine.read({ corpusPath: folder }))).toContain(
      `${join(folder, 'calais-mayor-threatens-to-open-borders.md')}: is 5.5 KB; corpus files may be at most 1 KB (CORPUS_MAX_FILE_MB): not read`,
    );
  });
});
