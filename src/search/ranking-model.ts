import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * What the ranking knows of one candidate passage, each feature about 0..1. The ranking score is a
 * linear model of these, and the confidence that the passage answers is a logistic model of them and
 * of how specific the question's matched words are; both are fitted by `npm run fit-ranking` and
 * kept as data in `ranking-model.json`.
 */
export const RANK_FEATURES = [
  /** MiniSearch's BM25 score of the passage over the best passage's. */
  'passage',
  /** The article's BM25 score over the best article's. */
  'article',
  /** Share of the question's rarity-weighted terms in the passage's own text. */
  'coverage',
  /** ...in the passage's whole article. */
  'articleCoverage',
  /** Share of the question's weight found only in the neighbouring paragraphs (who "she" is). */
  'contextOnly',
  /**
   * `contextOnly` when the passage speaks through a pronoun ("she added", "he said"): the neighbours
   * then name the speaker the question asks about.
   */
  'speakerInContext',
  /**
   * A passage speaking through a pronoun or continuing a quote: share of the question's weight it lacks
   * that the three passages before it hold (who is speaking).
   */
  'speakerBefore',
  /**
   * `contextOnly` when the passage holds the kind of fact asked for: the question's words name the
   * topic in the paragraph before or after, and this one gives the name, sum or date. Like the other
   * neighbour and speaker features and `proximity`, it gains nothing held out and the model weighs it 0;
   * the engine measures such features only for fitting.
   */
  'factBesideContext',
  /** The inverted pyramid: the article's relevance over (1 + the passage's place in it). */
  'lead',
  /** The passage holds the kind of fact asked for (a name for "who", a sum for "how much"). */
  'answerType',
  /** A "how much", "how many" or "when" question and no sum, number or date in the passage. */
  'askedFactMissing',
  /** The answer-type fact stands in a sentence with the question's rarest matched words. */
  'answerMeets',
  /** Matched terms close together: (distinct terms - 1) / width of the narrowest window holding all. */
  'proximity',
  /** The most question weight one sentence-sized window holds, over the question's total. */
  'window',
  /** Share of the question's adjacent word pairs standing together in the passage. */
  'phrase',
  /**
   * A "how many" or "how much" question, and a number just before what it counts: "1.7 million stolen
   * credit card numbers" for "How many stolen credit card numbers did the gang trade?" (`counted-term.ts`).
   */
  'countsAsked',
] as const;
export type RankFeature = (typeof RANK_FEATURES)[number];

/** Features measured on the passage's tokens, only for candidates that can still reach the page. */
export const LAYOUT_FEATURES: readonly RankFeature[] = [
  'proximity',
  'window',
  'phrase',
  'answerMeets',
  'countsAsked',
];

/**
 * Ranking features that choose among the passages of a story without telling whether the corpus covers
 * the question: the confidence reads the ranking score without their part (`coverageScore`). A number
 * before what "how many" counts picks the paragraph that gives the count, but an off-topic "How many
 * people died in the Grenfell Tower fire?" finds one too ("Three elderly people died", in another fire).
 */
export const PLACEMENT_FEATURES: readonly RankFeature[] = ['countsAsked'];

/** The ranking score as the confidence reads it: without the part of the `PLACEMENT_FEATURES`. */
export function coverageScore(weights: Features<RankFeature>, features: Features<RankFeature>): number {
  let sum = linear(weights, features);
  for (const name of PLACEMENT_FEATURES) sum -= weights[name] * features[name];
  return sum;
}

/** Features of the question and its match that say how sure a result is, beside the ranking's. */
export const CONFIDENCE_FEATURES = [
  /** The ranking score. */
  'score',
  'coverage',
  'articleCoverage',
  'answerType',
  'askedFactMissing',
  'answerMeets',
  'window',
  /** Share of the question's weight in words the corpus has never seen ("capital of Australia" in Calais news). */
  'unknownShare',
  /** The rarest matched word's rarity, as the share of passages it is absent from, log-scaled: 1 - log(1+df)/log(1+N). */
  'specificity',
  /** Rarity (idf) of the matched words, summed, over 10: how much evidence matched at all. */
  'matchedIdf',
  /** The rarest question word of the corpus that the passage (with its neighbours) lacks: its idf over log(1+N). */
  'missingRarest',
  /** Share of the weight of the question's two rarest known words that the passage (with neighbours) lacks. */
  'rareMissing',
  /** 1 when the question names a number or year ("in 2018") that neither the passage nor its article holds. */
  'numberMissing',
  /** Share of the weight of the question's words the corpus has that the passage (with neighbours) holds. */
  'knownCoverage',
  /** ...that the passage's article holds. */
  'knownArticleCoverage',
  /** The idf of the rarest known question word the passage (with neighbours) lacks, over 10 (not scaled by the corpus). */
  'missingIdf',
  /** ...that the whole article lacks. */
  'articleMissingIdf',
  /** 1 when the question's rarest known word is not in the passage or its neighbours. */
  'rarestMissing',
  /**
   * (matched idf - log(1+N)) / 10: about log(1 / the number of passages that would hold all the matched
   * words by chance). Two common words match somewhere in a large archive by chance; a rare name and
   * three words together do not.
   */
  'surprise',
  /** Rarity (idf) of the known question words that neither the passage nor its article holds, summed, over 10. */
  'articleMissingWeight',
  /**
   * How rarely the corpus mentions the year the question names: its idf over log(1+N) (0 without a
   * year). An archive that covers a year mentions it in many passages; "the 2022 World Cup" over
   * coverage that ends in 2015 finds a handful of forecasts.
   */
  'yearRarity',
  /** 1 when the question speaks of the asker or the reader ("How do I...?"): see `speaksOfAsker`. */
  'speaksOfAsker',
  /**
   * Rarity (idf) of the known question words naming what it is about (nouns, proper nouns, numbers; see
   * `focusWords`) that neither the passage nor its article holds, summed, over 10. A reader checks the
   * subject ("seasons", "Stoltenberg"), not the verbs ("causes", "succeeded").
   */
  'focusArticleMissing',
  /** ...that the passage (with its neighbours) lacks. */
  'focusMissing',
  /** Share of the weight of those words that the corpus has never seen. */
  'focusUnknownShare',
] as const;
export type ConfidenceFeature = (typeof CONFIDENCE_FEATURES)[number];

/**
 * What says whether the first results hold the answer, beyond whether the corpus covers the question:
 * how far the first result stands above the others (`answer-features.ts`). When a question fits several
 * stories alike ("How many were wounded?"), the first result is about as good as the next article's,
 * and more often wrong.
 */
export const SHAPE_FEATURES = [
  /** The coverage confidence of the first result, as log odds. */
  'coverageLogit',
  /** The first result's ranking score over the second's (at most 3). */
  'secondGap',
  /** ...over the best of another article among the first five (else the fifth; at most 3). */
  'otherArticleGap',
  /** Distinct articles among the first five results, over 5. */
  'articles',
  /** Share of the first 3 results from the first result's article. */
  'sameArticle',
  /** The first result's article relevance and passage relevance (ranking features `article`, `passage`). */
  'article',
  'passage',
] as const;
export type ShapeFeature = (typeof SHAPE_FEATURES)[number];

/** Features of the answer model: the first result's confidence features and the shape of the ranking. */
export const ANSWER_FEATURES = [...CONFIDENCE_FEATURES, ...SHAPE_FEATURES] as const;
export type AnswerFeature = (typeof ANSWER_FEATURES)[number];

export type Features<Name extends string> = Record<Name, number>;

/** A logistic model: the probability is 1 / (1 + e^-(bias + weights · features)). */
export interface LogisticWeights<Name extends string> {
  bias: number;
  weights: Features<Name>;
}
export type ConfidenceWeights = LogisticWeights<ConfidenceFeature>;

export interface RankingModel {
  /** Weights of the ranking score, a linear model of `RANK_FEATURES`. */
  ranking: Features<RankFeature>;
  /**
   * Logistic model, from `CONFIDENCE_FEATURES`, of the probability that the corpus covers the question,
   * given this passage as its answer.
   */
  confidence: ConfidenceWeights;
  /** A passage is likely about the question when its confidence is at least this (a timeline's entries). */
  threshold: number;
  /**
   * The "no coverage" band: a first result less confident than this is no reply at all; otherwise the
   * results at least this confident are shown, as an answer or as the closest coverage.
   */
  closestThreshold: number;
  /**
   * Logistic model, from `ANSWER_FEATURES`, of the probability that the first 3 results hold the answer:
   * at least `answerThreshold` (and the corpus covering the question, above), the reply is an answer;
   * below it, the closest coverage.
   */
  answer: LogisticWeights<AnswerFeature>;
  answerThreshold: number;
}

export function linear<Name extends string>(weights: Features<Name>, features: Features<Name>): number {
  let sum = 0;
  for (const name in weights) sum += weights[name] * features[name];
  return sum;
}

export function confidenceOf(model: RankingModel, features: Features<ConfidenceFeature>): number {
  return logistic(model.confidence, features);
}

export function logistic<Name extends string>(
  model: LogisticWeights<Name>,
  features: Features<Name>,
): number {
  return 1 / (1 + Math.exp(-(model.bias + linear(model.weights, features))));
}

const weight = z.number();

/** Every named weight, a number. */
function allWeights<Name extends string>(names: readonly Name[]) {
  return z.object(Object.fromEntries(names.map((name) => [name, weight])) as Record<Name, typeof weight>);
}

/**
 * A logistic model whose features the file does not weigh yet count 0 (a feature just added, before
 * `npm run fit-ranking --ranking-from` refits it); names it does not know are dropped.
 */
function logisticWeights<Name extends string>(names: readonly Name[]) {
  return z
    .object({ bias: weight.default(0), weights: z.record(z.string(), weight).default({}) })
    .transform(({ bias, weights }) => ({
      bias,
      weights: Object.fromEntries(names.map((name) => [name, weights[name] ?? 0])) as Features<Name>,
    }));
}

const MODEL_SCHEMA = z
  .object({
    ranking: allWeights(RANK_FEATURES),
    confidence: logisticWeights(CONFIDENCE_FEATURES),
    threshold: weight,
    closestThreshold: weight,
    answer: logisticWeights(ANSWER_FEATURES),
    answerThreshold: weight,
  })
  .refine((model) => model.closestThreshold <= model.threshold, {
    message: 'closestThreshold must be no higher than threshold',
    path: ['closestThreshold'],
  });

/**
 * Checks a parsed model file: every ranking feature weighted, numbers only, the bands in order. Throws
 * naming the file and the first field that is wrong otherwise. Confidence and answer features it lacks
 * weigh 0 until refitted.
 */
export function parseRankingModel(value: unknown, source = 'ranking model'): RankingModel {
  const parsed = MODEL_SCHEMA.safeParse(value);
  if (parsed.success) {
    return { ...parsed.data, ranking: pick(parsed.data.ranking, RANK_FEATURES) };
  }
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length > 0 ? ` (at ${issue.path.join('.')})` : '';
  throw new Error(
    `${source}: expected ranking weights for ${RANK_FEATURES.join(', ')}, confidence and answer models, and the bands threshold, closestThreshold (no higher) and answerThreshold${where}`,
  );
}

function pick<Name extends string>(record: Features<Name>, names: readonly Name[]): Features<Name> {
  return Object.fromEntries(names.map((name) => [name, record[name]])) as Features<Name>;
}

export const MODEL_FILE = new URL('./ranking-model.json', import.meta.url);

/** The fitted model the engine ranks with unless told otherwise. */
export const RANKING_MODEL: RankingModel = parseRankingModel(
  JSON.parse(readFileSync(MODEL_FILE, 'utf8')),
  MODEL_FILE.pathname,
);
