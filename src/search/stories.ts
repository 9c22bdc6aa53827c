import type { Article } from '../corpus/article.ts';
import type { StoryChoice } from './answer.ts';

/** How many of the best candidates shown are read for the stories a question fits. */
export const STORY_DEPTH = 12;

/**
 * A story is offered beside the first when its best candidate's score is within this of the first's.
 * Chosen on the tuning halves (`npm run fit-ranking`'s candidates, closest-coverage replies only):
 * from margin 1 to 2 a member gets to the answer more often on every set (BBC/Reuters 0.747 -> 0.772,
 * NewsQA over 24k 0.484 -> 0.493, readers and seed the same), asked "Which story?" for up to 30% of the
 * questions of a set readers wrote (25% at 1); past 2 nothing changes, as every article among the first
 * 12 is then within it.
 */
export const STORY_MARGIN = 2;

/**
 * At most this many stories are offered. Over the 24k archive the right story, when it is among the
 * candidates at all, is often the sixth or seventh article of the ranking: at 7 instead of 5 a member
 * gets there more often on NewsQA over 24k (tuning / test 0.518 / 0.499 -> 0.534 / 0.506) and over its
 * own articles (0.633 / 0.607 -> 0.642 / 0.618), every other set the same; a Discord select menu takes 25.
 */
const MAX_STORIES = 7;

/** A ranked candidate as the story choice reads it. */
interface StoryCandidate {
  score: number;
  located: { article: Article };
}

/**
 * The stories ("Which story?") among the best candidates shown when they come from several articles
 * with no clear winner: each article's best candidate in ranked order, those within `margin` of the
 * first; undefined when only one article is that close.
 */
export function storiesOf(
  ranked: readonly StoryCandidate[],
  margin = STORY_MARGIN,
): StoryChoice[] | undefined {
  const best = ranked[0];
  if (best === undefined) return undefined;
  const stories: StoryChoice[] = [];
  const seen = new Set<string>();
  for (const candidate of ranked.slice(0, STORY_DEPTH)) {
    const { article } = candidate.located;
    if (seen.has(article.id) || best.score - candidate.score > margin) continue;
    if (stories.length === MAX_STORIES) break;
    seen.add(article.id);
    stories.push({
      article: article.id,
      title: article.title,
      publisher: article.publisher,
      published: article.published,
    });
  }
  return stories.length >= 2 ? stories : undefined;
}
