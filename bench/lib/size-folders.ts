import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { countPassages, MIDDLE_SIZE_PASSAGES, prefixWithPassages } from './bench-corpus.ts';
import { SCALE_FILES, SHARED_DATA } from './scale-corpus.ts';

/**
 * The three corpus folders of `npm run bench:reload`, as in `npm run bench`: NewsQA (10k passages),
 * 50k, and all three files, in `root`. Copies, not links: the loader refuses links that lead out of the
 * corpus folder. Made once per root.
 */
export function sizeFolders(root: string): Promise<SizeFolder[]> {
  let folders = made.get(root);
  if (!folders) {
    folders = makeSizeFolders(root);
    made.set(root, folders);
  }
  return folders;
}

export interface SizeFolder {
  name: '10k' | '50k' | 'full';
  folder: string;
}

const made = new Map<string, Promise<SizeFolder[]>>();

async function makeSizeFolders(root: string): Promise<SizeFolder[]> {
  const small = join(root, 'size-10k');
  await mkdir(small);
  await copyFile(join(SHARED_DATA, 'newsqa/articles.jsonl'), join(small, '1-articles.jsonl'));

  // NewsQA, then BBC and Reuters in file order up to 50,000 passages: Reuters' share is a prefix of its lines.
  const middle = join(root, 'size-50k');
  await mkdir(middle);
  const [newsqa, bbc, reuters] = await Promise.all(
    ['newsqa/articles.jsonl', 'bbc/bbc.jsonl', 'reuters/reuters21578.jsonl'].map((file) =>
      loadCorpus(join(SHARED_DATA, file)),
    ),
  );
  const taken = prefixWithPassages(
    [...bbc!.articles, ...reuters!.articles],
    MIDDLE_SIZE_PASSAGES - countPassages(newsqa!.articles),
  );
  const reutersTaken = taken.length - bbc!.articles.length;
  await copyFile(join(SHARED_DATA, 'newsqa/articles.jsonl'), join(middle, '1-articles.jsonl'));
  await copyFile(join(SHARED_DATA, 'bbc/bbc.jsonl'), join(middle, '2-bbc.jsonl'));
  const lines = (await readFile(join(SHARED_DATA, 'reuters/reuters21578.jsonl'), 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '');
  await writeFile(join(middle, '3-reuters.jsonl'), `${lines.slice(0, reutersTaken).join('\n')}\n`);

  // All three, in the order bench:reload merges them.
  const full = join(root, 'size-full');
  await mkdir(full);
  for (const [i, file] of SCALE_FILES.entries())
    await copyFile(join(SHARED_DATA, file), join(full, `${i + 1}-${file.split('/').pop()}`));
  return [
    { name: '10k', folder: small },
    { name: '50k', folder: middle },
    { name: 'full', folder: full },
  ];
}
