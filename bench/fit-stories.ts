/**
 * Fits the story model (`npm run fit-stories`) and writes `src/search/story-model.json`: which articles a
 * "Which story?" reply offers. Only the tuning halves are fitted on, every answerable set together
 * (seed over `corpus/`, NewsQA, BBC/Reuters and readers over the ~24,000-article archive); the test
 * halves are printed beside, never chosen on.
 *
 *   (1) `fitting/story-measure.ts`: each question's reply, its answer's rank within its own article, and
 *       the articles of its ranked candidates with their story features (about 6 minutes with the
 *       archive's build; `--cache FILE` keeps them, and later fits read them from there);
 *   (2) `fitting/story-weights.ts`: the weights, a listwise logistic (softmax) model over each question's
 *       articles of "this one holds the answer"; which features and L2 strength, and the margin of
 *       score within which stories are offered, chosen by 5-fold cross-validation on "a member gets
 *       there" (docs/quality.md), each set counting alike.
 *
 *   npm run fit-stories -- --cache FILE            fit and write the model
 *   npm run fit-stories -- --cache FILE --dry-run  fit and print, write nothing
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { STORY_FEATURES, type StoryFeature } from '../src/search/story-features.ts';
import { STORY_MODEL, STORY_MODEL_FILE, type StoryModel } from '../src/search/story-model.ts';
import { FOLDS } from './fitting/measure.ts';
import { foldsBySet, mean, round } from './fitting/optimise.ts';
import { storyRecords } from './fitting/story-measure.ts';
import { fitStoryWeights, storyFigures, storyWeights } from './fitting/story-weights.ts';

const L2S = [1e-3, 1e-2, 0.1];
const MARGINS = [0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8];
const MAX_STORIES = 7;

/** Features each tried subset leaves out. */
const SUBSETS: Record<string, readonly StoryFeature[]> = {
  all: [],
  'no confidence': ['confidence'],
  'no coverage': ['coverage', 'articleCoverage'],
  'scores and places only': STORY_FEATURES.filter(
    (name) => !['best', 'second', 'place', 'bestRank'].includes(name),
  ),
};

const { values } = parseArgs({
  options: {
    cache: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const records = await storyRecords(values.cache);
const tune = records.filter((r) => r.half === 'tune');
const test = records.filter((r) => r.half === 'test');
const foldOf = foldsBySet(tune, FOLDS);

const modelOf = (w: readonly number[], margin: number): StoryModel => ({
  weights: storyWeights(w),
  margin,
  maxStories: MAX_STORIES,
});
/** Each set's share getting there, averaged with each set alike. */
const score = (figures: ReturnType<typeof storyFigures>) =>
  mean([...figures.values()].map((f) => f.getsThere));

// The cross-validation: each choice's held-out "gets there", the folds' outcomes pooled.
let best: { subset: string; l2: number; margin: number; cv: number } | undefined;
for (const [subset, leftOut] of Object.entries(SUBSETS)) {
  for (const l2 of L2S) {
    const weights = [...Array(FOLDS).keys()].map((fold) =>
      fitStoryWeights(
        tune.filter((r) => foldOf.get(r) !== fold),
        leftOut,
        l2,
      ),
    );
    const cells: string[] = [];
    for (const margin of MARGINS) {
      // Each fold's records judged by the model fitted without them.
      const outcomes = new Map<string, { n: number; hits: number }>();
      for (let fold = 0; fold < FOLDS; fold++) {
        const held = tune.filter((r) => foldOf.get(r) === fold);
        for (const [set, f] of storyFigures(held, modelOf(weights[fold]!, margin))) {
          const o = outcomes.get(set) ?? { n: 0, hits: 0 };
          o.n += f.n;
          o.hits += f.getsThere * f.n;
          outcomes.set(set, o);
        }
      }
      const cv = mean([...outcomes.values()].map((o) => o.hits / o.n));
      cells.push(`${margin}:${cv.toFixed(3)}`);
      if (best === undefined || cv > best.cv + 1e-9) best = { subset, l2, margin, cv };
    }
    process.stderr.write(`${subset.padEnd(24)} l2 ${String(l2).padEnd(6)} ${cells.join(' ')}\n`);
  }
}
const chosen = best!;
process.stderr.write(
  `chosen: ${chosen.subset}, l2 ${chosen.l2}, margin ${chosen.margin} (cross-validated ${chosen.cv.toFixed(3)})\n`,
);
const model = modelOf(fitStoryWeights(tune, SUBSETS[chosen.subset]!, chosen.l2), chosen.margin);

// The fitted model on both halves beside the model it replaces.
const rows: Record<string, string | number>[] = [];
for (const [name, m] of [
  ['fitted', model],
  ['current', STORY_MODEL],
] as const) {
  for (const [half, set] of [
    ['tune', tune],
    ['test', test],
  ] as const) {
    const figures = storyFigures(set, m);
    rows.push({
      model: name,
      half,
      mean: round(score(figures)),
      ...Object.fromEntries(
        [...figures].map(([s, f]) => [
          s,
          `${f.getsThere.toFixed(3)} (asks ${f.asks.toFixed(2)}, ${f.offered.toFixed(1)} offered)`,
        ]),
      ),
    });
  }
}
console.table(rows);
process.stdout.write(`${JSON.stringify(model, null, 2)}\n`);
if (!values['dry-run']) {
  const out = values.out ?? STORY_MODEL_FILE.pathname;
  await writeFile(out, `${JSON.stringify(model, null, 2)}\n`);
  process.stderr.write(`wrote ${out} (features: ${STORY_FEATURES.join(', ')})\n`);
}
