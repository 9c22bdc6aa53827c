import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { Engine, type FittingCandidate } from '../../src/search/engine.ts';

let engine: Engine;
beforeAll(async () => {
  engine = Engine.build(await loadCorpus(new URL('../../corpus/', import.meta.url).pathname));
});

const TELEGRAPH = 'calais-mayor-threatens-to-open-borders';
const RENEWS = 'calais-mayor-renews-border-threat';
const candidate = (candidates: FittingCandidate[], opening: string) =>
  candidates.find((c) => c.passage.startsWith(opening))!;

// Issue 10: a passage that answers through a pronoun or a continued quote is found through the
// paragraphs before it that name the speaker (`speakerBefore`, a ranking feature).
describe('the speaker named before a quoted passage', () => {
  it('GIVEN Madeleine Darneux named three paragraphs before her words about her dog THEN those words carry her name', () => {
    const candidates = engine.candidatesForFitting('What sort of dog does Madeleine Darneux keep?');
    const dog = candidate(candidates, '"I have a guard dog who barks very loud');
    expect(dog.article).toBe(TELEGRAPH);
    // "Madeleine" and "Darneux" are rare in the seed articles: most of the question's weight.
    expect(dog.features.speakerBefore).toBeGreaterThan(0.4);
    // The paragraph naming her neither speaks through a pronoun nor continues a quote.
    const named = candidate(candidates, 'Madeleine Darneux, 39, said');
    expect(named.features.speakerBefore).toBe(0);
  });

  it('GIVEN "He said:" two paragraphs after the mayor of Teteghem is named THEN the mayor and Teteghem count for it', () => {
    const candidates = engine.candidatesForFitting(
      'What did the Teteghem mayor say about who owns the cars?',
    );
    const owners = candidate(candidates, 'He said: “[The] cars are English');
    expect(owners.article).toBe(RENEWS);
    expect(owners.features.speakerBefore).toBeGreaterThan(0.3);
    expect(owners.features.coverage).toBeLessThan(0.3);
  });
});
