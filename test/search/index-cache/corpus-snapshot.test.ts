import { describe, expect, it } from 'vitest';
import type { Corpus } from '../../../src/corpus/article.ts';
import { loadCorpus, makeCorpus } from '../../../src/corpus/load-corpus.ts';
import {
  decodeCorpusSnapshot,
  type EncodedSnapshot,
  encodeCorpusSnapshot,
  SnapshotFormatError,
  type SnapshotText,
  textInMemory,
} from '../../../src/search/index-cache/corpus-snapshot.ts';
import { sharedData } from '../../support/shared-data.ts';
import { BUNDLED_CORPUS, DATED_CORPUS } from '../../support/temp-corpus.ts';

const BBC = sharedData('bbc');

function encoded(corpus: Corpus): EncodedSnapshot {
  const snapshot = encodeCorpusSnapshot(corpus);
  if (snapshot === undefined) throw new Error('not encoded');
  return snapshot;
}

function roundTrip(corpus: Corpus): Corpus {
  const { index, text } = encoded(corpus);
  return decodeCorpusSnapshot(Buffer.concat(index), textInMemory(Buffer.concat(text))).corpus;
}

/** The snapshot's text in memory, counting the bytes read from it. */
function countedText(bytes: Uint8Array): SnapshotText & { bytesRead: number } {
  const text = textInMemory(bytes);
  const counted = {
    byteLength: text.byteLength,
    bytesRead: 0,
    read: (position: number, length: number) => {
      counted.bytesRead += length;
      return text.read(position, length);
    },
  };
  return counted;
}

describe('corpus snapshot', () => {
  it('restores real corpora exactly as the loader read them: articles, passages, sources, skipped names', async () => {
    for (const path of [BUNDLED_CORPUS, DATED_CORPUS]) {
      const corpus = await loadCorpus(path);
      expect(roundTrip(corpus)).toStrictEqual(corpus);
    }
  });

  it('restores the BBC articles exactly as the loader read them', { tags: ['shared-data'] }, async () => {
    const corpus = await loadCorpus(BBC);
    expect(roundTrip(corpus)).toStrictEqual(corpus);
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
    expect(Buffer.concat(encoded(corpus).text).byteLength).toBe(text.length);
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
    const { index, text } = encoded(await loadCorpus(BUNDLED_CORPUS));
    const bytes = Buffer.concat(index);
    const textBytes = Buffer.concat(text);
    for (const bad of [
      bytes.subarray(0, 6),
      bytes.subarray(0, bytes.length - 1),
      Buffer.concat([bytes, Buffer.from('x')]),
      Buffer.from('{}{}{}{}{}'),
    ]) {
      expect(() => decodeCorpusSnapshot(bad, textInMemory(textBytes))).toThrow(SnapshotFormatError);
    }
    // Text of another length than the passages' lengths add up to.
    for (const bad of [textBytes.subarray(1), Buffer.concat([textBytes, Buffer.from('x')])]) {
      expect(() => decodeCorpusSnapshot(bytes, textInMemory(bad))).toThrow(SnapshotFormatError);
    }
  });

  it("decodes an article's passages only when they are first read, reading its block of text alone: the same passages as a whole decode", {
    tags: ['shared-data'],
  }, async () => {
    const corpus = await loadCorpus(BBC);
    const { index, text } = encoded(corpus);
    expect(text.length).toBeGreaterThan(100);
    const textBytes = Buffer.concat(text);
    const counted = countedText(textBytes);
    const restored = decodeCorpusSnapshot(Buffer.concat(index), counted);
    expect(restored.passageCounts).toEqual(corpus.articles.map((article) => article.passages.length));
    const { passageIds } = restored;
    expect(Array.from({ length: passageIds.length }, (_, i) => passageIds.at(i))).toEqual(
      corpus.articles.flatMap((article) => article.passages.map((passage) => passage.id)),
    );
    expect([passageIds.at(-1), passageIds.at(passageIds.length), passageIds.at(0.5)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(restored.corpus.articles.map(({ id, title, source }) => ({ id, title, source }))).toEqual(
      corpus.articles.map(({ id, title, source }) => ({ id, title, source })),
    );
    expect(counted.bytesRead).toBe(0);

    const some = [0, 1, 900, corpus.articles.length - 1];
    for (const a of some)
      expect(restored.corpus.articles[a]!.passages).toStrictEqual(corpus.articles[a]!.passages);
    // Each read is one block of whole articles, a few tens of kilobytes, never the whole text.
    expect(counted.bytesRead).toBeGreaterThan(0);
    expect(counted.bytesRead).toBeLessThan(
      Math.max(...text.map((block) => block.byteLength)) * some.length + 1,
    );
    // Read again, an article's passages are the same objects: decoded once.
    expect(restored.corpus.articles[900]!.passages).toBe(restored.corpus.articles[900]!.passages);

    expect(restored.corpus).toStrictEqual(corpus);
    expect(counted.bytesRead).toBe(textBytes.byteLength);
  });

  it('finds a damaged block of text when it is first read, and never gives its text; other blocks still read', {
    tags: ['shared-data'],
  }, async () => {
    const corpus = await loadCorpus(BBC);
    const { index, text } = encoded(corpus);
    const textBytes = Buffer.concat(text);
    // One byte of the third block changed: a letter's case, the same length.
    const at = text[0]!.byteLength + text[1]!.byteLength + 10;
    textBytes[at]! ^= 0x20;
    const restored = decodeCorpusSnapshot(Buffer.concat(index), textInMemory(textBytes)).corpus;
    const refused: number[] = [];
    for (const [a, article] of restored.articles.entries()) {
      try {
        expect(article.passages).toStrictEqual(corpus.articles[a]!.passages);
      } catch (error) {
        expect(error).toBeInstanceOf(SnapshotFormatError);
        expect(String(error)).toContain('damaged');
        refused.push(a);
      }
    }
    // The articles of that one block, refused every time they are read.
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.at(-1)! - refused[0]!).toBe(refused.length - 1);
    expect(() => restored.articles[refused[0]!]!.passages).toThrow(SnapshotFormatError);
  });
});
