import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { confidenceFeatures, focusTerms, speaksOfAsker } from '../../src/search/confidence.ts';
import { Engine, type FittingCandidate } from '../../src/search/engine.ts';
import {
  confidenceOf,
  coverageScore,
  linear,
  parseRankingModel,
  RANKING_MODEL,
} from '../../src/search/ranking-model.ts';
import { focusWords } from '../../src/text/entities.ts';

let engine: Engine;
beforeAll(async () => {
  engine = Engine.build(await loadCorpus(new URL('../../corpus/', import.meta.url).pathname));
});

const TETEGHEM = 'teteghem-mayor-threatened-with-gun';

/** The candidate of `question` that is passage `citation` of the seed corpus. */
function candidate(question: string, citation: string): FittingCandidate {
  const found = engine.candidatesForFitting(question).find((c) => c.citation === citation);
  if (!found) throw new Error(`${citation} is no candidate for "${question}"`);
  return found;
}

const score = (c: FittingCandidate) => linear(RANKING_MODEL.ranking, c.features);
const confidence = (c: FittingCandidate) =>
  confidenceOf(
    RANKING_MODEL,
    confidenceFeatures(c.evidence, c.features, coverageScore(RANKING_MODEL.ranking, c.features)),
  );

describe('what the confidence reads of a question and its match', () => {
  it('GIVEN a year the seed articles mention (2014) or not (2022) THEN the year is rare only when unmentioned', () => {
    // "...more migrants died than in the last six months of 2014" is in the Telegraph's report.
    const [mentioned] = engine.candidatesForFitting('How many migrants died in 2014?');
    const [unmentioned] = engine.candidatesForFitting('How many migrants died in 2022?');
    const year = (c: FittingCandidate | undefined) =>
      confidenceFeatures(c!.evidence, c!.features, 0).yearRarity;
    expect(year(mentioned)).toBeLessThan(year(unmentioned));
    expect(year(unmentioned)).toBe(1);
  });

  it("GIVEN a question word the passage's whole article lacks THEN its rarity counts as missing", () => {
    // Passage 2 of the Teteghem report: the mayor, the smugglers, the gun. Cameron is in another seed
    // article, not in this one.
    const answered = candidate('Did smugglers show the mayor of Teteghem a gun?', `${TETEGHEM}#2`);
    const cameron = candidate('Did Cameron show the mayor of Teteghem a gun?', `${TETEGHEM}#2`);
    expect(answered.passage).toContain('They allegedly then showed him a gun');
    expect(confidenceFeatures(answered.evidence, answered.features, 0).articleMissingWeight).toBe(0);
    expect(confidenceFeatures(cameron.evidence, cameron.features, 0).articleMissingWeight).toBeGreaterThan(0);
  });

  it('GIVEN a noun or name of the question its article lacks THEN that counts as its focus missing, a verb does not', () => {
    const cameron = candidate('Did Cameron show the mayor of Teteghem a gun?', `${TETEGHEM}#2`);
    const brandished = candidate(
      'Why did smugglers urge the mayor of Teteghem to stay out of the camp?',
      `${TETEGHEM}#2`,
    );
    const features = (c: FittingCandidate) => confidenceFeatures(c.evidence, c.features, 0);
    expect(features(cameron).focusArticleMissing).toBeGreaterThan(0);
    // "urge" is in another seed report, not this one: a missing word, but not what the question is about.
    expect(features(brandished).articleMissingWeight).toBeGreaterThan(0);
    expect(features(brandished).focusArticleMissing).toBe(0);
  });

  it('takes the nouns, names and numbers of a question as what it is about', () => {
    expect(focusWords('What causes the seasons on Earth?')).toEqual(
      expect.arrayContaining(['seasons', 'Earth']),
    );
    expect(focusWords('Who won the 2014 FIFA World Cup?')).toEqual(['2014', 'FIFA', 'World', 'Cup']);
    expect([...focusTerms('Why did UBS have to take over Credit Suisse?')]).not.toContain('take');
  });

  it('reads the asker in the question, not the country', () => {
    expect(speaksOfAsker('How do I renew my UK passport?')).toBe(true);
    expect(speaksOfAsker('how do you make hummus')).toBe(true);
    expect(speaksOfAsker('What did the mayor tell us about the camp?')).toBe(true);
    expect(speaksOfAsker('Who won the 2020 US presidential election?')).toBe(false);
    expect(speaksOfAsker('When did World War I end?')).toBe(false);
    // Two of the BBC/Reuters set's questions, typed in lower case or about a mine.
    expect(
      speaksOfAsker('how many people were out of work in the us in march according to the household survey'),
    ).toBe(false);
    expect(speaksOfAsker('How much gold did Free State Consolidated mine last year?')).toBe(false);
  });
});

describe('the confidence that the corpus covers a question', () => {
  it('GIVEN a question the seed articles answer THEN its first result is confident enough to be shown', () => {
    const question = 'who threatened the mayor of Teteghem with a gun?';
    const [first] = engine.answer(question).results;
    expect(first?.passage).toContain('threatened a French mayor with a gun');
    const c = candidate(question, first!.citation);
    expect(confidence(c)).toBeGreaterThanOrEqual(RANKING_MODEL.threshold);
  });

  it("GIVEN a question on the seed articles' topic they do not answer THEN its first passage is not confident enough", () => {
    // Teteghem and its mayor are in the reports, "population" in none: the first passage names the
    // town but not what the question is about.
    const question = 'What is the population of Teteghem?';
    const [first] = engine.candidatesForFitting(question).sort((a, b) => score(b) - score(a));
    expect(first?.citation).toBe(`${TETEGHEM}#2`);
    expect(confidenceFeatures(first!.evidence, first!.features, 0).focusUnknownShare).toBeGreaterThan(0);
    expect(confidence(first!)).toBeLessThan(RANKING_MODEL.threshold);
    // Teteghem's article is the closest coverage: shown as such, never as an answer.
    const answer = engine.answer(question);
    expect(answer.assurance).toBe('closest');
    expect(answer.results[0]?.citation).toBe(`${TETEGHEM}#2`);
  });

  it('GIVEN an off-topic question sharing a word with the seed articles THEN no passage of them is shown', () => {
    // "capital" is in no seed article, "Australia" neither: nothing is confident enough.
    for (const question of ['What is the capital city of Australia?', 'How do I renew my passport online?']) {
      expect(engine.answer(question)).toMatchObject({ assurance: 'none', results: [] });
    }
  });
});

describe('the model file', () => {
  it('weighs a confidence feature the file lacks as 0 until refitted, and refuses a weight that is no number', () => {
    const file = JSON.parse(JSON.stringify(RANKING_MODEL)) as {
      confidence: { weights: Record<string, unknown> };
    };
    delete file.confidence.weights.yearRarity;
    expect(parseRankingModel(file).confidence.weights.yearRarity).toBe(0);
    file.confidence.weights.speaksOfAsker = 'high';
    expect(() => parseRankingModel(file, 'model.json')).toThrow(
      /^model\.json: expected .* \(at confidence\.weights\.speaksOfAsker\)$/,
    );
  });

  it('refuses bands out of order: the closest band above the coverage threshold', () => {
    const file = { ...JSON.parse(JSON.stringify(RANKING_MODEL)), closestThreshold: 0.9, threshold: 0.3 };
    expect(() => parseRankingModel(file, 'model.json')).toThrow(/\(at closestThreshold\)$/);
  });
});
