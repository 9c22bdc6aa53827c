import { describe, expect, it } from 'vitest';
import type { Corpus } from '../../../src/corpus/article.ts';
import { loadCorpus, makeCorpus } from '../../../src/corpus/load-corpus.ts';
import {
  decodeCorpusSnapshot,
  encodeCorpusSnapshot,
  SnapshotFormatError,
} from '../../../src/search/index-cache/corpus-snapshot.ts';
import { BUNDLED_CORPUS, DATED_CORPUS } from '../../support/temp-corpus.ts';

const BBC = new URL('../../../../shared/data/bbc/bbc.jsonl', import.meta.url).pathname;

function roundTrip(corpus: Corpus): Corpus {
  const chunks = encodeCorpusSnapshot(corpus);
  if (chunks === undefined) throw new Error('not encoded');
  return decodeCorpusSnapshot(Buffer.concat(chunks));
}

describe('corpus snapshot', () => {
  it('restores real corpora exactly as the loader read them: articles, passages, sources, skipped names', async () => {
    for (const path of [BBC, BUNDLED_CORPUS, DATED_CORPUS]) {
      const corpus = await loadCorpus(path);
      expect(roundTrip(corpus)).toStrictEqual(corpus);
    }
  });

  it('keeps split paragraphs, odd sources and text outside ASCII exactly', () => {
    const corpus = makeCorpus([
      {
        id: 'a:b',
        source: 'data.jsonl:007',
        title: 'Téteghem “quoted” 🎉',
        publisher: null,
        url: 'https://example.com/a#b',
        published: '2024-05-14',
        author: null,
        language: 'fr',
        passages: [
          { id: 'a:b#1', articleId: 'a:b', paragraph: 1, index: 0, text: 'Première partie. 🎉' },
          { id: 'a:b#1.2', articleId: 'a:b', paragraph: 1, index: 1, text: 'Seconde partie.' },
          { id: 'a:b#3', articleId: 'a:b', paragraph: 3, index: 2, text: '' },
        ],
      },
      {
        id: 'c',
        source: 'corpus/c.md:12',
        title: 'C',
        publisher: 'P',
        url: null,
        published: null,
        author: 'A',
        language: null,
        passages: [{ id: 'c#2', articleId: 'c', paragraph: 2, index: 0, text: 'x' }],
      },
    ]);
    expect(roundTrip(corpus)).toStrictEqual({ ...corpus, skipped: [] });
  });

  it('keeps text that Latin-1 holds (ü, ÿ, no “curly” quotes) exactly, in one byte a character', () => {
    const text = 'Bundesbank, Zürich: growth üside ÿ\u0000 plain';
    const corpus = makeCorpus([
      {
        id: 'r',
        source: 'reuters.jsonl:1',
        title: 'Zürich',
        publisher: null,
        url: null,
        published: null,
        author: null,
        language: null,
        passages: [{ id: 'r#1', articleId: 'r', paragraph: 1, index: 0, text }],
      },
    ]);
    const chunks = encodeCorpusSnapshot(corpus) ?? [];
    expect(chunks.at(-1)?.byteLength).toBe(text.length);
    expect(roundTrip(corpus)).toStrictEqual({ ...corpus, skipped: [] });
  });

  it('keeps no corpus it could not restore exactly: ids of another form, a lone surrogate', () => {
    const article = {
      id: 'a',
      source: 'a.md',
      title: 'A',
      publisher: null,
      url: null,
      published: null,
      author: null,
      language: null,
    };
    const withPassage = (id: string, text: string) =>
      makeCorpus([{ ...article, passages: [{ id, articleId: 'a', paragraph: 1, index: 0, text }] }]);
    expect(encodeCorpusSnapshot(withPassage('a#1', 'fine'))).toBeDefined();
    expect(encodeCorpusSnapshot(withPassage('a-1', 'fine'))).toBeUndefined();
    expect(encodeCorpusSnapshot(withPassage('a#1', 'lone \ud800 surrogate'))).toBeUndefined();
  });

  it('refuses bytes it did not write, truncated or of another layout, with a SnapshotFormatError', async () => {
    const bytes = Buffer.concat(encodeCorpusSnapshot(await loadCorpus(BUNDLED_CORPUS)) ?? []);
    for (const bad of [
      bytes.subarray(0, 6),
      bytes.subarray(0, bytes.length - 1),
      Buffer.from('{}{}{}{}{}'),
    ]) {
      expect(() => decodeCorpusSnapshot(bad)).toThrow(SnapshotFormatError);
    }
  });
});
