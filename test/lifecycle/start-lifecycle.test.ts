import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';
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
