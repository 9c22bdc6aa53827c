import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import type { StartedEngine } from '../../src/search/index-cache/fast-start.ts';
import { IndexCache } from '../../src/search/index-cache/index-cache.ts';
import type { SearchEngine } from '../../src/search/search-engine.ts';
import { SHARED_DATA } from './scale-corpus.ts';

type Start = (options: { corpusPath: string; cache: IndexCache }) => Promise<StartedEngine<SearchEngine>>;

/** NewsQA alone; NewsQA, BBC and the first 9,000 Reuters records (about 65,000 passages); all three. */
const SIZES: { name: string; reutersRecords: number; bbc: boolean }[] = [
  { name: '10k', reutersRecords: 0, bbc: false },
  { name: '65k', reutersRecords: 9_000, bbc: true },
  { name: 'full', reutersRecords: Number.POSITIVE_INFINITY, bbc: true },
];

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

/** A corpus folder for one size: copies of the shared files, Reuters cut to its first records. */
async function sizeFolder(root: string, size: (typeof SIZES)[number]): Promise<string> {
  const folder = join(root, `size-${size.name}`);
  await mkdir(folder, { recursive: true });
  const copy = async (file: string, name: string, records = Number.POSITIVE_INFINITY) => {
    const lines = (await readFile(join(SHARED_DATA, file), 'utf8')).split('\n').filter((line) => line !== '');
    await writeFile(join(folder, name), `${lines.slice(0, records).join('\n')}\n`);
  };
  await copy('newsqa/articles.jsonl', '1-newsqa.jsonl');
  if (size.bbc) await copy('bbc/bbc.jsonl', '2-bbc.jsonl');
  if (size.reutersRecords > 0)
    await copy('reuters/reuters21578.jsonl', '3-reuters.jsonl', size.reutersRecords);
  return folder;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * A fresh start (read, analyse, index; the cache off, so nothing is persisted) and a start from the
 * persisted index at each corpus size, in wall and CPU time, so the growth with corpus size shows.
 * Returns report lines.
 */
export async function startsBySize(root: string, start: Start): Promise<string[]> {
  const rows: string[] = [];
  for (const size of SIZES) {
    const folder = await sizeFolder(root, size);
    // Without a cache: nothing persisted, the fresh start's own cost only.
    const fresh = await measured(() => start({ corpusPath: folder, cache: new IndexCache({ dir: '' }) }));
    fresh.value.engine.close();
    const cache = new IndexCache({ dir: join(root, `cache-${size.name}`) });
    const persisting = await measured(() => start({ corpusPath: folder, cache }));
    persisting.value.engine.close();
    if (!persisting.value.savedTo)
      throw new Error(`${size.name}: not persisted: ${persisting.value.saveError}`);
    const warm = await measured(() => start({ corpusPath: folder, cache }));
    warm.value.engine.close();
    if (warm.value.from !== 'cache') throw new Error(`${size.name}: expected a cache hit`);
    const passages = warm.value.engine.passageCount;
    process.stderr.write(`bench:reload: size ${size.name} (${passages} passages) measured\n`);
    rows.push(
      `| ${size.name} | ${passages.toLocaleString('en')} | ${seconds(fresh.cost.wallMs)} / ${seconds(fresh.cost.cpuMs)} | ` +
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
