import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { finish } from '../../src/event-loop.ts';
import { analyze, tokenize, WordCache } from '../../src/search/analyze.ts';
import { answerTypeOf } from '../../src/search/answer-type.ts';
import type { Located } from '../../src/search/corpus-lookup.ts';
import {
  type Asked,
  type Candidate,
  type FeatureSource,
  measureLayout,
} from '../../src/search/passage-features.ts';
import { linear, RANK_FEATURES, RANKING_MODEL, type RankFeature } from '../../src/search/ranking-model.ts';

let passages: Located[];
beforeAll(async () => {
  const corpus = await loadCorpus(new URL('../../corpus/', import.meta.url).pathname);
  passages = corpus.articles.flatMap((article) => article.passages.map((passage) => ({ article, passage })));
});

const words = WordCache.forQuestions();
const source: FeatureSource = {
  model: RANKING_MODEL,
  words,
  fuzzyCoverage: 0.5,
  passages: 100,
  idf: () => 1,
  df: () => 1,
  has: () => true,
  located: () => undefined,
  tokens: (passage) => tokenize(passage.text, words),
};

/** Every bundled passage as a candidate of the question, with made-up first-pass scores. */
function candidatesFor(question: string): { candidates: Candidate[]; asked: Asked } {
  const terms = [...new Set(analyze(question, words))];
  const asked: Asked = {
    terms,
    type: answerTypeOf(question),
    termWeights: new Map(terms.map((term) => [term, 1])),
    totalWeight: terms.length,
    speaksOfAsker: false,
    focus: new Set(),
    counted: undefined,
    isKnown: () => false,
    pairs: new Set(),
  };
  const candidates = passages.map((located, i): Candidate => {
    const present = new Set(analyze(located.passage.text, words));
    const features = Object.fromEntries(RANK_FEATURES.map((name) => [name, 0])) as Record<
      RankFeature,
      number
    >;
    features.coverage = terms.filter((term) => present.has(term)).length / terms.length;
    features.passage = ((i * 7) % 11) / 11;
    return {
      located,
      score: linear(RANKING_MODEL.ranking, features),
      matchedTerms: new Map(terms.filter((term) => present.has(term)).map((term) => [term, 1])),
      inPassage: new Set(),
      articleTerms: new Set(),
      tokens: undefined,
      features,
      hitRank: i,
      articleRank: null,
      confidence: 0,
    };
  });
  return { candidates, asked };
}

// Measuring every candidate (for fitting) measures `proximity` too, which the shipped model weighs 0.
const summary = (candidates: Candidate[]) =>
  candidates.map((c) => ({
    id: c.located.passage.id,
    score: c.score,
    features: { ...c.features, proximity: 0 },
  }));

// `measureLayout` leaves out the layout, or the language analysis, of a candidate that cannot reach the
// places wanted even with it: the places wanted must come out exactly as when every candidate is measured in full.
describe('the layout measured only where it can change the places wanted', () => {
  for (const question of [
    'Who threatened the mayor of Teteghem?',
    'When did the mayor of Calais threaten to open the border?',
  ]) {
    it(`GIVEN "${question}" THEN the first places are those of every candidate measured in full`, () => {
      expect(passages.length).toBeGreaterThan(10);
      const wanted = 3;
      const bounded = candidatesFor(question);
      const measureTheRest = finish(measureLayout(source, bounded.candidates, bounded.asked, wanted));
      const full = candidatesFor(question);
      finish(measureLayout(source, full.candidates, full.asked, Number.POSITIVE_INFINITY));
      expect(summary(bounded.candidates.slice(0, wanted))).toEqual(summary(full.candidates.slice(0, wanted)));
      // The bound did leave some analysis out, so this compares two different paths.
      const byId = new Map(full.candidates.map((c) => [c.located.passage.id, c]));
      const leftOut = bounded.candidates.filter(
        (c) =>
          JSON.stringify({ ...c.features, proximity: 0 }) !==
          JSON.stringify({ ...byId.get(c.located.passage.id)!.features, proximity: 0 }),
      );
      expect(leftOut.length).toBeGreaterThan(0);
      for (const c of leftOut) expect(c.score).toBeLessThan(full.candidates[wanted - 1]!.score);
      // Measured afterwards, the rest come out in the order measuring every candidate gives.
      finish(measureTheRest());
      expect(summary(bounded.candidates)).toEqual(summary(full.candidates));
    });
  }
});
