import { createHash } from 'node:crypto';
import {
  copyFile,
  readdir,
  readFile,
  rename,
  stat,
  truncate,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { digestCorpusOnDisk } from '../../../src/corpus/corpus-digest.ts';
import { loadCorpus } from '../../../src/corpus/load-corpus.ts';
import { SnapshotFormatError } from '../../../src/search/index-cache/corpus-snapshot.ts';
import { startEngine, startWorkerEngine } from '../../../src/search/index-cache/fast-start.ts';
import { corpusOnDisk, IndexCache } from '../../../src/search/index-cache/index-cache.ts';
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

  it('rebuilds when the corpus changed, keeping one file per corpus: the first is still a hit', async () => {
    const first = await startEngine({ corpusPath: folder, cache });
    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);
    const second = await startEngine({ corpusPath: folder, cache });
    expect(second.from).toBe('built');
    expect(second.engine.version).not.toBe(first.engine.version);
    expect((await readdir(cache.dir)).sort()).toEqual(
      [cache.fileFor(first.engine.version), cache.fileFor(second.engine.version)]
        .map((f) => path.basename(f))
        .sort(),
    );
    await unlink(path.join(folder, 'lighthouse.md'));
    expect((await startEngine({ corpusPath: folder, cache })).from).toBe('cache');
  });

  it('past its size cap, deletes the least recently used files first, never the one just saved', async () => {
    const versions: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      await writeFile(path.join(folder, `${name}.md`), LIGHTHOUSE);
      versions.push((await startEngine({ corpusPath: folder, cache })).engine.version);
      // mtime is the "last used" clock; make each step distinct even on a coarse file system.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const sizes = await Promise.all(versions.map(async (v) => (await stat(cache.fileFor(v))).size));
    // Use the first again: now the second is the least recently used.
    await unlink(path.join(folder, 'two.md'));
    await unlink(path.join(folder, 'three.md'));
    expect((await startEngine({ corpusPath: folder, cache })).from).toBe('cache');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // A cap that holds two files: saving a fourth deletes the two least recently used (2nd, 3rd).
    const capped = new IndexCache({ dir: cache.dir, maxBytes: sizes[0]! + Math.max(...sizes) + 100 });
    await writeFile(path.join(folder, 'four.md'), LIGHTHOUSE);
    const fourth = await startEngine({ corpusPath: folder, cache: capped });
    expect((await readdir(cache.dir)).sort()).toEqual(
      [versions[0]!, fourth.engine.version].map((v) => path.basename(cache.fileFor(v))).sort(),
    );
    const tiny = new IndexCache({ dir: cache.dir, maxBytes: 1 });
    await writeFile(path.join(folder, 'five.md'), LIGHTHOUSE);
    const fifth = await startEngine({ corpusPath: folder, cache: tiny });
    expect(await readdir(cache.dir)).toEqual([path.basename(cache.fileFor(fifth.engine.version))]);
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

  it('refuses a cache file whose content was rewritten or emptied, by its checksum', async () => {
    const cold = await startEngine({ corpusPath: folder, cache });
    const file = cache.fileFor(cold.engine.version);
    const original = await readFile(file);
    const newline = original.lastIndexOf(0x0a);
    const rewritten = Buffer.from(original);
    rewritten[Math.floor(newline / 2)]! ^= 0xff;
    await writeFile(file, rewritten);
    const swapped = await startEngine({ corpusPath: folder, cache });
    expect(swapped).toMatchObject({
      from: 'built',
      lookup: { status: 'corrupt', reason: expect.stringContaining('checksum') },
    });
    expect(swapped.engine.answer(QUESTION).results[0]?.citation).toBe(
      cold.engine.answer(QUESTION).results[0]?.citation,
    );

    await writeFile(file, original.subarray(newline));
    expect((await startEngine({ corpusPath: folder, cache })).lookup).toMatchObject({ status: 'corrupt' });
  });

  it('refuses postings naming a passage the corpus lacks, even under a checksum that matches them', async () => {
    const cold = await startEngine({ corpusPath: folder, cache });
    const file = cache.fileFor(cold.engine.version);
    const original = await readFile(file);
    const newline = original.lastIndexOf(0x0a);
    const body = Buffer.from(original.subarray(0, newline));
    // Past the header, the vocabulary and the term offsets: the first posting's passage number.
    const section = (at: number) => at + 4 + Math.ceil(body.readUInt32LE(at) / 4) * 4;
    const docs = section(section(8));
    body.writeUInt32LE(0xffff_ffff, docs + 4);
    const trailer = JSON.parse(original.subarray(newline + 1).toString('utf8')) as { checksum: string };
    trailer.checksum = createHash('sha256').update(`${cold.engine.version}\u0000`).update(body).digest('hex');
    await writeFile(file, Buffer.concat([body, Buffer.from(`\n${JSON.stringify(trailer)}`)]));
    const started = await startEngine({ corpusPath: folder, cache });
    expect(started).toMatchObject({
      from: 'built',
      lookup: { status: 'corrupt', reason: expect.stringContaining('out of order') },
    });
    expect(started.engine.answer(QUESTION).results[0]?.citation).toBe(
      cold.engine.answer(QUESTION).results[0]?.citation,
    );
  });

  it('refuses a cache file made for another corpus version, even with a checksum that matches it', async () => {
    const cold = await startEngine({ corpusPath: folder, cache });
    const file = cache.fileFor(cold.engine.version);
    const original = await readFile(file);
    const newline = original.lastIndexOf(0x0a);
    const trailer = JSON.parse(original.subarray(newline + 1).toString('utf8')) as { corpusVersion: string };
    trailer.corpusVersion = 'somethingelse';
    await writeFile(
      file,
      Buffer.concat([original.subarray(0, newline + 1), Buffer.from(JSON.stringify(trailer))]),
    );
    const started = await startEngine({ corpusPath: folder, cache });
    expect(started.lookup).toMatchObject({
      status: 'corrupt',
      reason: expect.stringContaining('another corpus'),
    });
    expect(started.engine.answer(QUESTION).results.length).toBeGreaterThan(0);
  });

  it.each([
    ['JSON null', 'null'],
    ['a number', '42'],
    ['an array', '[]'],
    ['a string', '"index"'],
    ['an empty file', ''],
    ['a trailer alone', '\n{"format":2}'],
    ['null with a null trailer', 'null\nnull'],
    ['bytes that are not text', Buffer.from([0xff, 0xfe, 0x00, 0x0a, 0x80, 0x81])],
  ])('treats a cache file holding %s as corrupt and rebuilds, on every start', async (_what, content) => {
    const cold = await startEngine({ corpusPath: folder, cache });
    const file = cache.fileFor(cold.engine.version);
    await writeFile(file, content);
    const started = await startEngine({ corpusPath: folder, cache });
    expect(started).toMatchObject({ from: 'built', lookup: { status: 'corrupt', file } });
    expect(started.engine.answer(QUESTION).results.length).toBeGreaterThan(0);
  });

  it('starts on a worker over a cache file holding JSON null (it used to stop start-up)', async () => {
    const cold = await startEngine({ corpusPath: folder, cache });
    const file = cache.fileFor(cold.engine.version);
    await writeFile(file, 'null');
    const worker = await startWorkerEngine({ corpusPath: folder, cache });
    try {
      expect(worker).toMatchObject({ from: 'built', lookup: { status: 'corrupt', file } });
      expect((await worker.engine.answerAsync(QUESTION)).results.length).toBeGreaterThan(0);
    } finally {
      worker.engine.close();
    }
  });

  it('refuses a cache file far larger than the corpus could need without reading it', async () => {
    const cold = await startEngine({ corpusPath: folder, cache });
    const file = cache.fileFor(cold.engine.version);
    // Sparse: 400 MB long, no disk used; reading it whole would take 400 MB of memory.
    await truncate(file, 400 * 2 ** 20);
    const before = process.memoryUsage().arrayBuffers;
    const started = await startEngine({ corpusPath: folder, cache });
    expect(started.lookup).toMatchObject({ status: 'corrupt', reason: expect.stringContaining('bytes') });
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(100 * 2 ** 20);
    await truncate(file, 400 * 2 ** 20);
    // Nor is it read ahead of the corpus: its last bytes say nothing of where it comes from.
    expect(await cache.prefetch(await corpusOnDisk(folder))).toBeUndefined();
  });

  it('removes temporary files a crash left behind, once they are old, and keeps young ones', async () => {
    await startEngine({ corpusPath: folder, cache });
    const stale = path.join(cache.dir, '.index-0123456789abcdef01234567.json.aabbccddeeff.tmp');
    const young = path.join(cache.dir, '.index-0123456789abcdef01234567.json.112233445566.tmp');
    await writeFile(stale, '{"partial":');
    await writeFile(young, '{"partial":');
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(stale, anHourAgo, anHourAgo);
    await startEngine({ corpusPath: folder, cache: new IndexCache({ dir: cache.dir }) });
    const names = await readdir(cache.dir);
    expect(names).not.toContain(path.basename(stale));
    expect(names).toContain(path.basename(young));
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

  it('checks a file read ahead before the corpus arrives, and refuses it for a corpus it was not made for', async () => {
    const cold = await startWorkerEngine({ corpusPath: folder, cache });
    const cited = (await cold.engine.answerAsync(QUESTION)).results[0]?.citation;
    cold.engine.close();
    const corpus = await loadCorpus(folder);
    const prefetched = await cache.prefetch(await corpusOnDisk(folder));
    expect(prefetched?.checked).toMatchObject({ postings: { terms: expect.any(Array) } });
    expect((await cache.load(corpus, prefetched)).status).toBe('hit');

    // Its checksum is checked ahead: a damaged file is found out before the corpus is read.
    const file = cache.fileFor(cold.engine.version);
    const original = await readFile(file);
    const damaged = Buffer.from(original);
    damaged[100]! ^= 0xff;
    await writeFile(file, damaged);
    const ahead = await cache.prefetch(await corpusOnDisk(folder));
    expect(ahead?.checked).toContain('checksum');
    expect(await cache.load(corpus, ahead)).toMatchObject({
      status: 'corrupt',
      reason: expect.stringContaining('checksum'),
    });
    const rebuilt = await startWorkerEngine({ corpusPath: folder, cache });
    try {
      expect(rebuilt).toMatchObject({ from: 'built', lookup: { status: 'corrupt', file } });
      expect((await rebuilt.engine.answerAsync(QUESTION)).results[0]?.citation).toBe(cited);
    } finally {
      rebuilt.engine.close();
    }

    // Postings checked ahead for their own documents still have to fit the corpus's passages.
    const fewer = { ...corpus, articles: corpus.articles.slice(1) };
    const fresh = await cache.prefetch(await corpusOnDisk(folder));
    expect(await cache.load(fewer, fresh)).toMatchObject({ status: 'corrupt' });
  });

  it('reads ahead of the corpus only the cache file saved from the same files, never another corpus’s', async () => {
    expect(await cache.prefetch(await corpusOnDisk(folder))).toBeUndefined();
    const cold = await startWorkerEngine({ corpusPath: folder, cache });
    cold.engine.close();
    const prefetched = await cache.prefetch(await corpusOnDisk(folder));
    expect(prefetched?.file).toBe(cache.fileFor(cold.engine.version));
    expect((await cache.load(await loadCorpus(folder), prefetched)).status).toBe('hit');

    // Another corpus saved since is the most recently used file; it is not read for this one.
    const other = await startEngine({ corpusPath: DATED_CORPUS, cache });
    expect((await readdir(cache.dir)).filter((name) => name.endsWith('.idx')).sort()).toEqual(
      [cold.engine.version, other.engine.version].map((v) => path.basename(cache.fileFor(v))).sort(),
    );
    expect((await cache.prefetch(await corpusOnDisk(folder)))?.file).toBe(cache.fileFor(cold.engine.version));
    expect((await cache.prefetch(await corpusOnDisk(DATED_CORPUS)))?.file).toBe(
      cache.fileFor(other.engine.version),
    );

    // A corpus changed since has no file read ahead; the file read for it before is not used for it.
    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);
    expect(await cache.prefetch(await corpusOnDisk(folder))).toBeUndefined();
    expect(await cache.load(await loadCorpus(folder), prefetched)).toEqual({
      status: 'miss',
      reason: 'absent',
    });
  });
});

/** `loadCorpus`, counting the times the files are read and parsed. */
function countingLoad() {
  const counted = { reads: 0 };
  const load: typeof loadCorpus = (corpusPath, options) => {
    counted.reads++;
    return loadCorpus(corpusPath, options);
  };
  return Object.assign(counted, { load });
}

describe('startWorkerEngine keeping the corpus laid out to share (the bot)', () => {
  /** A start as the bot's (the index on a worker), its engine closed once `use` is done with it. */
  async function started<T>(
    corpusPath: string,
    load: typeof loadCorpus,
    use: (start: Awaited<ReturnType<typeof startWorkerEngine>>) => Promise<T> | T,
  ): Promise<T> {
    const start = await startWorkerEngine({ corpusPath, cache, load });
    try {
      return await use(start);
    } finally {
      start.engine.close();
    }
  }

  const answers = async (start: Awaited<ReturnType<typeof startWorkerEngine>>) => [
    await start.engine.answerAsync(QUESTION),
    await start.engine.answerAsync('Gravelines dock strike', { limit: 5 }),
  ];

  it('restores the corpus of unchanged files without reading them: equal to a fresh read, same answers', async () => {
    for (const corpusPath of [folder, DATED_CORPUS]) {
      const counted = countingLoad();
      const cold = await started(corpusPath, counted.load, async (start) => {
        expect(start).toMatchObject({ from: 'built', parsed: true });
        return answers(start);
      });
      await started(corpusPath, counted.load, async (warm) => {
        expect(counted.reads).toBe(1);
        expect(warm).toMatchObject({ from: 'cache', parsed: false, lookup: { status: 'hit' } });
        expect(warm.engine.corpus).toEqual(await loadCorpus(corpusPath));
        expect(await answers(warm)).toEqual(cold);
      });
    }
  });

  it('reads the files again when one byte changed, even at the same size and modification time', async () => {
    const file = path.join(folder, 'teteghem-mayor-threatened-with-gun.md');
    const when = new Date('2024-05-14T12:00:00Z');
    await utimes(file, when, when);
    const counted = countingLoad();
    const before = await started(folder, counted.load, (cold) => cold.engine.version);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replaceAll('Dhersin', 'Dhorsin'));
    await utimes(file, when, when);

    await started(folder, counted.load, async (changed) => {
      expect(counted.reads).toBe(2);
      expect(changed).toMatchObject({ parsed: true, from: 'built' });
      expect(changed.engine.version).not.toBe(before);
      expect(changed.engine.corpus).toEqual(await loadCorpus(folder));
      expect((await changed.engine.answerAsync(QUESTION)).results[0]?.passage).toContain('Franck Dhorsin');
    });
    // The edited files' corpus is the one kept now.
    await started(folder, counted.load, (again) => expect(again.parsed).toBe(false));
    expect(counted.reads).toBe(2);
  });

  it('refuses a damaged corpus file by its checksum: reads the files, answers the same, and restores next time', async () => {
    const counted = countingLoad();
    const cold = await started(folder, counted.load, answers);
    const [name] = (await readdir(cache.dir)).filter((entry) => entry.endsWith('.shared'));
    const file = path.join(cache.dir, name!);
    const bytes = await readFile(file);
    bytes[100]! ^= 0x20; // a byte of a passage's text
    await writeFile(file, bytes);

    await started(folder, counted.load, async (rebuilt) => {
      expect(counted.reads).toBe(2);
      expect(rebuilt).toMatchObject({
        parsed: true,
        lookup: { status: 'corrupt', file, reason: expect.stringContaining('checksum') },
      });
      expect(await answers(rebuilt)).toEqual(cold);
    });
    await started(folder, counted.load, async (warm) => {
      expect(warm).toMatchObject({ parsed: false, lookup: { status: 'hit' } });
      expect(await answers(warm)).toEqual(cold);
    });
    expect(counted.reads).toBe(2);
  });

  it('reads the files when the corpus file is cut short, or holds another corpus than its name says', async () => {
    const counted = countingLoad();
    await started(DATED_CORPUS, counted.load, () => undefined);
    await started(folder, counted.load, () => undefined);
    const names = (await readdir(cache.dir)).filter((entry) => entry.endsWith('.shared'));
    expect(names).toHaveLength(2);
    const fileOf = async (corpusPath: string) => cache.corpusFileFor((await digestCorpusOnDisk(corpusPath))!);
    const [dated, bundled] = [await fileOf(DATED_CORPUS), await fileOf(folder)];
    await truncate(bundled, 1000);
    await started(folder, counted.load, (start) =>
      expect(start).toMatchObject({ parsed: true, lookup: { status: 'corrupt', reason: 'no trailer' } }),
    );
    await copyFile(dated, bundled);
    await started(folder, counted.load, async (start) => {
      expect(start).toMatchObject({
        parsed: true,
        lookup: { status: 'corrupt', reason: 'saved from other files than its name says' },
      });
      expect(start.engine.corpus).toEqual(await loadCorpus(folder));
    });
    expect(counted.reads).toBe(4);
  });

  it('keeps no corpus of files it did not see (a loader that reports none), nor with the cache off', async () => {
    const silent: typeof loadCorpus = (corpusPath) => loadCorpus(corpusPath);
    await started(folder, silent, () => undefined);
    expect((await readdir(cache.dir)).filter((entry) => entry.endsWith('.shared'))).toEqual([]);
    const off = await startWorkerEngine({ corpusPath: folder, cache: new IndexCache({ dir: '' }) });
    off.engine.close();
    expect(off).toMatchObject({ parsed: true, lookup: { status: 'miss', reason: 'disabled' } });
  });
});

describe('startEngine keeping the parsed corpus with its index (keepCorpus: the CLI)', () => {
  /** A start as the CLI's: the parsed corpus kept with the index. */
  const keeping = (corpusPath: string, load: typeof loadCorpus) =>
    startEngine({ corpusPath, cache, load, keepCorpus: true });

  it('restores the corpus of unchanged files without reading them: equal to a fresh read, same answers', async () => {
    for (const corpusPath of [folder, DATED_CORPUS]) {
      const counted = countingLoad();
      const cold = await keeping(corpusPath, counted.load);
      expect(cold.from).toBe('built');
      const warm = await keeping(corpusPath, counted.load);
      expect(counted.reads).toBe(1);
      expect(warm).toMatchObject({ from: 'cache', lookup: { status: 'hit' } });
      expect(warm.engine.corpus).toEqual(await loadCorpus(corpusPath));
      expect(warm.engine.answer(QUESTION)).toEqual(cold.engine.answer(QUESTION));
      expect(warm.engine.answer('Gravelines dock strike', { limit: 5 })).toEqual(
        cold.engine.answer('Gravelines dock strike', { limit: 5 }),
      );
    }
  });

  it('reads the files again when one byte changed, even at the same size and modification time', async () => {
    const file = path.join(folder, 'teteghem-mayor-threatened-with-gun.md');
    const when = new Date('2024-05-14T12:00:00Z');
    await utimes(file, when, when);
    const counted = countingLoad();
    const cold = await keeping(folder, counted.load);
    const before = await stat(file);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('gun');
    await writeFile(file, text.replace('gun', 'GUN'));
    await utimes(file, when, when);
    expect(await stat(file)).toMatchObject({ size: before.size, mtimeMs: before.mtimeMs });

    const changed = await keeping(folder, counted.load);
    expect(counted.reads).toBe(2);
    expect(changed.engine.version).not.toBe(cold.engine.version);
    expect(changed.engine.corpus).toEqual(await loadCorpus(folder));
  });

  it('reads the files again when a file is added, removed or renamed, or the folder gains a file it skips', async () => {
    const counted = countingLoad();
    await keeping(folder, counted.load);
    const changes = [
      () => writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE),
      () => rename(path.join(folder, 'lighthouse.md'), path.join(folder, 'beacon.md')),
      () => writeFile(path.join(folder, 'notes.doc'), 'not an article'),
      () => unlink(path.join(folder, 'beacon.md')),
    ];
    for (const [i, change] of changes.entries()) {
      await change();
      const started = await keeping(folder, counted.load);
      expect(counted.reads).toBe(i + 2);
      expect(started.engine.corpus).toEqual(await loadCorpus(folder));
    }
    expect((await keeping(folder, counted.load)).engine.corpus.skipped).toEqual(['notes.doc']);
    expect(counted.reads).toBe(changes.length + 1);
  });

  it('refuses a damaged corpus snapshot by its checksum: reads the files, rebuilds, and restores next time', async () => {
    const counted = countingLoad();
    const cold = await keeping(folder, counted.load);
    const file = cache.fileFor(cold.engine.version);
    const bytes = await readFile(file);
    const newline = bytes.lastIndexOf(0x0a);
    const { corpusBytes } = JSON.parse(bytes.subarray(newline + 1).toString('utf8'));
    // A byte of the snapshot's head (its articles' metadata), which the checksum covers.
    bytes[newline - corpusBytes + 8 + 20]! ^= 0x20;
    await writeFile(file, bytes);

    const rebuilt = await keeping(folder, counted.load);
    expect(counted.reads).toBe(2);
    expect(rebuilt).toMatchObject({
      from: 'built',
      lookup: { status: 'corrupt', reason: expect.stringContaining('checksum') },
    });
    expect(rebuilt.engine.answer(QUESTION)).toEqual(cold.engine.answer(QUESTION));
    expect((await keeping(folder, counted.load)).from).toBe('cache');
    expect(counted.reads).toBe(2);
  });

  it('finds damaged text of the corpus snapshot when a passage of it is first read, never giving other text', async () => {
    const counted = countingLoad();
    const cold = await keeping(folder, counted.load);
    const file = cache.fileFor(cold.engine.version);
    const bytes = await readFile(file);
    // The text is the end of the body, just before the trailer's newline; checked by its blocks' hashes.
    bytes[bytes.lastIndexOf(0x0a) - 10]! ^= 0x20;
    await writeFile(file, bytes);

    const warm = await keeping(folder, counted.load);
    expect(warm).toMatchObject({ from: 'cache', lookup: { status: 'hit' } });
    expect(counted.reads).toBe(1);
    const last = warm.engine.corpus.articles.at(-1)!;
    expect(() => last.passages).toThrow(SnapshotFormatError);
    expect(() => warm.engine.answer(QUESTION)).toThrow(SnapshotFormatError);
  });

  it('adds the parsed corpus to an index a worker saved without it, so that the next start reads nothing', async () => {
    const counted = countingLoad();
    const cold = await startWorkerEngine({ corpusPath: folder, cache });
    cold.engine.close();
    const first = await keeping(folder, counted.load);
    expect(first).toMatchObject({ from: 'cache', savedTo: cache.fileFor(cold.engine.version) });
    const second = await keeping(folder, counted.load);
    expect(counted.reads).toBe(1);
    expect(second.savedTo).toBeUndefined();
    expect(second.engine.corpus).toEqual(await loadCorpus(folder));
  });

  it('never keeps the parsed corpus of files it did not see (a loader that reports none)', async () => {
    const silent: typeof loadCorpus = (corpusPath) => loadCorpus(corpusPath);
    await keeping(folder, silent);
    const counted = countingLoad();
    expect((await keeping(folder, counted.load)).from).toBe('cache');
    expect(counted.reads).toBe(1);
  });
  it('without keepCorpus (the bot with INDEX_THREAD=main) never keeps nor restores a parsed corpus: its text comes from its files', async () => {
    const counted = countingLoad();
    const cold = await startEngine({ corpusPath: folder, cache, load: counted.load });
    const warm = await startEngine({ corpusPath: folder, cache, load: counted.load });
    expect(counted.reads).toBe(2);
    expect(warm.from).toBe('cache');
    const trailer = JSON.parse(
      (await readFile(cache.fileFor(cold.engine.version), 'utf8')).split('\n').at(-1)!,
    );
    expect(trailer.files).toBeUndefined();
    expect(trailer.corpusBytes).toBeUndefined();
  });
});
