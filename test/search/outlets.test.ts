import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { Engine } from '../../src/search/engine.ts';
import { publisherKey } from '../../src/search/outlets.ts';
import { DATED_CORPUS } from '../support/temp-corpus.ts';

let engine: Engine;
beforeAll(async () => {
  engine = Engine.build(await loadCorpus(DATED_CORPUS));
});

const publishersOf = (citations: readonly { article: string }[]) =>
  new Set(citations.map((result) => engine.article(result.article)?.publisher ?? null));

describe('GIVEN the dated corpus, whose strike and sale are reported by several outlets', () => {
  it('its outlets are its publishers, most articles first; names are matched case, accents and spacing aside', () => {
    expect(engine.outlets().map((outlet) => [outlet.name, outlet.articles])).toEqual([
      ['Coastal Courier', 3],
      ['Harbour Gazette', 3],
      ['Wire', 2],
      ['Channel Notes', 1],
    ]);
    expect(engine.outlet('  harbour   GAZETTE ')?.name).toBe('Harbour Gazette');
    expect(engine.outlet('Daily Planet')).toBeUndefined();
    expect(engine.outlet('')).toBeUndefined();
    expect(publisherKey('Coastal  Courier')).toBe(publisherKey('coastal courier'));
    expect(engine.suggestOutlets('cou').map((outlet) => outlet.name)).toEqual(['Coastal Courier']);
  });

  it('WHEN an answer is limited to outlets THEN every passage is theirs, and paging stays within them', () => {
    const everyone = engine.answer('Gravelines dock strike', { limit: 10 });
    expect(publishersOf(everyone.results).size).toBeGreaterThan(2);
    const gazette = engine.answer('Gravelines dock strike', { limit: 10, publishers: ['harbour gazette'] });
    expect(gazette.results.length).toBeGreaterThan(0);
    expect(publishersOf(gazette.results)).toEqual(new Set(['Harbour Gazette']));
    const two = engine.answer('Gravelines dock strike', {
      limit: 10,
      publishers: ['Harbour Gazette', 'Wire'],
    });
    expect([...publishersOf(two.results)].sort()).toEqual(['Harbour Gazette', 'Wire']);
    const second = engine.answer('Gravelines dock strike', { limit: 1, offset: 1, publishers: ['Wire'] });
    expect(second.results).toEqual([]);
    // An outlet the corpus lacks matches nothing, rather than everything.
    expect(engine.answer('Gravelines dock strike', { publishers: ['Daily Planet'] }).results).toEqual([]);
    // The answer cache keeps scopes apart.
    expect(engine.answer('Gravelines dock strike', { limit: 10 }).results).toEqual(everyone.results);
  });
});
