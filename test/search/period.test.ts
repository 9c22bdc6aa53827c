import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { Engine } from '../../src/search/engine.ts';
import { inPeriod, PeriodError, parsePeriod, periodBound } from '../../src/search/period.ts';
import { DATED_CORPUS } from '../support/temp-corpus.ts';

describe('periods', () => {
  it('reads a year, a month or a date as inclusive first and last days', () => {
    expect([periodBound('since', '2003'), periodBound('until', '2003')]).toEqual([
      '2003-01-01',
      '2003-12-31',
    ]);
    expect([periodBound('since', '2015-08'), periodBound('until', '2015-08')]).toEqual([
      '2015-08-01',
      '2015-08-31',
    ]);
    expect(periodBound('until', '2004-02')).toBe('2004-02-29');
    expect(periodBound('until', ' 2015-08-01 ')).toBe('2015-08-01');
  });

  it('refuses anything else in plain words naming the option', () => {
    expect(() => periodBound('since', 'last week')).toThrow(
      new PeriodError(
        "since must be a year (2003), a month (2015-08) or a date (2015-08-01); got 'last week'",
      ),
    );
    for (const bad of ['2015-13', '2015-02-30', '15', '2015/08', '2015-08-01T10:00'])
      expect(() => periodBound('until', bad), bad).toThrow(/^until must be a year/);
    expect(() => parsePeriod({ since: '2016', until: '2015' })).toThrow('since (2016) is after until (2015)');
    expect(parsePeriod({ since: '', until: null })).toBeUndefined();
  });

  it('compares the day the source states, whatever its time of day or zone; undated is never in', () => {
    const august1 = { since: '2015-08-01', until: '2015-08-01' };
    expect(inPeriod('2015-08-01T23:30:00-05:00', august1)).toBe(true);
    expect(inPeriod('2015-08-01T00:00:00+14:00', august1)).toBe(true);
    expect(inPeriod('2015-08-02T00:30:00+02:00', august1)).toBe(false);
    expect(inPeriod(null, {})).toBe(false);
  });
});

describe('answers filtered by period', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = Engine.build(await loadCorpus(DATED_CORPUS));
  });
  const articlesFor = (since?: string, until?: string) => {
    const period = parsePeriod({ since, until });
    const answer = engine.answer('Gravelines dock strike', { limit: 10, ...(period ? { period } : {}) });
    return new Set(answer.results.map((result) => result.article));
  };

  it('keeps both ends of the period, date-times on the last day included', () => {
    expect(articlesFor('2003', '2003')).toEqual(new Set(['dock-strike-begins', 'dock-strike-talks']));
    expect(articlesFor('2003-03-10', '2003-12-31')).toEqual(
      new Set(['dock-strike-begins', 'dock-strike-talks']),
    );
    expect(articlesFor('2015-08', '2015-08-01')).toEqual(new Set(['dock-strike-returns']));
    expect(articlesFor(undefined, '1987')).toEqual(new Set(['wire-1987']));
  });

  it('leaves undated articles out of a filtered answer, and in an unfiltered one', () => {
    expect(articlesFor('1900')).not.toContain('dock-strike-undated');
    expect(articlesFor('1900').size).toBe(6);
    expect(articlesFor()).toContain('dock-strike-undated');
  });

  it('finds nothing when the period has no coverage, and caches filtered answers apart', () => {
    expect(articlesFor('2010', '2014').size).toBe(0);
    expect(articlesFor('2015')).toEqual(new Set(['dock-strike-returns', 'dock-strike-ends', 'wire-2015']));
  });
});
