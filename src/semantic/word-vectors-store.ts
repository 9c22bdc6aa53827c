import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Corpus } from '../corpus/article.ts';
import { writeFileAtomic } from '../files/atomic-write.ts';
import { gloveJsonPath, gloveSource, readGloveJson } from './glove-json.ts';
import { WordVectors } from './word-vectors.ts';
import { decodeWordVectors, encodeWordVectors, StaleWordVectors } from './word-vectors-file.ts';
import { lookupForms, type Vocabulary, vocabularyOf } from './words.ts';

/** The converted file's name in the cache folder (beside the persisted index, `INDEX_CACHE_DIR`). */
export const WORD_VECTORS_FILE = 'word-vectors.bin';

/**
 * GloVe's most frequent words are kept beside the corpus's own, so that a question's everyday words the
 * corpus never uses still have a meaning ("recipe", "passport" in a small corpus).
 * @default 50_000
 */
export const COMMON_WORDS = 50_000;

export interface WordVectorOptions {
  /** The cache folder; the file is `WORD_VECTORS_FILE` in it. */
  dir: string;
  corpus: Corpus;
  /** The GloVe JSON to convert from (tests point elsewhere only to see a failure). */
  gloveFile?: string;
  commonWords?: number;
}

/** How the vectors were had: the file as it was, its counts redone for a changed corpus, or converted anew. */
export type WordVectorsFrom = 'file' | 'recounted' | 'converted';

export interface OpenedWordVectors {
  vectors: WordVectors;
  file: string;
  from: WordVectorsFrom;
  /** Why the file was not used as it was, when it was not. */
  reason?: string;
  /** Milliseconds spent reading the file, counting the corpus's words, and converting the JSON. */
  ms: { read: number; count: number; convert: number; write: number };
}

/**
 * The GloVe vectors of the words `corpus` uses, from the converted file in `dir`, else converted from
 * the package's JSON once and written there atomically. The file is used as it is when it was made for
 * this corpus version; for another version whose words it all covers, only the passage counts are redone
 * and written; a corpus with a word the file has not seen (nor recorded as lacking) is converted anew.
 * Costs seconds of CPU when it converts (see docs/semantic.md): call it off the serving thread.
 */
export async function openWordVectors(options: WordVectorOptions): Promise<OpenedWordVectors> {
  const file = path.join(options.dir, WORD_VECTORS_FILE);
  const source = gloveSource();
  const ms = { read: 0, count: 0, convert: 0, write: 0 };
  let started = performance.now();
  let stored: WordVectors | undefined;
  let reason: string | undefined;
  try {
    stored = decodeWordVectors(await readFile(file), source);
  } catch (error) {
    reason = error instanceof StaleWordVectors ? error.message : 'no file';
    if (!(error instanceof StaleWordVectors) && (error as NodeJS.ErrnoException).code !== 'ENOENT') {
      reason = `unreadable: ${(error as Error).message}`;
    }
  }
  ms.read = performance.now() - started;
  if (stored?.corpusVersion === options.corpus.version) return { vectors: stored, file, from: 'file', ms };

  started = performance.now();
  const vocabulary = vocabularyOf(corpusTexts(options.corpus));
  ms.count = performance.now() - started;
  let vectors: WordVectors;
  let from: WordVectorsFrom;
  const uncovered = stored === undefined ? undefined : firstUncovered(stored, vocabulary);
  if (stored !== undefined && uncovered === undefined) {
    vectors = stored.withCounts(
      options.corpus.version,
      vocabulary.passages,
      (w) => vocabulary.df.get(w) ?? 0,
    );
    from = 'recounted';
    reason = 'another corpus version, no new word';
  } else {
    if (uncovered !== undefined) reason = `a word it has not seen ("${uncovered}")`;
    started = performance.now();
    vectors = await convert(options, vocabulary);
    ms.convert = performance.now() - started;
    from = 'converted';
  }
  started = performance.now();
  await mkdir(options.dir, { recursive: true });
  await writeFileAtomic(file, encodeWordVectors(vectors, source));
  ms.write = performance.now() - started;
  return { vectors, file, from, ...(reason === undefined ? {} : { reason }), ms };
}

/** A headline and every passage of each article: what the passage counts are over. */
export function* corpusTexts(corpus: Corpus): Iterable<string> {
  for (const article of corpus.articles) {
    yield article.title;
    for (const passage of article.passages) yield passage.text;
  }
}

/** A word of the corpus the file neither has a vector for nor records as lacking, if any. */
function firstUncovered(stored: WordVectors, vocabulary: Vocabulary): string | undefined {
  const lacking = new Set(stored.lacking);
  for (const word of vocabulary.df.keys()) if (!stored.has(word) && !lacking.has(word)) return word;
  return undefined;
}

async function convert(options: WordVectorOptions, vocabulary: Vocabulary): Promise<WordVectors> {
  const commonWords = options.commonWords ?? COMMON_WORDS;
  // A joined word ("mayor's") is looked up by its parts where GloVe lacks it whole: those are wanted too.
  const needed = new Set<string>();
  for (const word of vocabulary.df.keys()) {
    needed.add(word);
    for (const part of lookupForms(word, () => false)) needed.add(part);
  }
  const words: string[] = [];
  const chunks: Float32Array[] = [];
  const { dimensions } = await readGloveJson(
    options.gloveFile ?? gloveJsonPath(),
    (word, rank) => rank < commonWords || needed.has(word),
    (word, _rank, vector) => {
      words.push(word);
      chunks.push(vector);
    },
  );
  const vectors = new Float32Array(words.length * dimensions);
  for (const [i, chunk] of chunks.entries()) vectors.set(chunk, i * dimensions);
  const known = new Set(words);
  return new WordVectors({
    dimensions,
    passages: vocabulary.passages,
    corpusVersion: options.corpus.version,
    words,
    lacking: [...vocabulary.df.keys()].filter((word) => !known.has(word)),
    vectors,
    df: Uint32Array.from(words, (word) => vocabulary.df.get(word) ?? 0),
  });
}
