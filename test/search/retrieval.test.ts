import { describe, expect, it } from 'vitest';
import { parseRetrievalSettings, RETRIEVAL } from '../../src/search/retrieval.ts';

describe('retrieval settings from the command line', () => {
  it('replaces only the settings given', () => {
    expect(parseRetrievalSettings({ nameBoost: 2, bm25: { k: 1, b: 0.5, d: 0.5 } })).toEqual({
      ...RETRIEVAL,
      nameBoost: 2,
      bm25: { k: 1, b: 0.5, d: 0.5 },
    });
    expect(parseRetrievalSettings({})).toEqual(RETRIEVAL);
  });

  it('refuses a setting it does not know (a model weight, say) or of the wrong kind, naming it', () => {
    expect(() => parseRetrievalSettings({ lead: 1 }, '--retrieval')).toThrow(/^--retrieval: .*\(at lead\)$/);
    expect(() => parseRetrievalSettings({ candidates: 'forty' }, '--retrieval')).toThrow('(at candidates)');
    expect(() => parseRetrievalSettings({ candidates: 2.5 })).toThrow('(at candidates)');
    expect(() => parseRetrievalSettings([1])).toThrow('expected an object of retrieval settings');
  });
});
