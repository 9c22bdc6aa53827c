/**
 * Fits the ranking and confidence model (`npm run fit-ranking`) and writes `src/search/ranking-model.json`.
 *
 * Only tuning data is used (`fitting/measure.ts`): the `tune` halves of `bench/data/questions/*.jsonl`
 * and the odd-numbered NewsQA questions, all sets together, each asked of the corpus it is measured on.
 * Steps, a module each under `bench/fitting/`:
 *   (1) `measure.ts`: every candidate of every question with its features;
 *   (2) `ranking-weights.ts`: the ranking weights, a listwise logistic (softmax) model over each
 *       question's candidates;
 *   (3) `confidence.ts`: the confidence, a logistic model of "the corpus covers this question" on the
 *       first result after re-ranking;
 *   (4) `thresholds.ts`: the threshold that says which passages are about a topic, trading "no
 *       coverage" for off-topic questions against answerable ones turned away, and the "no coverage"
 *       band under it (`closestBand`);
 *   (5) `answer-model.ts`: the answer model, a logistic model of "the first 3 results hold the answer",
 *       with its band (`answerBand`): 'answer' above it, closest coverage below (docs/quality.md).
 *
 * After a change to the ranking or to the confidence features (a merge of both, say), one command refits
 * the confidence alone on the ranking as it stands, measuring every candidate again (about 4 minutes
 * on the shared 2-core machine at load 10: 3 to measure, 1 to cross-validate and fit; the ranking's own
 * cross-validation is skipped):
 *
 *   npm run fit-ranking -- --ranking-from src/search/ranking-model.json
 *
 * and with `--confidence-from src/search/ranking-model.json` too, only the bands and the answer model.
 *
 *   npm run fit-ranking                       fit and write the model
 *   npm run fit-ranking -- --dry-run          fit and print, write nothing
 *   npm run fit-ranking -- --no-archive       skip the ~24,000-article corpus (quick, less faithful)
 *   npm run fit-ranking -- --cache FILE       keep the measured candidates in FILE, refit from it later
 *   npm run fit-ranking -- --out FILE         write the model to FILE (try it: npm run eval -- --model FILE)
 *   npm run fit-ranking -- --no-search        every feature at one L2 strength, no cross-validation
 *   npm run fit-ranking -- --measure-pool 100,6 --cache FILE   measure a wider candidate pool once, then
 *   npm run fit-ranking -- --cache FILE --pool 60,4              fit on any pool within it from the cache
 *   npm run fit-ranking -- --retrieval '{"postingBudget":5000}' --cache FILE   measure with other retrieval settings
 *   npm run fit-ranking -- --set-weight equal  each set counts alike in the ranking's loss (default: 1 / √size)
 *   npm run fit-ranking -- --archive-weight 2  the ~24,000-article sets count twice in the confidence's loss
 *   npm run fit-ranking -- --ranking-from src/search/ranking-model.json --ranking-free countsAsked \
 *     --confidence-from src/search/ranking-model.json
 *                                             fit a feature just added, the other weights and the confidence kept
 *   npm run fit-ranking -- --ranking-subset 'no neighbours' --ranking-l2 0.1 \
 *     --confidence-subset all --confidence-l2 0.001
 *                                             skip the cross-validations with the choices they made
 * Every option is documented in `fitting/options.ts` (`FitOptions`). Besides the threshold table it
 * prints the held-out trade: off-topic questions over the archive turned away at 5-10% of NewsQA over
 * it turned away; compare confidence models on it.
 */
import { writeFile } from 'node:fs/promises';
import {
  ANSWER_FEATURES,
  type AnswerFeature,
  confidenceOf,
  type Features,
  MODEL_FILE,
  type RankingModel,
} from '../src/search/ranking-model.ts';
import { fitAnswerModel } from './fitting/answer-model.ts';
import { fitConfidenceModel, rerank } from './fitting/confidence.ts';
import { tuningData } from './fitting/measure.ts';
import { round } from './fitting/optimise.ts';
import { type FitOptions, FitOptionsError, parseFitOptions } from './fitting/options.ts';
import { fitRankingWeights } from './fitting/ranking-weights.ts';
import { closestBand, coverageThreshold, outcome, printThresholdTrade } from './fitting/thresholds.ts';

async function main(options: FitOptions): Promise<void> {
  const data = await tuningData(options);
  const ranking = fitRankingWeights(data, options);
  const ranked = rerank(data, ranking);
  const model: RankingModel = {
    ranking,
    confidence: fitConfidenceModel(data, ranked, options),
    threshold: 0,
    closestThreshold: 0,
    answer: {
      bias: 0,
      weights: Object.fromEntries(ANSWER_FEATURES.map((n) => [n, 0])) as Features<AnswerFeature>,
    },
    answerThreshold: 0,
  };
  for (const r of ranked) for (const t of r.top) t.confidence = confidenceOf(model, t.features);
  model.threshold = coverageThreshold(data, ranked);
  model.closestThreshold = closestBand(data, ranked, model.threshold);
  process.stderr.write(
    `bands: answer from ${model.threshold}, closest coverage from ${model.closestThreshold}\n`,
  );
  printThresholdTrade(data, ranked);
  Object.assign(model, fitAnswerModel(data, ranked, model.closestThreshold));
  process.stderr.write(`answer model: l2 chosen, band ${model.answerThreshold}\n`);
  console.table(
    [...outcome(ranked, model.threshold)].map(([set, s]) => ({
      set,
      questions: s.n,
      hitAt1: round(s.hit1 / s.n),
      hitAt5: round(s.hit5 / s.n),
      empty: round(s.empty / s.n),
    })),
  );
  process.stdout.write(`${JSON.stringify(model, null, 2)}\n`);
  if (!options.dryRun) {
    const out = options.out ?? MODEL_FILE.pathname;
    await writeFile(out, `${JSON.stringify(model, null, 2)}\n`);
    process.stderr.write(`wrote ${out}\n`);
  }
}

let options: FitOptions;
try {
  options = parseFitOptions(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof FitOptionsError)) throw error;
  process.stderr.write(`npm run fit-ranking: ${error.message}\n`);
  process.exit(2);
}
await main(options);
