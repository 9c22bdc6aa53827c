import type { StoryChoice } from './answer.ts';
import type { StoryRow } from './story-features.ts';
import { type StoryModel, storyScore } from './story-model.ts';

/**
 * The stories ("Which story?") a question fits when no story is a clear winner: the articles of its
 * candidates by the story model's score (`story-model.ts`), those within the model's margin of the
 * best, at most `maxStories`; undefined when only one is that close.
 */
export function storiesOf(rows: readonly StoryRow[], model: StoryModel): StoryChoice[] | undefined {
  const ranked = rankStories(rows, model);
  const best = ranked[0];
  if (best === undefined) return undefined;
  const stories: StoryChoice[] = [];
  for (const { row, score } of ranked) {
    if (stories.length === model.maxStories || best.score - score > model.margin) break;
    const { article } = row;
    stories.push({
      article: article.id,
      title: article.title,
      publisher: article.publisher,
      published: article.published,
    });
  }
  return stories.length >= 2 ? stories : undefined;
}

/** The rows by story score, best first (ties in the candidates' order). */
export function rankStories(
  rows: readonly StoryRow[],
  model: StoryModel,
): { row: StoryRow; score: number }[] {
  return rows
    .map((row, i) => ({ row, score: storyScore(model, row.features), i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ row, score }) => ({ row, score }));
}
