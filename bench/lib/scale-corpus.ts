import { copyFile, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** `../shared/data`, beside every checkout and in CI. */
export const SHARED_DATA = join(import.meta.dirname, '..', '..', '..', 'shared', 'data');

/** The repository's small bundled corpus (three articles). */
export const BUNDLED_CORPUS = join(import.meta.dirname, '..', '..', 'corpus');

/** The three JSON Lines files that make the ~24,000-article scale corpus (their ids are distinct). */
export const SCALE_FILES = ['newsqa/articles.jsonl', 'reuters/reuters21578.jsonl', 'bbc/bbc.jsonl'];

/**
 * NewsQA + Reuters + BBC as one corpus folder, the way the bot reads CORPUS_PATH: `corpus/` in `root`
 * (a new temporary folder unless given), holding copies of the three files (28 MB), numbered so that
 * they load in this order. Copies, not links: the loader refuses links leading out of the corpus
 * folder (issue 14), which had left `bench:reload` and `bench:http` failing at their first start.
 * Returns the folder.
 */
export async function scaleCorpusFolder(root?: string): Promise<string> {
  const folder = join(root ?? (await mkdtemp(join(tmpdir(), 'newsdesk-bench-'))), 'corpus');
  await mkdir(folder);
  for (const [i, file] of SCALE_FILES.entries()) {
    await copyFile(join(SHARED_DATA, file), join(folder, `${i + 1}-${basename(file)}`));
  }
  return folder;
}
