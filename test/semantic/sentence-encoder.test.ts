import http from 'node:http';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Corpus } from '../../src/corpus/article.ts';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { cosine } from '../../src/semantic/cosine.ts';
import { SentenceEncoder } from '../../src/semantic/sentence-encoder.ts';
import { blockNetwork, type NetworkBlock } from './no-network.ts';

let block: NetworkBlock;
let encoder: SentenceEncoder;
let corpus: Corpus;

beforeAll(async () => {
  block = blockNetwork();
  encoder = await SentenceEncoder.load();
  corpus = await loadCorpus(new URL('../../corpus/', import.meta.url).pathname);
});

afterAll(() => block.restore());

/** The seed corpus's passage that starts with `opening`. */
function passage(opening: string): string {
  const found = corpus.articles.flatMap((a) => a.passages).find((p) => p.text.startsWith(opening));
  if (!found) throw new Error(`no passage of corpus/ starts with "${opening}"`);
  return found.text;
}

describe('SentenceEncoder', () => {
  it('blocks the network in these tests: a request fails and is recorded', async () => {
    const before = block.attempts.length;
    const failed = await new Promise<Error>((resolve) => {
      try {
        http.get('http://127.0.0.1:9/').on('error', resolve);
      } catch (error) {
        resolve(error as Error);
      }
    });
    expect(failed.message).toMatch(/network blocked/);
    expect(block.attempts.length).toBe(before + 1);
    block.attempts.splice(before);
  });

  it("loads from the weights package's own files with the network unreachable, and never tries it", async () => {
    const [vector] = await encoder.embed(['The mayor was threatened with a gun.']);
    expect(vector).toHaveLength(512);
    expect(block.attempts).toEqual([]);
  });

  it('gives identical vectors for identical text', async () => {
    const text = 'Calais mayor threatens to open the borders';
    const [first] = await encoder.embed([text]);
    const [second] = await encoder.embed([text]);
    expect(Array.from(second!)).toEqual(Array.from(first!));
    // In a batch beside other texts, the same text comes out the same to float precision.
    const [, batched] = await encoder.embed([
      'Something else entirely, longer than the rest of the batch.',
      text,
    ]);
    expect(cosine(first!, batched!)).toBeCloseTo(1, 5);
  });

  it('puts a paraphrase of a seed passage nearer it than an unrelated passage', async () => {
    const paraphrase = 'English gangsters pointed a pistol at the mayor of a town in France';
    const answering = passage('British traffickers who were smuggling migrants');
    const unrelated = passage('The spokesman pointed out how much the UK had provided');
    const [asked, near, far] = await encoder.embed([paraphrase, answering, unrelated]);
    expect(cosine(asked!, near!)).toBeGreaterThan(cosine(asked!, far!) + 0.1);
  });

  it('loads and embeds the same on a worker thread (as an index worker would), offline there too', async () => {
    const texts = ['Who threatened the mayor of Teteghem?'];
    const worker = new Worker(new URL('./encode-in-worker.mjs', import.meta.url), { workerData: { texts } });
    const reply = await new Promise<{ vectors: Float32Array[]; attempts: string[] }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    const [here] = await encoder.embed(texts);
    expect(reply.attempts).toEqual([]);
    expect(cosine(reply.vectors[0]!, here!)).toBeCloseTo(1, 5);
  });
});
