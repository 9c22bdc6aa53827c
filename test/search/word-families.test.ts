import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { analyze } from '../../src/search/analyze.ts';
import { Engine } from '../../src/search/engine.ts';

describe('word families', () => {
  it.each([
    ['threaten', 'threat'],
    ['threatened', 'threats'],
    ['rebellion', 'rebels'],
    ['resignation', 'resigned'],
    ['invasion', 'invaded'],
    ['death', 'died'],
  ])('GIVEN "%s" and "%s" THEN they are one term', (a, b) => {
    expect(analyze(a)).toEqual(analyze(b));
  });

  it('keeps apart words of one root whose news senses differ', () => {
    expect(analyze('trial')).not.toEqual(analyze('try'));
    expect(analyze('flight')).not.toEqual(analyze('fly'));
    expect(analyze('sales')).not.toEqual(analyze('sell'));
  });
});

describe('what did the Calais mayor threaten to do?', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = Engine.build(await loadCorpus(new URL('../../corpus/', import.meta.url).pathname));
  });

  it('is answered first from the Calais reports of her threat, not from the Teteghem mayor threatened with a gun', () => {
    const answer = engine.answer('what did the Calais mayor threaten to do?');
    expect(answer.assurance).not.toBe('none');
    expect(answer.results[0]?.article).toBe('calais-mayor-renews-border-threat');
    expect(answer.results[0]?.quote).toContain('threat to open French borders');
  });
});
