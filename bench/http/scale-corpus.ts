import { join } from 'node:path';
import type { Corpus } from '../../src/corpus/article.ts';
import { loadCorpus, makeCorpus } from '../../src/corpus/load-corpus.ts';

/** `../shared/data`, beside every checkout and in CI. */
export const SHARED_DATA = join(import.meta.dirname, '..', '..', '..', 'shared', 'data');

/** The three JSON Lines files that make the ~24,000-article scale corpus (their ids are distinct). */
export const SCALE_FILES = ['newsqa/articles.jsonl', 'reuters/reuters21578.jsonl', 'bbc/bbc.jsonl'];

/** NewsQA + Reuters + BBC as one corpus, loaded with the core's own loader. */
export async function loadScaleCorpus(): Promise<Corpus> {
  const parts = await Promise.all(SCALE_FILES.map((file) => loadCorpus(join(SHARED_DATA, file))));
  return makeCorpus(parts.flatMap((part) => part.articles));
}
