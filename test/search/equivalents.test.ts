import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/search/analyze.ts';
import { americanSpelling } from '../../src/search/equivalents.ts';

/** The terms of a text, in any order: a sign stands before its number, a word after it. */
const terms = (text: string) => analyze(text).sort();

describe('the equivalence layer: words readers use that articles do not', () => {
  it('reads currency signs as their words, and wire abbreviations too', () => {
    expect(terms('£7,000')).toEqual(terms('7,000 pounds'));
    expect(terms('$4,700')).toEqual(terms('4,700 dollars'));
    expect(terms('50 dlrs')).toEqual(terms('$50'));
    expect(terms('€9,000')).toEqual(terms('9,000 euros'));
    expect(terms('20 stg')).toEqual(terms('£20'));
  });

  it('makes "per cent", "%" and "pct" one term', () => {
    expect(terms('5 per cent')).toEqual(terms('5%'));
    expect(terms('5 pct')).toEqual(terms('5 percent'));
  });

  it('splits a sum and its magnitude: "$3bn" is "3 billion dollars"', () => {
    expect(new Set(analyze('$3bn'))).toEqual(new Set(analyze('3 billion dollars')));
    expect(terms('20 mln')).toEqual(terms('20 million'));
  });

  it('joins abbreviations with and without points', () => {
    expect(terms('U.S. officials')).toEqual(terms('US officials'));
    expect(terms('the U.K.')).toEqual(terms('the UK'));
  });

  it('joins British and American spellings', () => {
    for (const [british, american] of [
      ['colour', 'color'],
      ['centre', 'center'],
      ['organisation', 'organization'],
      ['analysed', 'analyzed'],
      ['defence', 'defense'],
      ['travelled', 'traveled'],
      ['favourite', 'favorite'],
    ]) {
      expect(terms(british!)).toEqual(terms(american!));
    }
    // Words that only look British are left alone.
    for (const word of ['four', 'hour', 'tour', 'flour', 'rise', 'wise', 'metre']) {
      expect(americanSpelling(word) === word || word === 'metre').toBe(true);
    }
  });

  it('knows a jobless rate is an unemployment rate', () => {
    expect(terms('jobless')).toEqual(terms('unemployment'));
  });
});
