import { describe, expect, it } from 'vitest';
import type { Passage } from '../../src/corpus/article.ts';
import { tokenize, WordCache } from '../../src/search/analyze.ts';
import { PassageTokens } from '../../src/search/passage-tokens.ts';

const passage = (n: number, text: string): Passage => ({
  id: `story-${n}#1`,
  articleId: `story-${n}`,
  paragraph: 1,
  index: 0,
  text,
});

const TEXT = 'Fréthun’s mayor said 18,000 migrants per cent co-operation — U.S. officials paid £7,000.';

describe('PassageTokens', () => {
  it('gives the tokens tokenize gives, and the same array the second time, frozen', () => {
    const tokens = new PassageTokens(WordCache.forQuestions());
    const first = tokens.of(passage(1, TEXT));
    expect(first).toEqual(tokenize(TEXT));
    expect(tokens.of(passage(1, TEXT))).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(tokens.stats).toEqual({ passages: 1, hits: 1, misses: 1 });
  });

  it('lets go of the quarter remembered first when full, and tokenizes those again', () => {
    const tokens = new PassageTokens(WordCache.forQuestions(), 8);
    const passages = Array.from({ length: 9 }, (_, n) => passage(n, `passage number ${n} of the story`));
    const arrays = passages.map((p) => tokens.of(p));
    expect(tokens.stats.passages).toBe(7); // 8 remembered, 2 let go, the ninth added
    expect(tokens.of(passages[8]!)).toBe(arrays[8]);
    expect(tokens.of(passages[2]!)).toBe(arrays[2]);
    const again = tokens.of(passages[0]!);
    expect(again).not.toBe(arrays[0]);
    expect(again).toEqual(arrays[0]);
  });
});
