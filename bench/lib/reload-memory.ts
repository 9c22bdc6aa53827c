// The memory half of `npm run bench:reload`: the bot's memory as `npm start` runs it (the serving
// thread plus index workers), at three corpus sizes, each figure from a fresh process.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { countPassages } from './bench-corpus.ts';
import { forkMeasurement } from './fork-measurement.ts';
import { sizeFolders } from './size-folders.ts';

/** Targets of issue 17 at every size. */
export const STEADY_RSS_TARGET_MB = 450;
export const EXTRA_WORKER_TARGET_MB = 150;
export const RELOAD_PEAK_TARGET = 1.5;

/** One run of `reload-memory-process.ts`. */
export interface MemoryJob {
  folder: string;
  cacheDir: string;
  workers: number;
  reload: boolean;
}

/** Memory after a forced collection in every thread, in bytes. */
export interface SteadyMemory {
  rss: number;
  mainHeap: number;
  workerHeaps: number[];
  external: number;
}

export type MemoryOutcome =
  | {
      from: 'cache' | 'built';
      steady: SteadyMemory;
      reload?: {
        peakRss: number;
        /** The peak in each phase of the reload (its progress phases, then `retiring`). */
        byPhase: Record<string, number>;
        reloadMs: number;
        retiredMs: number;
        after: SteadyMemory;
      };
    }
  | { error: string };

const entry = fileURLToPath(new URL('./reload-memory-process.ts', import.meta.url));

function run(job: MemoryJob): Promise<Extract<MemoryOutcome, { from: string }>> {
  return forkMeasurement<MemoryOutcome>(entry, job, {
    timeoutMs: 40 * 60_000,
    execArgv: ['--expose-gc'],
    fail: (error) => ({ error }),
  }).then((outcome) => {
    if ('error' in outcome) throw new Error(`memory run ${JSON.stringify(job)} failed: ${outcome.error}`);
    return outcome;
  });
}

const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL');

/**
 * Measures each size in fresh processes: a first start (build and persist), a start from the persisted
 * index followed by one reload, and a start with two index workers. Returns the report's lines.
 */
export async function reloadMemoryReport(
  root: string,
  step: (what: string) => void,
  maxPassages = Number.POSITIVE_INFINITY,
): Promise<string[]> {
  const rows: string[] = [];
  for (const { name, folder } of await sizeFolders(root)) {
    const passages = countPassages((await loadCorpus(folder)).articles);
    if (passages > maxPassages) continue;
    const cacheDir = join(root, `memory-cache-${name}`);
    const built = await run({ folder, cacheDir, workers: 1, reload: false });
    step(`memory ${name}: built ${mb(built.steady.rss)}`);
    const restored = await run({ folder, cacheDir, workers: 1, reload: true });
    const reload = restored.reload!;
    const phases = Object.entries(reload.byPhase).map(([phase, rss]) => `${phase} ${mb(rss)}`);
    step(
      `memory ${name}: restored ${mb(restored.steady.rss)}, reload peak ${mb(reload.peakRss)} (${phases.join(', ')})`,
    );
    const two = await run({ folder, cacheDir, workers: 2, reload: false });
    const steadyRss = Math.max(built.steady.rss, restored.steady.rss);
    const extra = two.steady.rss - restored.steady.rss;
    const peakRatio = reload.peakRss / steadyRss;
    rows.push(
      `| ${name} | ${passages} | ${mb(built.steady.rss)} / ${mb(restored.steady.rss)} ${verdict(steadyRss <= STEADY_RSS_TARGET_MB * 2 ** 20)}` +
        ` | ${mb(restored.steady.mainHeap)} / ${mb(restored.steady.workerHeaps[0]!)} / ${mb(restored.steady.external)}` +
        ` | ${mb(extra)} ${verdict(extra <= EXTRA_WORKER_TARGET_MB * 2 ** 20)}` +
        ` | ${mb(reload.peakRss)} (${peakRatio.toFixed(2)}×) ${verdict(peakRatio <= RELOAD_PEAK_TARGET)}` +
        ` | ${(reload.retiredMs / 1000).toFixed(1)} s | ${mb(reload.after.rss)} |`,
    );
    // A long run that is cut short still leaves the sizes measured so far.
    step(`memory row: ${rows.at(-1)!}`);
  }
  return [
    '',
    'memory of the bot as `npm start` runs it (serving thread + index workers), after a forced collection in every thread',
    '',
    `| corpus | passages | steady RSS, built / restored (≤ ${STEADY_RSS_TARGET_MB} MB) | heap: serving thread / worker / external | each further worker (≤ ${EXTRA_WORKER_TARGET_MB} MB) | peak RSS during a reload (≤ ${RELOAD_PEAK_TARGET}× steady) | reload start to old workers ended | RSS after the reload |`,
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ];
}
