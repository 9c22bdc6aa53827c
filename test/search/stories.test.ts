import { describe, expect, it } from 'vitest';
import type { Article } from '../../src/corpus/article.ts';
import { storiesOf } from '../../src/search/stories.ts';
import { STORY_FEATURES, type StoryFeature, type StoryRow } from '../../src/search/story-features.ts';
import type { StoryModel } from '../../src/search/story-model.ts';

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

const zero = Object.fromEntries(STORY_FEATURES.map((name) => [name, 0])) as Record<StoryFeature, number>;
const row = (id: string, features: Partial<Record<StoryFeature, number>>): StoryRow => ({
  article: article(id),
  features: { ...zero, ...features },
});
const model = (margin: number, maxStories = 7): StoryModel => ({
  weights: { ...zero, best: 1, passages: 2 },
  margin,
  maxStories,
});
const offered = (rows: StoryRow[], m: StoryModel) => storiesOf(rows, m)?.map((story) => story.article);

describe('"Which story?"', () => {
  it('offers the stories by the story model, not by their best passage', () => {
    // b's best passage is below a's, but b holds many of the candidates.
    const rows = [row('a', { best: 0, passages: 0.1 }), row('b', { best: -0.5, passages: 0.6 })];
    expect(offered(rows, model(5))).toEqual(['b', 'a']);
  });

  it('offers at most maxStories, and only those within the margin of the best', () => {
    const rows = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((id, i) => row(id, { best: -i * 0.1 }));
    expect(offered(rows, model(5))).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(offered(rows, model(5, 3))).toEqual(['a', 'b', 'c']);
    expect(offered(rows, model(0.25))).toEqual(['a', 'b', 'c']);
  });

  it('asks nothing when one story stands clear of the rest', () => {
    expect(storiesOf([row('a', { best: 0 }), row('b', { best: -2 })], model(1))).toBeUndefined();
    expect(storiesOf([row('a', { best: 0 })], model(5))).toBeUndefined();
  });
});
