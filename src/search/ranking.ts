/**
 * How the engine blends its evidence. Tuned with `npm run eval` on the odd-numbered NewsQA questions in
 * `../shared/data`; the even-numbered ones, never used for tuning, check that it generalises.
 */
export interface RankingWeights {
  /** Weight of the whole article's relevance next to the passage's own (1). */
  article: number;
  /** Weight of the share of the question's (rarity-weighted) terms the passage holds. */
  coverage: number;
  /** Weight of the matched terms standing close together. */
  proximity: number;
  /** Weight of the most question-term weight one sentence-sized window of the passage holds. */
  window: number;
  /** Weight of the share of the question's adjacent word pairs found together in the passage. */
  phrase: number;
  /** Bonus when the passage holds the kind of fact asked for (a name for "who", a number for "how many"). */
  answerType: number;
  /**
   * Weight of a passage's place in its article, as `1 / (1 + index)`: news is written as an inverted
   * pyramid, and the opening paragraph carries the who, what, when and where.
   */
  lead: number;
  /** The lead bonus is scaled by the article's relevance to this power: a lede counts in a relevant story. */
  leadArticlePower: number;
  /** BM25 parameters of the passage index (MiniSearch's defaults: k 1.2, b 0.7, d 0.5). */
  bm25: { k: number; b: number; d: number };
  /** BM25 parameters of the article index. */
  articleBm25: { k: number; b: number; d: number };
  /** Boost of question terms written as proper names (capitalised, not the first word). */
  nameBoost: number;
  /** MiniSearch boost of the neighbouring passages' text against the passage's own (1). */
  contextBoost: number;
  /** MiniSearch boost of the headline against the article text (1) in the article index. */
  titleBoost: number;
  /** MiniSearch weight of a fuzzy match against an exact one (1). */
  fuzzyWeight: number;
  /** How much a fuzzily matched question term counts towards coverage against an exact match (1). */
  fuzzyCoverage: number;
  /** Passages holding less of the question than this are not answers. */
  minPassageCoverage: number;
  /** ...nor those whose whole article, passage included, holds less than this. */
  minArticleCoverage: number;
  /**
   * Drop passages without the sum, number or date a "how much did it cost", "how many" or "when"
   * question asks for: a passage about the right town without a number does not say how many live there.
   */
  requireAskedFact: boolean;
  /**
   * How many postings (passages holding a searched term, summed over terms) one question may make
   * MiniSearch score; past it the most common terms are found by re-ranking instead of by search.
   */
  postingBudget: number;
  /**
   * A question whose rarest term is in more passages than this names no topic ("what did he say?",
   * "when was she taken?"): it is answered "no coverage found" instead of scoring a large share of the
   * corpus for a passage that would only share a common word with it. At 1,500 (the posting budget),
   * 65 of NewsQA's 2,130 questions are vague against 121,000 passages, and not one of them was
   * answered within the first five results before; none is against NewsQA's own 10,000.
   */
  vagueQuestionPostings: number;
  /** How many of the best passages by MiniSearch score are re-ranked. */
  candidates: number;
  /** Every matching passage of this many best-matching articles is re-ranked too. */
  articleCandidates: number;
}

export const RANKING: RankingWeights = {
  article: 1,
  coverage: 0.3,
  proximity: 0.2,
  window: 0.9,
  answerType: 0.5,
  phrase: 0.3,
  lead: 0.8,
  leadArticlePower: 1,
  bm25: { k: 1.2, b: 0.7, d: 0.5 },
  articleBm25: { k: 1.2, b: 0.7, d: 0.5 },
  nameBoost: 1.5,
  titleBoost: 0.25,
  contextBoost: 0.1,
  fuzzyWeight: 0.6,
  fuzzyCoverage: 0.75,
  minPassageCoverage: 0.25,
  minArticleCoverage: 0.45,
  requireAskedFact: true,
  postingBudget: 1500,
  vagueQuestionPostings: 1500,
  candidates: 40,
  articleCandidates: 3,
};
