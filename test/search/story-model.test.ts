// @module-tag shared-data (reads ../shared: skipped in a clone without it, run in CI)
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { Engine } from '../../src/search/engine.ts';
import { STORY_FEATURES, type StoryFeature } from '../../src/search/story-features.ts';
import { STORY_MODEL, type StoryModel } from '../../src/search/story-model.ts';
import { sharedData } from '../support/shared-data.ts';

// The BBC News articles of ../shared: 2,225 articles, none of them in the story model's fitting.
const BBC = sharedData('bbc');
const QUESTION = 'Which Microsoft executive said the company may charge for its spyware tool?';
const STORY = 'bbc-tech-250';

/** The stories as they were offered before the story model: by each article's best passage alone. */
const zero = Object.fromEntries(STORY_FEATURES.map((name) => [name, 0])) as Record<StoryFeature, number>;
const BEST_PASSAGE: StoryModel = { weights: { ...zero, best: 3 }, margin: 2, maxStories: 7 };

let engine: Engine;
let bestPassage: Engine;
beforeAll(async () => {
  const corpus = await loadCorpus(BBC);
  engine = Engine.build(corpus);
  bestPassage = Engine.fromPostings(corpus, engine.postings, { storyModel: BEST_PASSAGE });
}, 120_000);

describe('the story model', () => {
  it('offers the story that holds the answer where its best passage alone would not', () => {
    const asked = engine.answer(QUESTION);
    expect(asked.assurance).toBe('closest');
    const offered = asked.stories?.map((story) => story.article) ?? [];
    expect(offered).toContain(STORY);
    expect(offered.length).toBeLessThanOrEqual(STORY_MODEL.maxStories);
    // Choosing it answers within it: Mike Nash, among the first 3.
    const within = engine.answer(QUESTION, { articleId: STORY }).results;
    expect(within.map((result) => result.passage).join('\n')).toContain('Mike Nash');

    const before = bestPassage.answer(QUESTION);
    expect(before.stories?.length).toBeGreaterThan(1);
    expect(before.stories?.map((story) => story.article)).not.toContain(STORY);
  });
});
