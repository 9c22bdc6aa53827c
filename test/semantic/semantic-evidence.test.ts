import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Corpus } from '../../src/corpus/article.ts';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { firstWords, type SemanticCandidate, SemanticSignals } from '../../src/semantic/semantic-evidence.ts';
import { SentenceEncoder } from '../../src/semantic/sentence-encoder.ts';
import type { WordVectors } from '../../src/semantic/word-vectors.ts';
import { openWordVectors } from '../../src/semantic/word-vectors-store.ts';

let dir: string;
let corpus: Corpus;
let encoder: SentenceEncoder;
let wordVectors: WordVectors;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'newsdesk-semantic-'));
  corpus = await loadCorpus(new URL('../../corpus/', import.meta.url).pathname);
  [encoder, { vectors: wordVectors }] = await Promise.all([
    SentenceEncoder.load(),
    openWordVectors({ dir, corpus }),
  ]);
}, 120_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

/** The seed passage starting with `opening`, as the engine would hand it over. */
function candidate(opening: string): SemanticCandidate {
  for (const article of corpus.articles) {
    const passage = article.passages.find((p) => p.text.startsWith(opening));
    if (passage) return { passage: passage.text, headline: article.title };
  }
  throw new Error(`no passage of corpus/ starts with "${opening}"`);
}

describe('SemanticSignals', () => {
  const question = 'what did the Calais mayor threaten to do?';

  it("scores each candidate in order: the Calais mayor's threat above a Home Office statement, by every signal", async () => {
    const answering = candidate('The Mayor of Calais has said she will renewed her threat');
    const unrelated = candidate('The spokesman pointed out how much the UK had provided');
    const signals = new SemanticSignals({ encoder, wordVectors });
    const [near, far] = await signals.evidence(question, [answering, unrelated]);
    for (const name of ['passageCosine', 'glovePassageCosine', 'gloveAlignment'] as const) {
      expect(near![name], name).toBeGreaterThan(far![name]!);
    }
    expect(near!.headlineCosine).toBeGreaterThan(0);
    expect(near!.gloveHeadlineCosine).toBeGreaterThan(0);
  });

  it('gives the same evidence for a candidate seen before (from its cache) as the first time', async () => {
    const signals = new SemanticSignals({ encoder, wordVectors });
    const shown = [
      candidate('British traffickers who were smuggling migrants'),
      candidate('Local police have advised'),
    ];
    const first = await signals.evidence(question, shown);
    const again = await signals.evidence(question, [...shown].reverse());
    expect(again.reverse()).toEqual(first);
  });

  it('gives only the signals of the models it was given', async () => {
    const shown = [candidate('Local police have advised')];
    const [gloveOnly] = await new SemanticSignals({ wordVectors }).evidence(question, shown);
    expect(Object.keys(gloveOnly!).sort()).toEqual([
      'gloveAlignment',
      'gloveHeadlineCosine',
      'glovePassageCosine',
    ]);
    const [encoderOnly] = await new SemanticSignals({ encoder }).evidence(question, shown);
    expect(Object.keys(encoderOnly!).sort()).toEqual(['headlineCosine', 'passageCosine']);
    expect(await new SemanticSignals({ encoder, wordVectors }).evidence(question, [])).toEqual([]);
  });

  it("reads at most `encoderWords` of a passage, cut at a word's end", () => {
    expect(firstWords('one two  three four', 2)).toBe('one two');
    expect(firstWords('one two', 5)).toBe('one two');
  });
});
