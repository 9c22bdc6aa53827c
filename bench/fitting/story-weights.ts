import type { Features } from '../../src/search/ranking-model.ts';
import { storiesOf } from '../../src/search/stories.ts';
import { STORY_FEATURES, type StoryFeature, type StoryRow } from '../../src/search/story-features.ts';
import type { StoryModel } from '../../src/search/story-model.ts';
import { minimise, round } from './optimise.ts';
import type { StoryQuestionRecord } from './story-measure.ts';

/**
 * The story model's weights: a listwise logistic (softmax) model over each tuning question's articles,
 * maximising the probability of the article that holds the answer; and how a model's offered stories
 * play out, judged from the measured records without asking again.
 */

const K = STORY_FEATURES.length;

/** A weight vector as the model file keeps it. */
export function storyWeights(w: readonly number[]): Features<StoryFeature> {
  return Object.fromEntries(STORY_FEATURES.map((name, j) => [name, round(w[j]!)])) as Features<StoryFeature>;
}

/**
 * The weights fitted on `records` whose answer's article is among their rows, each set counting
 * 1 / √(its lists), the features of `leftOut` held at 0.
 */
export function fitStoryWeights(
  records: readonly StoryQuestionRecord[],
  leftOut: readonly StoryFeature[],
  l2: number,
): number[] {
  const lists = records.filter((r) => r.rows.some((row) => row.article === r.article));
  const sizes = new Map<string, number>();
  for (const r of lists) sizes.set(r.set, (sizes.get(r.set) ?? 0) + 1);
  const rows = lists.map((r) => ({
    x: r.rows.map((row) => STORY_FEATURES.map((name) => row.features[name])),
    y: r.rows.map((row) => row.article === r.article),
    weight: 1 / Math.sqrt(sizes.get(r.set)!),
  }));
  const free = STORY_FEATURES.map((name) => !leftOut.includes(name));
  const start = STORY_FEATURES.map((name, j) => (free[j] && name === 'best' ? 3 : 0));
  return minimise(start, free, l2, 300, 0.5, (w) => {
    const grad = w.map(() => 0);
    let loss = 0;
    let total = 0;
    for (const { x, y, weight } of rows) {
      total += weight;
      const scores = x.map((f) => f.reduce((s, v, j) => s + v * w[j]!, 0));
      const max = Math.max(...scores);
      const e = scores.map((s) => Math.exp(s - max));
      const z = e.reduce((a, b) => a + b, 0);
      const zPos = e.reduce((a, v, i) => a + (y[i] ? v : 0), 0);
      loss -= weight * Math.log(zPos / z);
      for (const [i, f] of x.entries()) {
        const d = weight * (e[i]! / z - (y[i] ? e[i]! / zPos : 0));
        for (let j = 0; j < K; j++) grad[j]! += d * f[j]!;
      }
    }
    return { loss, grad, total };
  }).w;
}

/** How one question plays out under a story model. */
export interface StoryOutcome {
  getsThere: boolean;
  asks: boolean;
  offered: number;
  rightOffered: boolean;
}

/**
 * A record's outcome under `model`: a closest-coverage reply offering two stories or more asks which
 * story (the member gets there when the right one is offered and the answer is in the first 3 within
 * it); any other reply gets there when its own first 3 hold the answer.
 */
export function storyOutcome(record: StoryQuestionRecord, model: StoryModel): StoryOutcome {
  const stories =
    record.assurance === 'closest'
      ? storiesOf(
          record.rows.map((row) => ({ article: articleStub(row.article), features: row.features })),
          model,
        )
      : undefined;
  if (stories === undefined) {
    return {
      getsThere: record.rank !== null && record.rank <= 3,
      asks: false,
      offered: 0,
      rightOffered: false,
    };
  }
  const rightOffered = stories.some((story) => story.article === record.article);
  return {
    getsThere: rightOffered && record.within !== null && record.within <= 3,
    asks: true,
    offered: stories.length,
    rightOffered,
  };
}

function articleStub(id: string): StoryRow['article'] {
  return {
    id,
    source: '',
    title: '',
    publisher: null,
    url: null,
    published: null,
    author: null,
    language: 'en',
    passages: [],
  };
}

/** Per set: the share getting there, asking which story, and the mean number of stories offered when asked. */
export function storyFigures(
  records: readonly StoryQuestionRecord[],
  model: StoryModel,
): Map<string, { n: number; getsThere: number; asks: number; offered: number }> {
  const figures = new Map<string, { n: number; getsThere: number; asks: number; offered: number }>();
  for (const record of records) {
    const o = storyOutcome(record, model);
    const f = figures.get(record.set) ?? { n: 0, getsThere: 0, asks: 0, offered: 0 };
    f.n++;
    if (o.getsThere) f.getsThere++;
    if (o.asks) f.asks++;
    f.offered += o.offered;
    figures.set(record.set, f);
  }
  for (const f of figures.values()) {
    f.offered = f.asks === 0 ? 0 : f.offered / f.asks;
    f.getsThere /= f.n;
    f.asks /= f.n;
  }
  return figures;
}
