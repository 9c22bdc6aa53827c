import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import type { StartedEngine } from '../../src/search/index-cache/fast-start.ts';
import { IndexCache } from '../../src/search/index-cache/index-cache.ts';
import type { SearchEngine } from '../../src/search/search-engine.ts';
import { sizeFolders } from './size-folders.ts';

type Start = (options: { corpusPath: string; cache: IndexCache }) => Promise<StartedEngine<SearchEngine>>;

/** Wall and CPU milliseconds (CPU of the whole process: the index worker's too). */
interface Cost {
  wallMs: number;
  cpuMs: number;
}

async function measured<T>(run: () => Promise<T>): Promise<{ value: T; cost: Cost }> {
  (globalThis as { gc?: () => void }).gc?.();
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const value = await run();
  const used = process.cpuUsage(cpu);
  return { value, cost: { wallMs: performance.now() - wall, cpuMs: (used.user + used.system) / 1000 } };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * A fresh start (read, analyse, index; the cache off, so nothing is persisted) and a start from the
 * persisted index at each corpus size, in wall and CPU time, so the growth with corpus size shows.
 * Returns report lines.
 */
export async function startsBySize(root: string, start: Start): Promise<string[]> {
  const rows: string[] = [];
  // The sizes of the memory figures: NewsQA alone; NewsQA, BBC and Reuters up to 50,000 passages; all three.
  for (const { name, folder } of await sizeFolders(root)) {
    // Without a cache: nothing persisted, the fresh start's own cost only.
    const fresh = await measured(() => start({ corpusPath: folder, cache: new IndexCache({ dir: '' }) }));
    fresh.value.engine.close();
    const cache = new IndexCache({ dir: join(root, `cache-${name}`) });
    const persisting = await measured(() => start({ corpusPath: folder, cache }));
    persisting.value.engine.close();
    if (!persisting.value.savedTo) throw new Error(`${name}: not persisted: ${persisting.value.saveError}`);
    const warm = await measured(() => start({ corpusPath: folder, cache }));
    warm.value.engine.close();
    if (warm.value.from !== 'cache') throw new Error(`${name}: expected a cache hit`);
    const passages = warm.value.engine.passageCount;
    process.stderr.write(`bench:reload: size ${name} (${passages} passages) measured\n`);
    rows.push(
      `| ${name} | ${passages.toLocaleString('en')} | ${seconds(fresh.cost.wallMs)} / ${seconds(fresh.cost.cpuMs)} | ` +
        `${seconds(persisting.value.saveMs)} | ${seconds(warm.cost.wallMs)} / ${seconds(warm.cost.cpuMs)} | ` +
        `${(warm.cost.wallMs / fresh.cost.wallMs).toFixed(3)} / ${(warm.cost.cpuMs / fresh.cost.cpuMs).toFixed(3)} |`,
    );
  }
  return [
    '',
    `starts by corpus size (wall / CPU time of the whole process, the index worker's included; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`,
    '',
    '| size | passages | fresh start: read + build | persisting (wall) | start from the persisted index | persisted / fresh |',
    '|---|---|---|---|---|---|',
    ...rows,
  ];
}
