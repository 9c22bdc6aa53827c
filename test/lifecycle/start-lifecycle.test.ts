import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { openLibrary, startLifecycle } from '../../src/lifecycle/start-lifecycle.ts';
import { memoryLogger } from '../../src/logging/logger.ts';
import { copyOfBundledCorpus, LIGHTHOUSE } from '../support/temp-corpus.ts';

let root: string;
let folder: string;
let cleanup: () => Promise<void>;
let stop: () => void = () => undefined;
beforeEach(async () => {
  ({ root, corpus: folder, cleanup } = await copyOfBundledCorpus());
});
afterEach(async () => {
  stop();
  await cleanup();
});

describe.each(['worker', 'main'])('startLifecycle, index on the %s thread', (thread) => {
  it('reloads on SIGHUP and persists the new index off the main thread, so the next start is from the cache', async () => {
    const cacheDir = path.join(root, 'cache');
    const config = loadConfig({ CORPUS_PATH: folder, INDEX_CACHE_DIR: cacheDir, INDEX_THREAD: thread });
    const logger = memoryLogger();
    const { library, lifecycle } = await openLibrary({ config, logger });
    expect(logger.events[0]).toMatchObject({
      message: 'corpus loaded',
      context: { from: 'built', cache: 'absent' },
    });
    ({ stop } = await startLifecycle({ library, lifecycle, config, logger }));

    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);
    process.kill(process.pid, 'SIGHUP');
    // A new worker starts, reads the corpus and builds its index: seconds on a loaded machine.
    await vi.waitFor(() => expect(library.engine.article('lighthouse')).toBeDefined(), { timeout: 20_000 });
    await vi.waitFor(
      () => expect(logger.events.map((event) => event.message)).toContain('index cache saved'),
      {
        timeout: 20_000,
      },
    );
    // One file per corpus version: the one built at start, and the one after the reload.
    expect((await readdir(cacheDir)).filter((name) => name.endsWith('.idx'))).toHaveLength(2);
    expect(logger.events.find((event) => event.message === 'corpus change')?.context).toMatchObject({
      actor: { id: 'system', name: 'SIGHUP' },
      action: 'reload',
      outcome: 'ok',
      versionAfter: library.engine.version,
    });

    const restarted = memoryLogger();
    const again = await openLibrary({ config, logger: restarted });
    expect(again.library.engine.version).toBe(library.engine.version);
    expect(restarted.events[0]).toMatchObject({ context: { from: 'cache', cache: 'hit' } });
  }, 60_000);

  it('reloads when the corpus folder changes, with WATCH_CORPUS=true', async () => {
    const config = loadConfig({
      CORPUS_PATH: folder,
      INDEX_CACHE_DIR: '',
      WATCH_CORPUS: 'true',
      INDEX_THREAD: thread,
    });
    const logger = memoryLogger();
    const { library, lifecycle } = await openLibrary({ config, logger });
    ({ stop } = await startLifecycle({ library, lifecycle, config, logger }));
    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);
    await vi.waitFor(() => expect(library.engine.article('lighthouse')).toBeDefined(), { timeout: 25_000 });
    expect(logger.events.at(-1)).toMatchObject({
      message: 'corpus reload (corpus watch)',
      context: { status: 'reloaded' },
    });
  });
});

describe('openLibrary over an unchanged corpus folder (the bot as `npm start` opens it: INDEX_THREAD=worker)', () => {
  const QUESTIONS = [
    'who threatened the mayor of Teteghem?',
    'what did the mayor of Calais threaten to do with the borders?',
    'how much did a migrant pay to travel from Syria?',
    'what is the capital of Peru?',
  ];

  /** The bot's start over the folder with a cache, what it logged, and its answers to QUESTIONS. */
  async function botStart() {
    const config = loadConfig({ CORPUS_PATH: folder, INDEX_CACHE_DIR: path.join(root, 'cache') });
    const logger = memoryLogger();
    const opened = await openLibrary({ config, logger });
    const answers = [];
    for (const question of QUESTIONS) answers.push(await opened.library.engine.answerAsync(question));
    const loaded = logger.events.find((event) => event.message === 'corpus loaded')?.context;
    return { ...opened, answers, loaded, close: () => opened.library.engine.close() };
  }

  it('started twice, answers identically, the second time with its corpus and index from the cache, without parsing', async () => {
    const first = await botStart();
    first.close();
    expect(first.loaded).toMatchObject({ from: 'built', corpusFrom: 'files', cache: 'absent' });
    expect(first.answers[0]?.results[0]?.citation).toBe('teteghem-mayor-threatened-with-gun#2');

    const second = await botStart();
    try {
      expect(second.loaded).toMatchObject({ from: 'cache', corpusFrom: 'cache', cache: 'hit' });
      expect(second.answers).toEqual(first.answers);
      expect(second.library.engine.corpus).toEqual(await loadCorpus(folder));

      // Reloads and edits read the real files, and compare them with the corpus restored from the cache.
      const unchanged = await second.lifecycle.reload();
      expect(unchanged).toMatchObject({ status: 'reloaded', report: { unchanged: true } });
      await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);
      const added = await second.lifecycle.reload();
      expect(added).toMatchObject({
        status: 'reloaded',
        report: { added: ['lighthouse'], removed: [], changed: [] },
      });
      expect(
        (await second.library.engine.answerAsync('who rescued the kayakers?')).results[0]?.citation,
      ).toBe('lighthouse#1');
    } finally {
      second.close();
    }
  }, 120_000);

  it('reads a file edited between two starts (same size, same modification time), never the stale copy', async () => {
    const file = path.join(folder, 'teteghem-mayor-threatened-with-gun.md');
    const when = new Date('2024-05-14T12:00:00Z');
    await utimes(file, when, when);
    const first = await botStart();
    first.close();
    expect(first.answers[0]?.results[0]?.passage).toContain('Franck Dhersin');

    await writeFile(file, (await readFile(file, 'utf8')).replaceAll('Dhersin', 'Dhorsin'));
    await utimes(file, when, when);
    const edited = await botStart();
    edited.close();
    expect(edited.loaded).toMatchObject({ from: 'built', corpusFrom: 'files' });
    expect(edited.answers[0]?.results[0]?.passage).toContain('Franck Dhorsin');
    expect(edited.answers[0]?.results[0]?.passage).not.toContain('Dhersin');
  }, 120_000);

  it('finds a damaged cache file, starts from the files with a note, rewrites it, and starts from it next time', async () => {
    const first = await botStart();
    first.close();
    const cacheDir = path.join(root, 'cache');
    const [name] = (await readdir(cacheDir)).filter((entry) => entry.endsWith('.shared'));
    const damaged = path.join(cacheDir, name!);
    const bytes = await readFile(damaged);
    bytes[bytes.length >> 1]! ^= 0x01;
    await writeFile(damaged, bytes);

    const rebuilt = await botStart();
    rebuilt.close();
    expect(rebuilt.loaded).toMatchObject({
      corpusFrom: 'files',
      cache: 'corrupt',
      cacheProblem: 'checksum does not match the content',
    });
    expect(rebuilt.answers).toEqual(first.answers);

    const again = await botStart();
    again.close();
    expect(again.loaded).toMatchObject({ from: 'cache', corpusFrom: 'cache', cache: 'hit' });
    expect(again.answers).toEqual(first.answers);
  }, 120_000);
});
