import { readFileSync } from 'node:fs';
import {
  type Features,
  parseRankingModel,
  RANK_FEATURES,
  RANKING_MODEL,
  type RankFeature,
} from '../../src/search/ranking-model.ts';
import { type FittingQuestion, FOLDS, type TuningData } from './measure.ts';
import { given, L2, mean, minimise, round } from './optimise.ts';
import type { FitOptions } from './options.ts';

/**
 * Step (2) of the fit: the ranking weights, a listwise logistic (softmax) model over each question's
 * candidates, maximising the probability of its answers. Which features it weighs and how strongly it
 * is regularised are chosen by 5-fold cross-validation over the tuning questions of every set together.
 */

/**
 * Ranking features each tried subset leaves out (weight 0): the cross-validation chooses among them.
 * The neighbour and speaker features and `proximity` gain nothing held out; the engine measures them
 * only for fitting.
 */
const RANKING_SUBSETS: Record<string, readonly RankFeature[]> = {
  all: [],
  'no negatives': ['speakerInContext', 'proximity'],
  'neighbours via a speaker only': ['contextOnly', 'proximity'],
  'no neighbours': ['contextOnly', 'speakerInContext', 'proximity', 'speakerBefore', 'factBesideContext'],
  'no neighbours but a fact beside them': ['contextOnly', 'speakerInContext', 'proximity', 'speakerBefore'],
  'no neighbours but the speaker before and a fact beside them': [
    'contextOnly',
    'speakerInContext',
    'proximity',
  ],
  compact: ['contextOnly', 'speakerInContext', 'proximity', 'lead', 'answerMeets'],
};

const K = RANK_FEATURES.length;

/**
 * The ranking weights as `options` ask: those of `rankingFrom` as they are; only `rankingFree`'s
 * refitted; or all fitted (features and L2 by cross-validation, by `rankingSubset`, or one strength
 * with `--no-search`). Prints each set's hit@1/3/5 of the fitted weights beside the shipped model's.
 */
export function fitRankingWeights(data: TuningData, options: FitOptions): Features<RankFeature> {
  const from = options.rankingFrom
    ? parseRankingModel(JSON.parse(readFileSync(options.rankingFrom, 'utf8')), options.rankingFrom).ranking
    : undefined;
  const refit = options.rankingFree === undefined ? undefined : freeFeatures(options.rankingFree);
  if (refit !== undefined && from === undefined)
    throw new Error('--ranking-free: name the model whose other weights are kept with --ranking-from');
  if (from !== undefined && refit === undefined) return from;
  const subset = options.rankingSubset;
  const chosen = refit
    ? chooseRefit(data, refit, from!, options.rankingL2)
    : !options.search
      ? { leftOut: [], l2: 1e-3 }
      : subset !== undefined
        ? { leftOut: given(RANKING_SUBSETS, subset), l2: options.rankingL2 ?? 0.1 }
        : chooseRanking(data);
  const w = fitRanking(data, answerableLists(data), chosen.leftOut, chosen.l2, refit ? from : undefined);
  process.stderr.write(
    refit
      ? `ranking: ${refit.join(', ')} refitted, the rest as ${options.rankingFrom} has them, l2 ${chosen.l2}\n`
      : `ranking: left out ${chosen.leftOut.join(', ') || 'nothing'}, l2 ${chosen.l2}\n`,
  );
  // The ranking alone on the tuning questions (before any "no coverage"), beside the model it replaces.
  const before = RANK_FEATURES.map((name) => RANKING_MODEL.ranking[name]);
  for (const [name, weights] of [
    ['fitted', w],
    ['current', before],
  ] as const) {
    const cells = [1, 3, 5].map((k) =>
      [...hitAtBySet(data, data.questions, weights, k)]
        .map(([set, hit]) => `${set} ${hit.toFixed(3)}`)
        .join('  '),
    );
    process.stderr.write(
      `  ${name.padEnd(8)} hit@1: ${cells[0]}\n           hit@3: ${cells[1]}\n           hit@5: ${cells[2]}\n`,
    );
  }
  return Object.fromEntries(RANK_FEATURES.map((name, j) => [name, round(w[j]!)])) as Features<RankFeature>;
}

/** The questions the ranking learns from: answerable, with the answer among their candidates. */
function answerableLists(data: TuningData): FittingQuestion[] {
  return data.questions.filter((a) => a.answerable && a.labels.some(Boolean));
}

/**
 * The ranking weights fitted on `lists`, those of `leftOut` held: at 0, or with `from` (`--ranking-free`)
 * at that model's weights, so that one feature just added is fitted with the rest as they are.
 */
function fitRanking(
  data: TuningData,
  lists: FittingQuestion[],
  leftOut: readonly RankFeature[],
  l2: number,
  from?: Features<RankFeature>,
): number[] {
  const free = RANK_FEATURES.map((name) => !leftOut.includes(name));
  const start = RANK_FEATURES.map((name, j) =>
    from ? from[name] : free[j] ? RANKING_MODEL.ranking[name] : 0,
  );
  // Every weight held (`--ranking-free`'s baseline, the weights as they were): nothing to fit.
  if (!free.some(Boolean)) return start;
  const { w } = minimise(start, free, l2, 200, 0.5, (w) => {
    const grad = w.map(() => 0);
    let loss = 0;
    let total = 0;
    for (const list of lists) {
      const x = data.rankRows.get(list)!;
      const n = list.candidates.length;
      const weight = data.rankingWeightOf(list.set);
      total += weight;
      const scores = new Float64Array(n);
      let max = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < K; j++) s += x[i * K + j]! * w[j]!;
        scores[i] = s;
        if (s > max) max = s;
      }
      let z = 0;
      let zPos = 0;
      for (let i = 0; i < n; i++) {
        const e = Math.exp(scores[i]! - max);
        scores[i] = e;
        z += e;
        if (list.labels[i]) zPos += e;
      }
      loss -= weight * Math.log(zPos / z);
      for (let i = 0; i < n; i++) {
        const d = weight * (scores[i]! / z - (list.labels[i] ? scores[i]! / zPos : 0));
        for (let j = 0; j < K; j++) grad[j]! += d * x[i * K + j]!;
      }
    }
    return { loss, grad, total };
  });
  return w;
}

/**
 * Per answerable set, hit@k of the ranking `w` over `asked` (questions without the answer among
 * candidates count as misses; ties broken by MiniSearch's order, as the engine's stable sort does).
 */
function hitAtBySet(
  data: TuningData,
  asked: FittingQuestion[],
  w: readonly number[],
  k = 1,
): Map<string, number> {
  const by = new Map<string, { n: number; hits: number }>();
  for (const a of asked) {
    if (!a.answerable) continue;
    const x = data.rankRows.get(a)!;
    const scores = a.candidates.map((_, i) => {
      let score = 0;
      for (let j = 0; j < K; j++) score += x[i * K + j]! * w[j]!;
      return score;
    });
    const order = scores.map((_, i) => i).sort((p, q) => scores[q]! - scores[p]!);
    const s = by.get(a.set) ?? { n: 0, hits: 0 };
    s.n++;
    if (order.slice(0, k).some((i) => a.labels[i])) s.hits++;
    by.set(a.set, s);
  }
  return new Map([...by].map(([set, s]) => [set, s.hits / s.n]));
}

/**
 * The mean over answerable sets of held-out (5-fold) hit@1 of a ranking fitted with `leftOut` held (at
 * `from`'s weights when given), each set counting alike; printed with each set's figure.
 */
function heldOutRankingScore(
  data: TuningData,
  name: string,
  leftOut: readonly RankFeature[],
  l2: number,
  from?: Features<RankFeature>,
): number {
  const lists = answerableLists(data);
  const perSet = new Map<string, number[]>();
  for (let fold = 0; fold < FOLDS; fold++) {
    const w = fitRanking(
      data,
      lists.filter((a) => data.foldOf.get(a) !== fold),
      leftOut,
      l2,
      from,
    );
    const heldOut = data.questions.filter((a) => data.foldOf.get(a) === fold);
    for (const [set, hit] of hitAtBySet(data, heldOut, w)) perSet.set(set, [...(perSet.get(set) ?? []), hit]);
  }
  const setMeans = new Map([...perSet].map(([set, hits]) => [set, mean(hits)]));
  const score = mean(setMeans.values());
  const cells = [...setMeans].map(([set, hit]) => `${set} ${hit.toFixed(3)}`).join('  ');
  process.stderr.write(
    `  ${name.padEnd(30)} l2 ${String(l2).padEnd(6)} ${cells}  mean ${score.toFixed(4)}\n`,
  );
  return score;
}

/**
 * Chooses the ranking's features and L2 strength by 5-fold cross-validation over the tuning questions
 * of every set together: the mean over answerable sets of held-out hit@1, each set counting alike, so a
 * change that helps NewsQA and hurts the seed set does not win.
 */
function chooseRanking(data: TuningData): { leftOut: readonly RankFeature[]; l2: number } {
  process.stderr.write(`ranking cross-validation (held-out hit@1 per set, then their mean):\n`);
  // The subsets at a middling strength first, then the strength for the best subset.
  let best = { leftOut: [] as readonly RankFeature[], l2: L2[1]!, score: -1 };
  for (const [name, leftOut] of Object.entries(RANKING_SUBSETS)) {
    const score = heldOutRankingScore(data, name, leftOut, best.l2);
    // On a tie, the model with fewer free weights.
    const simpler = score === best.score && leftOut.length > best.leftOut.length;
    if (score > best.score || simpler) best = { ...best, leftOut, score };
  }
  const name = Object.entries(RANKING_SUBSETS).find(([, leftOut]) => leftOut === best.leftOut)![0];
  for (const l2 of L2.filter((l2) => l2 !== best.l2)) {
    const score = heldOutRankingScore(data, name, best.leftOut, l2);
    if (score > best.score) best = { ...best, l2, score };
  }
  return best;
}

/**
 * `--ranking-free`: only `refit`'s weights fitted, the others held at `from`'s; the L2 strength chosen
 * by the same cross-validation as the whole ranking's (`l2` names it instead).
 */
function chooseRefit(
  data: TuningData,
  refit: readonly RankFeature[],
  from: Features<RankFeature>,
  l2: number | undefined,
): { leftOut: readonly RankFeature[]; l2: number } {
  const leftOut = RANK_FEATURES.filter((name) => !refit.includes(name));
  if (l2 !== undefined) return { leftOut, l2 };
  process.stderr.write(
    `cross-validation of ${refit.join(', ')} (held-out hit@1 per set, then their mean):\n`,
  );
  const name = `${refit.join(', ')} refitted`;
  const kept = heldOutRankingScore(data, 'none refitted', RANK_FEATURES, 0, from);
  let best = { leftOut, l2: L2[0]!, score: Number.NEGATIVE_INFINITY };
  for (const l2 of L2) {
    const score = heldOutRankingScore(data, name, leftOut, l2, from);
    if (score > best.score) best = { leftOut, l2, score };
  }
  process.stderr.write(
    `  (held out, ${best.score >= kept ? 'at least as good as' : 'worse than'} the weights as they were)\n`,
  );
  return best;
}

/** `--ranking-free`'s features, checked against the ranking's. */
function freeFeatures(list: string): RankFeature[] {
  const names = list.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(RANK_FEATURES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(
      `--ranking-free: no ranking feature ${unknown.join(', ')}; choose from ${RANK_FEATURES.join(', ')}`,
    );
  return names as RankFeature[];
}
