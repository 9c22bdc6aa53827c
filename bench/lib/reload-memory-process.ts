// Child process of `bench/lib/reload-memory.ts`: starts the bot's index as `npm start` does (the
// serving thread plus INDEX_WORKERS index workers, restored or built) and reports its memory; with
// `reload`, also reloads once and reports the peak. Run with --expose-gc, so figures hold only what is
// reachable.
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Library } from '../../src/library.ts';
import { AuditLog } from '../../src/lifecycle/audit-log.ts';
import { CorpusLifecycle } from '../../src/lifecycle/corpus-lifecycle.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { startWorkerEngine } from '../../src/search/index-cache/fast-start.ts';
import { IndexCache } from '../../src/search/index-cache/index-cache.ts';
import type { WorkerEngine } from '../../src/search/index-threads/worker-engine.ts';
import { reloadsOnWorkers } from '../../src/search/index-threads/worker-reloads.ts';
import type { MemoryJob, MemoryOutcome, SteadyMemory } from './reload-memory.ts';

const job = JSON.parse(process.argv[2]!) as MemoryJob;

/** RSS sampled every few milliseconds: the largest seen since `start`, overall and in each phase. */
function rssSampler() {
  let phase = 'reading';
  const peaks = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  const sample = () => {
    peaks.set(phase, Math.max(peaks.get(phase) ?? 0, process.memoryUsage.rss()));
  };
  return {
    start() {
      sample();
      timer = setInterval(sample, 5);
    },
    /** The reload's phase from now on (its progress names it). */
    enter(next: string) {
      sample();
      phase = next;
    },
    stop(): { peak: number; byPhase: Record<string, number> } {
      sample();
      clearInterval(timer);
      return { peak: Math.max(...peaks.values()), byPhase: Object.fromEntries(peaks) };
    },
  };
}

async function steady(engine: WorkerEngine): Promise<SteadyMemory> {
  const workers = await engine.workerMemory();
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  collect?.();
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rss, mainHeap: heapUsed, workerHeaps: workers.map((w) => w.heapUsed), external };
}

/** The bot's start, measured; the engine is kept only by the library, as in the bot. */
async function start(cache: IndexCache) {
  const { engine, from } = await startWorkerEngine({ corpusPath: job.folder, cache, workers: job.workers });
  return { from, atStart: await steady(engine), library: new Library(engine) };
}

async function main(): Promise<MemoryOutcome> {
  const cache = new IndexCache({ dir: job.cacheDir });
  const { from, atStart, library } = await start(cache);
  if (!job.reload) return { from, steady: atStart };
  // Not a reference: the old engine's corpus must be free to go once it has retired, as in the bot.
  const replaced = new WeakRef(library.engine as WorkerEngine);

  const lifecycle = new CorpusLifecycle(library, {
    corpusPath: job.folder,
    audit: new AuditLog({ logger: silentLogger }),
    // As start-lifecycle sets it up for INDEX_THREAD=worker.
    ...reloadsOnWorkers({ cache, workers: job.workers, serving: () => library.engine }),
  });
  const added = path.join(job.folder, 'bench-memory-added.md');
  await writeFile(
    added,
    '---\ntitle: Memory benchmark article\n---\n\nA paragraph so that the reload indexes.\n',
  );
  const sampler = rssSampler();
  sampler.start();
  const reloadStarted = performance.now();
  try {
    const outcome = await lifecycle.reload({
      trigger: 'command',
      onProgress: (progress) => sampler.enter(progress.phase),
    });
    if (outcome.status !== 'reloaded') throw new Error(`reload ${outcome.status}`);
    const reloadMs = performance.now() - reloadStarted;
    // The peak lasts until the replaced workers are gone: wait for their retirement.
    sampler.enter('retiring');
    const retired = await until(() => replaced.deref()?.closed ?? true, 30_000);
    const { peak: peakRss, byPhase } = sampler.stop();
    const after = await steady(library.engine as WorkerEngine);
    return {
      from,
      steady: atStart,
      reload: { peakRss, byPhase, reloadMs, retiredMs: retired - reloadStarted, after },
    };
  } finally {
    await rm(added, { force: true });
  }
}

/** Resolves with the time `condition` first held, checked every 10 ms, or rejects after `limitMs`. */
function until(condition: () => boolean, limitMs: number): Promise<number> {
  const giveUp = performance.now() + limitMs;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (condition()) resolve(performance.now());
      else if (performance.now() > giveUp) reject(new Error(`not retired within ${limitMs} ms`));
      else setTimeout(check, 10);
    };
    check();
  });
}

main().then(
  (outcome) => {
    process.send?.(outcome);
    process.exit(0);
  },
  (error: unknown) => {
    process.send?.({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exit(1);
  },
);
