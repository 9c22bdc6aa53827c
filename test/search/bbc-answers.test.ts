// @module-tag shared-data (reads ../shared: skipped in a clone without it, run in CI)
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { Engine } from '../../src/search/engine.ts';
import { sharedData } from '../support/shared-data.ts';

// The BBC News articles of ../shared: 2,225 articles the engine was not tuned on.
const BBC = sharedData('bbc');

let engine: Engine;
beforeAll(async () => {
  engine = Engine.build(await loadCorpus(BBC));
}, 120_000);

describe('answers from the BBC articles', () => {
  it('quotes the sentence that answers, not the one repeating the question: Ferguson called Wenger "a disgrace"', () => {
    const [best] = engine.answer('What did Ferguson call Wenger?').results;
    expect(best?.article).toBe('bbc-sport-235');
    expect(best?.quote).toContain('disgrace');
  });
});
