import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { Engine, type FittingCandidate, type Pool } from '../../src/search/engine.ts';

let engine: Engine;
beforeAll(async () => {
  engine = Engine.build(await loadCorpus(new URL('../../corpus/', import.meta.url).pathname));
});

const inPool = (pool: Pool) => (c: FittingCandidate) =>
  c.hitRank < pool.candidates || (c.articleRank !== null && c.articleRank < pool.articleCandidates);

// `npm run fit-ranking` measures candidates from a wide pool once and tries narrower pools by filtering
// them on their ranks: that is only sound if a narrower pool is exactly that filter.
describe('the candidate pool the ranking re-ranks', () => {
  it('GIVEN a narrow and a wide pool THEN the narrow pool is the wide one filtered by MiniSearch rank and article rank', () => {
    const question = 'Who threatened the mayor of Teteghem with a gun?';
    const narrow: Pool = { candidates: 3, articleCandidates: 1 };
    const wide = engine.candidatesForFitting(question, { candidates: 20, articleCandidates: 3 });
    const asked = engine.candidatesForFitting(question, narrow);
    expect(wide.length).toBeGreaterThan(asked.length);
    const byCitation = (list: FittingCandidate[]) =>
      Object.fromEntries(list.map((c) => [c.citation, c.features]));
    expect(byCitation(asked)).toEqual(byCitation(wide.filter(inPool(narrow))));
    // The best-scoring passages by MiniSearch are in every pool, whatever their article.
    expect(asked.filter((c) => c.hitRank < 3)).toHaveLength(3);
  });
});
