import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { type Features, linear } from './ranking-model.ts';
import { STORY_FEATURES, type StoryFeature } from './story-features.ts';

/**
 * Which stories a "Which story?" reply offers: a listwise (softmax) model over the articles of a
 * question's re-ranked candidates of "this article holds the answer", and the band of it offered.
 * Fitted on the tuning halves by `npm run fit-stories` and kept as data in `story-model.json`.
 */
export interface StoryModel {
  /** Weights of an article's story score, a linear model of `STORY_FEATURES`. */
  weights: Features<StoryFeature>;
  /** Articles whose story score is within this of the best article's are offered. */
  margin: number;
  /** At most this many are offered (a Discord select menu takes 25). */
  maxStories: number;
}

const SCHEMA = z.strictObject({
  weights: z.object(
    Object.fromEntries(STORY_FEATURES.map((name) => [name, z.number()])) as Record<StoryFeature, z.ZodNumber>,
  ),
  margin: z.number().nonnegative(),
  maxStories: z.number().int().min(2).max(25),
});

/** Checks a parsed story model file; throws naming the file and the first field that is wrong. */
export function parseStoryModel(value: unknown, source = 'story model'): StoryModel {
  const parsed = SCHEMA.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length > 0 ? ` (at ${issue.path.join('.')})` : '';
  throw new Error(
    `${source}: expected weights for ${STORY_FEATURES.join(', ')}, a margin of 0 or more and maxStories from 2 to 25${where}`,
  );
}

/** An article's story score. */
export function storyScore(model: StoryModel, features: Features<StoryFeature>): number {
  return linear(model.weights, features);
}

export const STORY_MODEL_FILE = new URL('./story-model.json', import.meta.url);

/** The fitted story model the engine offers stories by unless told otherwise. */
export const STORY_MODEL: StoryModel = parseStoryModel(
  JSON.parse(readFileSync(STORY_MODEL_FILE, 'utf8')),
  STORY_MODEL_FILE.pathname,
);
