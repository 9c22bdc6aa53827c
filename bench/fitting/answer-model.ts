import { answerFeatures } from '../../src/search/answer-features.ts';
import {
  ANSWER_FEATURES,
  type AnswerFeature,
  type Features,
  type RankingModel,
} from '../../src/search/ranking-model.ts';
import type { Ranked } from './confidence.ts';
import { FOLDS, type TuningData } from './measure.ts';
import { fitLogistic, heldOutLogistic, L2, round } from './optimise.ts';
import { answerBand } from './thresholds.ts';

/**
 * Step (5) of the fit: the answer model, a logistic model, from `ANSWER_FEATURES`, of "the first 3
 * results hold the answer" (off-topic questions: never), over the questions whose first result is
 * within the closest band (the others are "no coverage" whatever it says). Its L2 strength is chosen by
 * held-out log loss; the band is chosen on held-out (5-fold) probabilities by `answerBand`, then the
 * model is fitted on all. `ranked` carries the fitted confidence.
 */
export function fitAnswerModel(
  data: TuningData,
  ranked: Ranked[],
  closestThreshold: number,
): Pick<RankingModel, 'answer' | 'answerThreshold'> {
  const rows = ranked
    .filter((r) => r.top.length > 0 && r.top[0]!.confidence >= closestThreshold)
    .map((r) => ({
      r,
      f: [...featureRow(r), 1],
      y: r.asked.answerable && r.top.slice(0, 3).some((t) => t.label) ? 1 : 0,
      weight: data.weightOf(r.asked.set),
    }));
  const fitRows = (subset: typeof rows, l2: number) =>
    fitLogistic(
      subset,
      rows[0]!.f.map(() => true),
      l2,
    );
  const heldOut = (l2: number) => {
    const { loss, p: byRow } = heldOutLogistic(
      rows,
      FOLDS,
      (row) => data.foldOf.get(row.r.asked),
      (subset) => fitRows(subset, l2),
    );
    return { loss, p: new Map([...byRow].map(([row, p]) => [row.r, p])) };
  };
  process.stderr.write('answer model cross-validation (held-out log loss):\n');
  let best = { l2: L2[0]!, loss: Number.POSITIVE_INFINITY, p: new Map<Ranked, number>() };
  for (const l2 of L2) {
    const { loss, p } = heldOut(l2);
    process.stderr.write(`  l2 ${String(l2).padEnd(6)} ${loss.toFixed(4)}\n`);
    if (loss < best.loss) best = { l2, loss, p };
  }
  const answerThreshold = answerBand(ranked, best.p);
  const w = fitRows(rows, best.l2);
  return {
    answer: {
      bias: round(w.at(-1)!),
      weights: Object.fromEntries(
        ANSWER_FEATURES.map((name, j) => [name, round(w[j]!)]),
      ) as Features<AnswerFeature>,
    },
    answerThreshold,
  };
}

function featureRow(r: Ranked): number[] {
  const first = r.top[0]!;
  const features = answerFeatures(
    first.features,
    first.confidence,
    r.top.map((t) => t.ranked),
  );
  return ANSWER_FEATURES.map((name) => features[name]);
}
