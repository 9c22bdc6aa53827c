import { readFileSync } from 'node:fs';

/**
 * How near in meaning two words are, by their GloVe vectors (unit length, so the dot product is the
 * cosine). Words are looked up lower-cased as a text spells them; a word without a vector is near
 * nothing.
 */
export class WordSimilarity {
  readonly dimensions: number;
  readonly #index: Map<string, number>;
  readonly #vectors: Float32Array;

  constructor(words: readonly string[], vectors: Float32Array, dimensions: number) {
    if (vectors.length !== words.length * dimensions) {
      throw new Error(`word vectors: ${words.length} words need ${words.length * dimensions} numbers`);
    }
    this.dimensions = dimensions;
    this.#index = new Map(words.map((word, i) => [word, i]));
    this.#vectors = vectors;
    for (let i = 0; i < words.length; i++) {
      const v = vectors.subarray(i * dimensions, (i + 1) * dimensions);
      let norm = 0;
      for (const x of v) norm += x * x;
      norm = Math.sqrt(norm);
      if (norm > 0) for (let j = 0; j < dimensions; j++) v[j]! /= norm;
    }
  }

  /** The word's unit vector (a view: do not change it), or undefined. */
  vector(word: string): Float32Array | undefined {
    const i = this.#index.get(word.toLowerCase());
    return i === undefined
      ? undefined
      : this.#vectors.subarray(i * this.dimensions, (i + 1) * this.dimensions);
  }

  get size(): number {
    return this.#index.size;
  }
}

/** The cosine of two unit vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** Reads `PREFIX.words` (one a line) and `PREFIX.f32` (float32 little-endian, 100 a word). */
export function readWordSimilarity(prefix: string, dimensions = 100): WordSimilarity {
  const words = readFileSync(`${prefix}.words`, 'utf8').split('\n');
  const bytes = readFileSync(`${prefix}.f32`);
  const vectors = new Float32Array(bytes.byteLength / 4);
  Buffer.from(vectors.buffer).set(bytes);
  return new WordSimilarity(words, vectors, dimensions);
}
