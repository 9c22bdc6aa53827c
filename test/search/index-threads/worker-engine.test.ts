import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CorpusError, loadCorpus } from '../../../src/corpus/load-corpus.ts';
import { Library } from '../../../src/library.ts';
import { AuditLog } from '../../../src/lifecycle/audit-log.ts';
import { CorpusLifecycle } from '../../../src/lifecycle/corpus-lifecycle.ts';
import { summarizeOutcome } from '../../../src/lifecycle/reloader.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { Engine } from '../../../src/search/engine.ts';
import { startWorkerEngine } from '../../../src/search/index-cache/fast-start.ts';
import { IndexCache } from '../../../src/search/index-cache/index-cache.ts';
import { WorkerEngine } from '../../../src/search/index-threads/worker-engine.ts';
import { reloadsOnWorkers } from '../../../src/search/index-threads/worker-reloads.ts';
import { BUNDLED_CORPUS, copyOfBundledCorpus, LIGHTHOUSE } from '../../support/temp-corpus.ts';
import { floodQuestions } from './fixtures/flood-questions.ts';

const QUESTIONS = [
  'who threatened the mayor of Teteghem?',
  'What did the mayor of Calais threaten to do?',
  'English mafia gun',
  'how many migrants are in the camp?',
  'who won the 1998 world cup?',
];

describe('WorkerEngine over the bundled corpus', () => {
  let inThread: Engine;
  let inWorker: WorkerEngine;
  beforeAll(async () => {
    const corpus = await loadCorpus(BUNDLED_CORPUS);
    inThread = Engine.build(corpus);
    ({ engine: inWorker } = await WorkerEngine.start({ corpusPath: BUNDLED_CORPUS, corpus }));
  });
  afterAll(() => inWorker.close());

  it('answers exactly as the engine on this thread: same passages, quotes, scores and paging', () => {
    for (const question of QUESTIONS) {
      expect(inWorker.answer(question), question).toEqual(inThread.answer(question));
      expect(inWorker.answer(question, { limit: 2, offset: 2 })).toEqual(
        inThread.answer(question, { limit: 2, offset: 2 }),
      );
    }
    expect(inWorker.answer(QUESTIONS[0]!).results[0]?.citation).toBe('teteghem-mayor-threatened-with-gun#2');
  });

  it('gives the same closest headlines, citation suggestions and context', async () => {
    const ids = (articles: { id: string }[]) => articles.map((article) => article.id);
    expect(ids(inWorker.closestHeadlines('Calais migrants', 3))).toEqual(
      ids(inThread.closestHeadlines('Calais migrants', 3)),
    );
    expect(ids(inWorker.closestHeadlines('Calais migrants', 3)).length).toBeGreaterThan(0);
    expect(await inWorker.suggestCitations('mayor gun')).toEqual(
      await inThread.suggestCitations('mayor gun'),
    );
    expect(inWorker.context('teteghem-mayor-threatened-with-gun#2', 1)).toEqual(
      inThread.context('teteghem-mayor-threatened-with-gun#2', 1),
    );
    expect(inWorker.passageCount).toBe(inThread.passageCount);
  });
});

describe('WorkerEngine with two workers', () => {
  let inThread: Engine;
  let pool: WorkerEngine;
  beforeAll(async () => {
    const corpus = await loadCorpus(BUNDLED_CORPUS);
    inThread = Engine.build(corpus);
    ({ engine: pool } = await WorkerEngine.start({ corpusPath: BUNDLED_CORPUS, corpus, workers: 2 }));
  });
  afterAll(() => pool.close());

  it('answers questions asked at once, on both workers, as the engine on this thread does', async () => {
    expect(pool.workers).toBe(2);
    const asked = QUESTIONS.flatMap((question) => [question, `${question} please`]);
    const answers = await Promise.all(asked.map((question) => pool.answerAsync(question)));
    expect(answers).toEqual(asked.map((question) => inThread.answer(question)));
    const headlines = await pool.closestHeadlinesAsync('Calais migrants', 2);
    expect(headlines.map((article) => article.id)).toEqual(
      inThread.closestHeadlines('Calais migrants', 2).map((article) => article.id),
    );
  });

  it('mixes waiting and non-waiting calls on the same workers', async () => {
    const pending = QUESTIONS.map((question) => pool.answerAsync(question, { limit: 1 }));
    // Waiting calls settle the replies to earlier non-waiting ones as they go past.
    expect(pool.answer(QUESTIONS[0]!)).toEqual(inThread.answer(QUESTIONS[0]!));
    expect(await Promise.all(pending)).toEqual(
      QUESTIONS.map((question) => inThread.answer(question, { limit: 1 })),
    );
  });

  it('fails calls in flight when closed, and every later one', async () => {
    const { engine } = await WorkerEngine.start({
      corpusPath: BUNDLED_CORPUS,
      corpus: loadCorpus(BUNDLED_CORPUS),
      workers: 2,
    });
    const inFlight = engine.answerAsync(QUESTIONS[1]!);
    engine.close();
    await expect(inFlight).rejects.toThrow(/retired/);
    await expect(engine.answerAsync(QUESTIONS[1]!)).rejects.toThrow(/retired/);
  });
});

describe('WorkerEngine.start', () => {
  let root: string;
  let folder: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ root, corpus: folder, cleanup } = await copyOfBundledCorpus());
  });
  afterEach(() => cleanup());

  it('refuses an invalid corpus with every problem, as read on this thread', async () => {
    await writeFile(path.join(folder, 'broken.md'), '---\npublisher: Nobody\n---\n\nNo title here.\n');
    const started = startWorkerEngine({ corpusPath: folder, cache: new IndexCache({ dir: '' }) });
    await expect(started).rejects.toBeInstanceOf(CorpusError);
    await expect(started).rejects.toThrow(/title is required/);
  });

  it('indexes the corpus read on this thread, not what the folder holds by then', async () => {
    const read = await loadCorpus(BUNDLED_CORPUS);
    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);
    const { engine } = await WorkerEngine.start({ corpusPath: folder, corpus: read });
    try {
      expect(engine.version).toBe(read.version);
      expect(engine.corpus.articles.map((article) => article.id)).toEqual(
        read.articles.map((article) => article.id),
      );
      expect((await engine.answerAsync('lighthouse keeper rescue')).results).toEqual(
        Engine.build(read).answer('lighthouse keeper rescue').results,
      );
    } finally {
      engine.close();
    }
  });

  it('builds and persists the index on a cold start, then starts from it', async () => {
    const cache = new IndexCache({ dir: path.join(root, 'cache') });
    const cold = await startWorkerEngine({ corpusPath: folder, cache });
    cold.engine.close();
    expect(cold.from).toBe('built');
    expect(cold.lookup).toEqual({ status: 'miss', reason: 'absent' });
    expect(cold.savedTo).toBe(cache.fileFor(cold.engine.version));
    // The index, and the corpus laid out to share (for the next start not to parse its files).
    expect((await readdir(cache.dir)).sort()).toEqual([
      expect.stringMatching(/^corpus-[0-9a-f]{32}\.shared$/),
      path.basename(cache.fileFor(cold.engine.version)),
    ]);

    const warm = await startWorkerEngine({ corpusPath: folder, cache });
    expect(warm.from).toBe('cache');
    expect(warm.saveMs).toBe(0);
    expect(warm.engine.answer(QUESTIONS[0]!).results[0]?.citation).toBe(
      'teteghem-mayor-threatened-with-gun#2',
    );
    warm.engine.close();

    // The worker reads the most recently used cache file before it knows the corpus; a file for another
    // corpus is not used, and is kept beside the new one (one file per corpus).
    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);
    const changed = await startWorkerEngine({ corpusPath: folder, cache });
    changed.engine.close();
    expect(changed.from).toBe('built');
    expect(changed.lookup).toEqual({ status: 'miss', reason: 'absent' });
    expect(changed.engine.article('lighthouse')).toBeDefined();
    expect((await readdir(cache.dir)).filter((name) => name.endsWith('.idx')).sort()).toEqual(
      [warm.engine.version, changed.engine.version].map((v) => path.basename(cache.fileFor(v))).sort(),
    );
  }, 90_000);

  it('once closed, refuses searches but still cites from its corpus', async () => {
    const { engine } = await WorkerEngine.start({ corpusPath: folder, corpus: loadCorpus(folder) });
    engine.close();
    expect(() => engine.answer(QUESTIONS[0]!)).toThrow(/retired/);
    expect(engine.passage('teteghem-mayor-threatened-with-gun#2')?.article.id).toBe(
      'teteghem-mayor-threatened-with-gun',
    );
  });

  it('retired, ends its worker once the questions in flight are answered, and hands later ones on', async () => {
    const { engine: old } = await WorkerEngine.start({ corpusPath: folder, corpus: loadCorpus(folder) });
    const successor = Engine.build(await loadCorpus(folder));
    const asked = Array.from({ length: 50 }, (_, i) => `${QUESTIONS[i % 5]} ${i}`);
    const inFlight = asked.map((question) => old.answerAsync(question));
    old.retire(successor);
    expect(old.closed).toBe(false);
    // Answered by its own worker, on the same corpus: as the successor answers them.
    expect(await Promise.all(inFlight)).toEqual(asked.map((question) => successor.answer(question)));
    await vi.waitFor(() => expect(old.closed).toBe(true), { timeout: 3000 });
    expect(old.answer(QUESTIONS[0]!)).toEqual(successor.answer(QUESTIONS[0]!));
  });

  it('reloads through a worker that builds and hands the index over: answers as a build on this thread, on every worker', async () => {
    const cache = new IndexCache({ dir: path.join(root, 'cache') });
    const { engine: first } = await WorkerEngine.start({ corpusPath: folder, corpus: loadCorpus(folder) });
    const library = new Library(first);
    let started: { from: string; savedTo?: string } | undefined;
    const lifecycle = new CorpusLifecycle(library, {
      corpusPath: folder,
      audit: new AuditLog({ logger: silentLogger }),
      ...reloadsOnWorkers({
        cache,
        workers: 2,
        serving: () => library.engine,
        onStarted: (s) => (started = s),
      }),
    });
    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);
    expect((await lifecycle.reload()).status).toBe('reloaded');
    const reloaded = library.engine as WorkerEngine;
    expect(reloaded.workers).toBe(2);
    // How the index came to be is the building worker's account: built, and persisted by it.
    expect(started).toMatchObject({ from: 'built', savedTo: cache.fileFor(reloaded.version) });
    const built = Engine.build(await loadCorpus(folder));
    const asked = [...QUESTIONS, 'who rescued the stranded kayakers?'];
    expect(await Promise.all(asked.map((question) => reloaded.answerAsync(question)))).toEqual(
      asked.map((question) => built.answer(question)),
    );
    expect(reloaded.answer(asked.at(-1)!).results[0]?.article).toBe('lighthouse');
    reloaded.close();
  }, 90_000);

  it('a reload whose building worker runs out of memory fails in plain words, and the old index keeps serving', async () => {
    const { engine: first } = await WorkerEngine.start({ corpusPath: folder, corpus: loadCorpus(folder) });
    const library = new Library(first);
    const lifecycle = new CorpusLifecycle(library, {
      corpusPath: folder,
      audit: new AuditLog({ logger: silentLogger }),
      // A heap far too small for any index: the worker that builds it is stopped by V8.
      ...reloadsOnWorkers({ serving: () => library.engine, buildLimits: { maxOldGenerationSizeMb: 2 } }),
    });
    const before = library.engine.answer(QUESTIONS[0]!);
    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);
    const outcome = await lifecycle.reload();
    expect(outcome).toMatchObject({ status: 'failed', version: first.version });
    expect(summarizeOutcome(outcome)).toMatch(
      /^reload failed \(.*the index worker failed: it ran out of memory .*\); still serving version /,
    );
    expect(library.engine).toBe(first);
    expect(first.closed).toBe(false);
    expect(library.engine.answer(QUESTIONS[0]!)).toEqual(before);
    expect(library.engine.article('lighthouse')).toBeUndefined();
    first.close();
  }, 90_000);

  it('reloads onto a new worker with no question failing, and retires the old worker', async () => {
    const { engine: first } = await WorkerEngine.start({ corpusPath: folder, corpus: loadCorpus(folder) });
    const library = new Library(first);
    const lifecycle = new CorpusLifecycle(library, {
      corpusPath: folder,
      audit: new AuditLog({ logger: silentLogger }),
      // As the bot reloads with INDEX_THREAD=worker: a worker reads the corpus, a new one indexes it.
      ...reloadsOnWorkers({ serving: () => library.engine }),
    });
    const flood = floodQuestions(library, QUESTIONS[0]!, 'teteghem-mayor-threatened-with-gun');

    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);
    const outcome = await lifecycle.reload();
    expect(outcome.status).toBe('reloaded');
    expect(library.engine).not.toBe(first);
    expect(library.engine.answer('who rescued the stranded kayakers?').results[0]?.article).toBe(
      'lighthouse',
    );
    const during = flood.answered();

    await writeFile(path.join(folder, 'broken.md'), '---\npublisher: Nobody\n---\n\n');
    const refused = await lifecycle.reload();
    // Read by the new worker, reported with every problem as when read on this thread.
    const problems = await loadCorpus(folder).then(
      () => [],
      (error: CorpusError) => error.problems,
    );
    expect(problems.length).toBeGreaterThan(0);
    expect(refused).toMatchObject({ status: 'refused', problems });
    expect(library.engine.answer('who rescued the stranded kayakers?').results[0]?.article).toBe(
      'lighthouse',
    );
    await rm(path.join(folder, 'broken.md'));
    const serving = library.engine;
    const unchanged = await lifecycle.reload();
    expect(unchanged).toMatchObject({ status: 'reloaded', report: { unchanged: true } });
    expect(library.engine).toBe(serving);

    flood.stop();
    expect(flood.failures).toEqual([]);
    expect(during).toBeGreaterThan(0);
    // Questions asked of the old engine after the swap (by a request that took it before): its successor
    // answers them. (Asked after the flood: its waiting calls would time out behind them on a loaded machine.)
    const backlog = Array.from({ length: 20 }, (_, i) => first.answerAsync(`${QUESTIONS[i % 5]} ${i}`));
    const settled = await Promise.allSettled(backlog);
    expect(settled.filter((result) => result.status === 'rejected')).toEqual([]);
    // Once idle, the replaced engine's worker is ended (its index freed); what it is asked still gets
    // answered, by the engine that replaced it.
    await vi.waitFor(() => expect(first.closed).toBe(true), { timeout: 3000 });
    expect(first.answer('who rescued the stranded kayakers?').results[0]?.article).toBe('lighthouse');
    library.engine.close();
  });
});
