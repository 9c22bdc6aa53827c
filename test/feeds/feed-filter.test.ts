import { describe, expect, it } from 'vitest';
import { checkFilter, FilterRefusedError, judge, parseFilterWords } from '../../src/feeds/feed-filter.ts';

describe('feed filters', () => {
  it('parse comma-separated words and phrases, and refuse in plain words what cannot be matched', () => {
    expect(parseFilterWords(' strike,  mayor of  Calais ,strike,', 'include')).toEqual([
      'strike',
      'mayor of Calais',
    ]);
    expect(() => parseFilterWords('ok, ???', 'exclude')).toThrow(
      new FilterRefusedError(
        '“???” in `exclude` has no letter or digit to look for; give words or short phrases, separated by commas.',
      ),
    );
    expect(() =>
      parseFilterWords(Array.from({ length: 21 }, (_, i) => `w${i}`).join(','), 'include'),
    ).toThrow(/has 21 words; at most 20/);
    expect(() => checkFilter({ include: ['Grève'], exclude: ['greve'] })).toThrow(
      /both included and excluded/,
    );
  });

  it('match whole words in any case and with or without accents, and leave undecided what only the article can settle', () => {
    const filter = { include: ['grève', 'dock strike'], exclude: ['football'] };
    expect(judge(filter, 'La GREVE des dockers', true)).toBe('keep');
    expect(judge(filter, 'The Dock-Strike goes on', true)).toBe('keep');
    expect(judge(filter, 'Footballers strike a deal', true)).toBe('skip');
    expect(judge(filter, 'Football club strike: dock strike too', false)).toBe('skip');
    expect(judge(filter, 'Harbour news', false)).toBe('undecided');
    expect(judge({ include: [], exclude: ['football'] }, 'Harbour news', false)).toBe('undecided');
    expect(judge({ include: [], exclude: ['football'] }, 'Harbour news', true)).toBe('keep');
  });
});
