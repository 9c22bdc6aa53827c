import type { AnswerFeature, ConfidenceFeature, Features } from './ranking-model.ts';

/** How many of the first results the shape is read from. */
export const SHAPE_DEPTH = 5;

/** One ranked result as the answer features read it. */
export interface RankedResult {
  score: number;
  article: string;
  /** The ranking features `article` and `passage`. */
  articleRelevance: number;
  passageRelevance: number;
}

const GAP_CAP = 3;

/**
 * The answer model's features of a ranking (`ANSWER_FEATURES` in ranking-model.ts): `first` the first
 * result's confidence features and `confidence` its coverage confidence; `ranked` the results best first
 * (at least the first).
 */
export function answerFeatures(
  first: Features<ConfidenceFeature>,
  confidence: number,
  ranked: readonly RankedResult[],
): Features<AnswerFeature> {
  const top = ranked[0]!;
  const shown = ranked.slice(0, SHAPE_DEPTH);
  const other = shown.find((result) => result.article !== top.article) ?? shown.at(-1)!;
  const p = Math.min(1 - 1e-9, Math.max(1e-9, confidence));
  const gap = (score: number | undefined) =>
    Math.min(GAP_CAP, score === undefined ? GAP_CAP : top.score - score);
  return {
    ...first,
    coverageLogit: Math.log(p / (1 - p)),
    secondGap: gap(ranked[1]?.score),
    otherArticleGap: other === top ? GAP_CAP : gap(other.score),
    articles: new Set(shown.map((result) => result.article)).size / SHAPE_DEPTH,
    sameArticle: ranked.slice(0, 3).filter((result) => result.article === top.article).length / 3,
    article: top.articleRelevance,
    passage: top.passageRelevance,
  };
}
