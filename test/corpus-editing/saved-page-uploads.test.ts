import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Corpus } from '../../src/corpus/article.ts';
import { corpusLimits, DEFAULT_CORPUS_LIMITS, setCorpusLimits } from '../../src/corpus/corpus-limits.ts';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { CorpusStore, CorpusStoreError } from '../../src/corpus-editing/corpus-store.ts';
import { nestedPage } from '../support/nested-page.ts';
import { copyOfBundledCorpus } from '../support/temp-corpus.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

let folder: string;
let cleanup: () => Promise<void>;
let corpus: Corpus;
let store: CorpusStore;

beforeEach(async () => {
  ({ corpus: folder, cleanup } = await copyOfBundledCorpus());
  corpus = await loadCorpus(folder);
  store = new CorpusStore({ folder });
});
afterEach(async () => {
  setCorpusLimits(DEFAULT_CORPUS_LIMITS);
  await cleanup();
});

async function refusal(promise: Promise<unknown>): Promise<CorpusStoreError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CorpusStoreError);
  return error as CorpusStoreError;
}

describe('GIVEN a saved page uploaded with /corpus add', () => {
  it('WHEN it is plain text named x.html THEN it is refused in plain words, not with the generic apology', async () => {
    const plain = await refusal(
      store.prepare('x.html', bytes('Just a note.\nIt is plain text, not a web page.\n'), corpus),
    );
    expect(plain.code).toBe('invalid-article');
    expect(plain.message).toMatch(/^The article was refused:\n/);
    expect(plain.message).toContain('x.html:1: the page holds no article: the page is plain text, not HTML');
  });

  it('WHEN it nests 1,500 divs THEN it is refused for its depth at once', async () => {
    const started = performance.now();
    const deep = await refusal(store.prepare('deep.html', bytes(nestedPage(1500)), corpus));
    expect(deep.message).toContain(
      'deep.html:1: the page was not read: The page nests its elements more than 128 deep',
    );
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('WHEN it is within the bounds but takes longer than the time limit THEN its reading is ended and this thread kept answering', async () => {
    setCorpusLimits({
      ...corpusLimits(),
      page: { ...corpusLimits().page, maxDepth: 1000 },
      extractTimeLimitMs: 1_000,
    });
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 50);
    const started = performance.now();
    const slow = await refusal(store.prepare('slow.html', bytes(nestedPage(900)), corpus));
    clearInterval(ticking);
    expect(slow.message).toContain(
      'slow.html:1: the page was not read: Reading the page took longer than 1 s; it was given up (EXTRACT_TIME_LIMIT_MS).',
    );
    expect(performance.now() - started).toBeLessThan(8_000);
    expect(ticks).toBeGreaterThan(5);
  });
});
