import { cosine } from './cosine.ts';
import { EmbeddingCache } from './embedding-cache.ts';
import type { SentenceEncoder } from './sentence-encoder.ts';
import { SentenceVectors } from './sentence-vectors.ts';
import type { WordVectors } from './word-vectors.ts';

/** One candidate answer as the engine found it: the passage's text and its article's headline. */
export interface SemanticCandidate {
  passage: string;
  headline: string;
}

/**
 * How near a candidate's meaning is to the question's. Cosines are in [-1, 1]; each group is present
 * only when its model is loaded.
 */
export interface SemanticEvidence {
  /** Universal Sentence Encoder lite: question against the passage (its first `encoderWords` words). */
  passageCosine?: number;
  /** Universal Sentence Encoder lite: question against the article's headline. */
  headlineCosine?: number;
  /** GloVe, idf-weighted mean vectors: question against the passage. */
  glovePassageCosine?: number;
  /** GloVe, idf-weighted mean vectors: question against the headline. */
  gloveHeadlineCosine?: number;
  /** GloVe, word by word: how well the passage's words meet the question's (see `SentenceVectors.alignment`). */
  gloveAlignment?: number;
}

export interface SemanticOptions {
  /** The sentence encoder (`SentenceEncoder.load()`); without it, no `passageCosine` nor `headlineCosine`. */
  encoder?: SentenceEncoder;
  /** The corpus's GloVe vectors (`openWordVectors`); without them, no GloVe signal. */
  wordVectors?: WordVectors;
  /**
   * The sentence encoder reads at most this many words of a passage: its cost grows with length (about
   * 1 ms a word), and a passage's first sentences say what it is about.
   * @default 64
   */
  encoderWords?: number;
  /**
   * Embeddings of this many recent texts are kept, so a passage or headline shown again costs nothing.
   * @default 4096
   */
  cacheSize?: number;
}

/**
 * The semantic signals of a question's candidates, for the ranking and confidence to weigh as features.
 * It computes; it decides nothing. CPU-bound: run it where the engine ranks (an index worker thread),
 * never on the thread that serves Discord (see src/semantic/README.md).
 */
export class SemanticSignals {
  readonly #encoder: SentenceEncoder | undefined;
  readonly #sentences: SentenceVectors | undefined;
  readonly #encoderWords: number;
  readonly #cache: EmbeddingCache;

  constructor(options: SemanticOptions) {
    this.#encoder = options.encoder;
    this.#sentences =
      options.wordVectors === undefined ? undefined : new SentenceVectors(options.wordVectors);
    this.#encoderWords = options.encoderWords ?? 64;
    this.#cache = new EmbeddingCache(options.cacheSize ?? 4096);
  }

  /** One `SemanticEvidence` per candidate, in the candidates' order. */
  async evidence(question: string, candidates: readonly SemanticCandidate[]): Promise<SemanticEvidence[]> {
    const out: SemanticEvidence[] = candidates.map(() => ({}));
    const sentences = this.#sentences;
    if (sentences !== undefined) {
      const asked = sentences.vectorOf(question);
      const headlines = new Map<string, number>();
      candidates.forEach((candidate, i) => {
        let headline = headlines.get(candidate.headline);
        if (headline === undefined) {
          headline = cosine(asked, sentences.vectorOf(candidate.headline));
          headlines.set(candidate.headline, headline);
        }
        Object.assign(out[i]!, {
          glovePassageCosine: cosine(asked, sentences.vectorOf(candidate.passage)),
          gloveHeadlineCosine: headline,
          gloveAlignment: sentences.alignment(question, candidate.passage),
        });
      });
    }
    if (this.#encoder !== undefined) {
      const passages = candidates.map((candidate) => firstWords(candidate.passage, this.#encoderWords));
      const vectors = await this.#embed([question, ...passages, ...candidates.map((c) => c.headline)]);
      const asked = vectors.get(question)!;
      candidates.forEach((candidate, i) => {
        out[i]!.passageCosine = cosine(asked, vectors.get(passages[i]!)!);
        out[i]!.headlineCosine = cosine(asked, vectors.get(candidate.headline)!);
      });
    }
    return out;
  }

  /** Embeddings of the distinct texts, from the cache where it has them, the rest in one call. */
  async #embed(texts: readonly string[]): Promise<Map<string, Float32Array>> {
    const found = new Map<string, Float32Array>();
    const missing: string[] = [];
    for (const text of new Set(texts)) {
      const cached = this.#cache.get(text);
      if (cached === undefined) missing.push(text);
      else found.set(text, cached);
    }
    const embedded = missing.length === 0 ? [] : await this.#encoder!.embed(missing);
    missing.forEach((text, i) => {
      found.set(text, embedded[i]!);
      this.#cache.set(text, embedded[i]!);
    });
    return found;
  }
}

/** The text cut after `limit` words (whitespace-separated), as written. */
export function firstWords(text: string, limit: number): string {
  let count = 0;
  for (const match of text.matchAll(/\S+/g)) {
    if (++count > limit) return text.slice(0, match.index).trimEnd();
  }
  return text;
}
