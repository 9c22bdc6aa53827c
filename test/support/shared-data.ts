// `../shared` sits beside a checkout here and in CI, never in a user's clone: the NewsQA, Reuters and
// BBC data sets (too large, and not ours to copy into the repository). Tests that read them carry the
// tag `shared-data` (`vitest.config.ts`): skipped where `../shared` is missing, listed in one line at
// the end of the run, and never skipped in CI, where a missing `../shared` fails them.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SHARED_DIR = fileURLToPath(new URL('../../../shared/', import.meta.url));

/** Every file of `../shared/data` a test reads. */
export const SHARED_DATA = {
  newsqaArticles: 'data/newsqa/articles.jsonl',
  newsqaQuestions: 'data/newsqa/questions.jsonl',
  reuters: 'data/reuters/reuters21578.jsonl',
  bbc: 'data/bbc/bbc.jsonl',
} as const;

/** The absolute path of a data set of `../shared`. */
export function sharedData(name: keyof typeof SHARED_DATA): string {
  return SHARED_DIR + SHARED_DATA[name];
}

export const sharedDataPresent = existsSync(`${SHARED_DIR}data`);

/** CI as its runners say it (`CI=true`; some say `1`). */
export const inCi = !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());
