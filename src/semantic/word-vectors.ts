/**
 * Word vectors for the words a corpus uses, with how many of its passages hold each word: what a
 * converted GloVe file (`word-vectors-file.ts`) holds once read.
 */
export class WordVectors {
  readonly dimensions: number;
  /** Passages (and headlines) of the corpus `df` was counted over. */
  readonly passages: number;
  /** The corpus these counts are of (`Corpus.version`). */
  readonly corpusVersion: string;
  /** Every word with a vector, in file order. */
  readonly words: readonly string[];
  /** Words of the corpus GloVe has no vector for: known to be missing, not forgotten. */
  readonly lacking: readonly string[];
  readonly #index: Map<string, number>;
  readonly #vectors: Float32Array;
  readonly #df: Uint32Array;

  constructor(fields: {
    dimensions: number;
    passages: number;
    corpusVersion: string;
    words: readonly string[];
    lacking: readonly string[];
    vectors: Float32Array;
    df: Uint32Array;
  }) {
    const { dimensions, words, vectors, df } = fields;
    if (vectors.length !== words.length * dimensions || df.length !== words.length) {
      throw new Error(`word vectors: ${words.length} words need ${words.length * dimensions} numbers`);
    }
    this.dimensions = dimensions;
    this.passages = fields.passages;
    this.corpusVersion = fields.corpusVersion;
    this.words = words;
    this.lacking = fields.lacking;
    this.#vectors = vectors;
    this.#df = df;
    this.#index = new Map(words.map((word, i) => [word, i]));
  }

  has(word: string): boolean {
    return this.#index.has(word);
  }

  /** The word's vector (a view: do not change it), or undefined. */
  vector(word: string): Float32Array | undefined {
    const i = this.#index.get(word);
    if (i === undefined) return undefined;
    return this.#vectors.subarray(i * this.dimensions, (i + 1) * this.dimensions);
  }

  /** Passages holding the word (0 for a word of GloVe's common words the corpus never uses). */
  df(word: string): number {
    const i = this.#index.get(word);
    return i === undefined ? 0 : this.#df[i]!;
  }

  /** Every vector, word after word, for writing the file. */
  get vectors(): Float32Array {
    return this.#vectors;
  }

  get counts(): Uint32Array {
    return this.#df;
  }

  /** The same vectors with the passage counts of another corpus, whose words they all cover. */
  withCounts(corpusVersion: string, passages: number, df: (word: string) => number): WordVectors {
    return new WordVectors({
      dimensions: this.dimensions,
      passages,
      corpusVersion,
      words: this.words,
      lacking: this.lacking,
      vectors: this.#vectors,
      df: Uint32Array.from(this.words, df),
    });
  }
}
