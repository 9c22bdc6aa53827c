import { describe, expect, it } from 'vitest';
import { countPassages, prefixWithPassages } from '../../../bench/lib/bench-corpus.ts';
import type { Article } from '../../../src/corpus/article.ts';

function article(id: string, passages: number): Article {
  return {
    id,
    source: `${id}.md`,
    title: id,
    publisher: null,
    url: null,
    published: null,
    author: null,
    language: null,
    passages: Array.from({ length: passages }, (_, index) => ({
      id: `${id}#${index + 1}`,
      articleId: id,
      paragraph: index + 1,
      index,
      text: `paragraph ${index + 1}`,
    })),
  };
}

const articles = [article('a', 3), article('b', 2), article('c', 4)];

describe('prefixWithPassages', () => {
  it('takes articles in order until the passage count is reached', () => {
    expect(prefixWithPassages(articles, 4).map((a) => a.id)).toEqual(['a', 'b']);
    expect(prefixWithPassages(articles, 3).map((a) => a.id)).toEqual(['a']);
  });

  it('takes everything when there are fewer passages than asked for', () => {
    expect(prefixWithPassages(articles, 100)).toHaveLength(3);
  });

  it('takes nothing for zero or fewer passages', () => {
    expect(prefixWithPassages(articles, 0)).toEqual([]);
    expect(prefixWithPassages(articles, -5)).toEqual([]);
  });
});

describe('countPassages', () => {
  it('sums passages over articles', () => {
    expect(countPassages(articles)).toBe(9);
  });
});
