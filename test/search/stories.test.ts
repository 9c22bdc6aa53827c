import { describe, expect, it } from 'vitest';
import type { Article } from '../../src/corpus/article.ts';
import { STORY_MARGIN, storiesOf } from '../../src/search/stories.ts';

function article(id: string): Article {
  return {
    id,
    source: `${id}.md`,
    title: `Headline of ${id}`,
    publisher: 'Wire',
    url: null,
    published: '2026-12-01',
    author: null,
    language: 'en',
    passages: [],
  };
}

const candidate = (id: string, score: number) => ({ score, located: { article: article(id) } });

describe('"Which story?"', () => {
  it('offers up to seven stories, each article once, best first', () => {
    const ranked = ['a', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((id, i) =>
      candidate(id, 10 - i * 0.1),
    );
    expect(storiesOf(ranked)?.map((story) => story.article)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });

  it('leaves out stories further than the margin from the first, and offers none for one story', () => {
    const ranked = [
      candidate('a', 10),
      candidate('b', 10 - STORY_MARGIN / 2),
      candidate('c', 10 - STORY_MARGIN * 2),
    ];
    expect(storiesOf(ranked)?.map((story) => story.article)).toEqual(['a', 'b']);
    expect(storiesOf([candidate('a', 10), candidate('a', 9.5), candidate('c', 1)])).toBeUndefined();
  });
});
