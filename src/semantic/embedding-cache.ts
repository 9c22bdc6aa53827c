/**
 * The embeddings of the texts seen most recently: the same passages and headlines come up again for
 * related questions, and a cached one costs nothing. Bounded by count (512 numbers a text: 2 KB).
 */
export class EmbeddingCache {
  readonly #limit: number;
  readonly #entries = new Map<string, Float32Array>();

  constructor(limit: number) {
    this.#limit = Math.max(0, Math.trunc(limit));
  }

  get(text: string): Float32Array | undefined {
    const vector = this.#entries.get(text);
    if (vector !== undefined) {
      // Most recently used last: a Map keeps insertion order.
      this.#entries.delete(text);
      this.#entries.set(text, vector);
    }
    return vector;
  }

  set(text: string, vector: Float32Array): void {
    if (this.#limit === 0) return;
    this.#entries.delete(text);
    this.#entries.set(text, vector);
    if (this.#entries.size > this.#limit) this.#entries.delete(this.#entries.keys().next().value!);
  }

  get size(): number {
    return this.#entries.size;
  }
}
