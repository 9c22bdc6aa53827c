/**
 * How the engine blends its evidence. Tuned on the NewsQA questions in `../shared/data` with
 * `npm run eval`; a held-back half of that set checks that the tuning generalises.
 */
export interface RankingWeights {
  /** Weight of the whole article's relevance next to the passage's own (1). */
  article: number;
  /** Weight of the share of the question's (rarity-weighted) terms the passage holds. */
  coverage: number;
  /** Weight of the matched terms standing close together. */
  proximity: number;
  /** Bonus when the passage holds the kind of fact asked for (a name for "who", a number for "how much"). */
  answerType: number;
  /** MiniSearch boost of the headline field against the passage text (1). */
  titleBoost: number;
  /** MiniSearch weight of a fuzzy match against an exact one (1). */
  fuzzyWeight: number;
  /** How much a fuzzily matched question term counts towards coverage against an exact match (1). */
  fuzzyCoverage: number;
  /** Passages holding less of the question than this are not answers. */
  minPassageCoverage: number;
  /** ...nor those whose whole article, passage included, holds less than this. */
  minArticleCoverage: number;
  /** How many of the best passages by MiniSearch score are re-ranked. */
  candidates: number;
}

export const RANKING: RankingWeights = {
  article: 0.5,
  coverage: 0.3,
  proximity: 0.2,
  answerType: 0.1,
  titleBoost: 0.5,
  fuzzyWeight: 0.6,
  fuzzyCoverage: 0.75,
  minPassageCoverage: 0.25,
  minArticleCoverage: 0.5,
  candidates: 40,
};
