import { describe, expect, it } from 'vitest';
import {
  bucketLabel,
  bucketStart,
  bucketsBetween,
  formatSpan,
  MAX_BARS,
  scaleFor,
} from '../../src/chart/time-buckets.ts';

describe('time buckets', () => {
  it('weeks start on Monday, across a month and a year end', () => {
    expect(bucketStart('2003-03-10', 'week')).toBe('2003-03-10'); // a Monday
    expect(bucketStart('2003-03-16', 'week')).toBe('2003-03-10'); // its Sunday
    expect(bucketStart('2004-01-01', 'week')).toBe('2003-12-29');
    expect(bucketStart('2015-08-31', 'month')).toBe('2015-08-01');
    expect(bucketStart('2015-08-31', 'year')).toBe('2015-01-01');
  });

  it('lists every period between two days, empty ones included', () => {
    expect(bucketsBetween('2003-11-15', '2004-02-02', 'month')).toEqual([
      '2003-11-01',
      '2003-12-01',
      '2004-01-01',
      '2004-02-01',
    ]);
    expect(bucketsBetween('2016-02-01', '2016-02-03', 'day')).toEqual([
      '2016-02-01',
      '2016-02-02',
      '2016-02-03',
    ]);
  });

  it('chooses the finest scale that fits the span in MAX_BARS bars', () => {
    expect(scaleFor('2016-02-01', '2016-02-03')).toBe('day');
    expect(scaleFor('1987-02-26', '1987-04-07')).toBe('day');
    expect(scaleFor('1987-02-26', '1987-06-30')).toBe('week');
    expect(scaleFor('1987-02-26', '1987-10-20')).toBe('week');
    expect(scaleFor('1987-02-26', '1988-03-20')).toBe('month');
    expect(scaleFor('1987-02-26', '2016-06-30')).toBe('year');
    expect(scaleFor('2016-02-01', '2016-02-03', 'week')).toBe('week');
    for (const [first, last] of [
      ['1987-02-26', '1987-04-12'],
      ['2001-01-01', '2004-09-30'],
    ] as const) {
      const scale = scaleFor(first, last);
      expect(bucketsBetween(first, last, scale).length).toBeLessThanOrEqual(MAX_BARS);
    }
  });

  it('labels and spans read as people write dates', () => {
    expect(bucketLabel('2003-03-10', 'week')).toBe('10 Mar');
    expect(bucketLabel('2003-03-01', 'month')).toBe('Mar 2003');
    expect(bucketLabel('2003-01-01', 'year')).toBe('2003');
    expect(formatSpan('1987-02-26', '2016-06-30', 'year')).toBe('1987 – 2016');
    expect(formatSpan('2016-02-01', '2016-06-30', 'week')).toBe('1 Feb – 30 Jun 2016');
    expect(formatSpan('2015-12-30', '2016-01-02', 'day')).toBe('30 Dec 2015 – 2 Jan 2016');
    expect(formatSpan('2003-03-10', '2003-03-31', 'month')).toBe('Mar 2003');
  });
});
