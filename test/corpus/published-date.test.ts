import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { toIsoDate } from '../../src/corpus/published-date.ts';
import { sharedData } from '../support/shared-data.ts';
import { DATED_CORPUS } from '../support/temp-corpus.ts';

describe('publication dates', () => {
  it('reads ISO 8601 dates and date-times as stated, with a T between date and time', () => {
    expect(toIsoDate('2015-08-01')).toBe('2015-08-01');
    expect(toIsoDate('2015-08-01T23:30:00-05:00')).toBe('2015-08-01T23:30:00-05:00');
    expect(toIsoDate('2015-08-01 09:30')).toBe('2015-08-01T09:30');
  });

  it("reads Reuters' newswire dates, teletype letters and doubled spaces included", () => {
    expect(toIsoDate('26-FEB-1987 15:01:11.79')).toBe('1987-02-26T15:01:11.79');
    expect(toIsoDate('3-MAR-1987  09:15:05.40')).toBe('1987-03-03T09:15:05.40');
    expect(toIsoDate('27-MAR-1987 02:17:09.88T C')).toBe('1987-03-27T02:17:09.88');
  });

  it('refuses what is not a date, or a day the calendar lacks', () => {
    for (const bad of [
      'yesterday',
      '2015-02-30',
      '30-FEB-1987 10:00:00.00',
      '2015-08-01T25:00',
      '2015/08/01',
    ])
      expect(toIsoDate(bad), bad).toBeNull();
  });

  it('gives every article of the dated fixture its date, from front matter and JSON Lines alike', async () => {
    const corpus = await loadCorpus(DATED_CORPUS);
    const dates = Object.fromEntries(corpus.articles.map((article) => [article.id, article.published]));
    expect(dates).toEqual({
      'dock-strike-begins': '2003-03-10',
      'dock-strike-talks': '2003-12-31T22:15:00+01:00',
      'dock-strike-returns': '2015-08-01T23:30:00-05:00',
      'dock-strike-ends': '2015-08-31',
      'dock-strike-undated': null,
      'wire-1987': '1987-02-26T15:01:11.79',
      'wire-2015': '2015-08-15',
      'port-sale-wire': '2016-02-01T09:00:00Z',
      'port-sale-courier': '2016-02-03',
      'port-sale-gazette': '2016-06-30',
    });
  });

  it('dates every record of the shared Reuters data', {
    tags: ['shared-data'],
    timeout: 120_000,
  }, async () => {
    const corpus = await loadCorpus(sharedData('reuters'));
    expect(corpus.articles.length).toBeGreaterThan(20_000);
    // Two records' dates are unreadable (`31-MAR-1987 605:12:19.12`) or marked as guesswork: undated.
    expect(corpus.articles.filter((article) => article.published === null).map((a) => a.id)).toEqual([
      'reuters-15370',
      'reuters-17192',
    ]);
    expect(corpus.articles[0]!.published).toMatch(/^1987-02-26T15:01:\d\d\.\d+$/);
  });
});
