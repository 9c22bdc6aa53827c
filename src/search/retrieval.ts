import { z } from 'zod';

/**
 * Retrieval settings: how the engine searches (BM25 parameters, boosts, fuzzy matching) and how many
 * candidates it re-ranks, set by hand with `npm run eval -- --retrieval`. How candidates are then
 * scored, and when nothing answers, is the fitted model's weights (`RankingModel`, `ranking-model.ts`).
 */
export interface RetrievalSettings {
  /** BM25 parameters of the passage index (MiniSearch's defaults: k 1.2, b 0.7, d 0.5). */
  bm25: { k: number; b: number; d: number };
  /**
   * BM25 parameters of the article index. A stronger length normalisation trades one set against
   * another (seed against NewsQA), so it is MiniSearch's default.
   */
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
  /**
   * How many postings (passages holding a searched term, summed over terms) one question may make
   * MiniSearch score; past it the most common terms are found by re-ranking instead of by search. At
   * 3,000 rather than 1,500 the right story is among the candidates more often over the 24k archive
   * (the answer is among them for 90% of BBC/Reuters' tuning questions against 82%, 68% of NewsQA's
   * against 66%) for 1.1-1.35x the wall time per question (`npm run bench:retrieval`); at 5,000 (94%,
   * 71%, 1.45x) the readers' test half lost a question.
   */
  postingBudget: number;
  /**
   * A question whose rarest term is in more passages than this is answered "no coverage found"
   * unsearched. Off (infinite): such a question ("Who were shot and killed?") is searched by its rarest
   * term, and the confidence's bands say whether anything found is an answer, the closest coverage or
   * nothing. At 1,500, 65 of NewsQA's 2,130 questions over the 24k archive were turned away unsearched
   * (4.0% of its test half "no coverage", against the target of 2%); searched, they get closest coverage
   * (one an answer, a wrong one) and NewsQA's "no coverage" is 0.8%; no off-topic reply changed and no
   * hit was lost.
   */
  vagueQuestionPostings: number;
  /**
   * How many of the best passages by MiniSearch score are re-ranked. Each candidate's features cost
   * (with common words the passage is tokenized): 100 passages and 6 articles cost 1.5x the CPU per
   * question at 121k passages for a question or two more answered per set.
   */
  candidates: number;
  /** Every matching passage of this many best-matching articles is re-ranked too. */
  articleCandidates: number;
  /**
   * How many passages of everyday English (`everyday-words.ts`) a term's rarity is reckoned over beside
   * the corpus's own: a prior that matters in a small corpus and fades in a large one. Over the 52 seed
   * passages, without it "go" (in 2) outweighs "Teteghem" (in 5) and a question's everyday words the
   * articles happen not to use ("become", "recently") count as rare as a word can be, so answerable
   * seed questions were turned away; 300 was chosen on the seed tuning half (1000 and 3000 gained less),
   * and it changes no answer over NewsQA's 10,000 passages.
   */
  everydayPassages: number;
}

export const RETRIEVAL: RetrievalSettings = {
  bm25: { k: 1.2, b: 0.7, d: 0.5 },
  articleBm25: { k: 1.2, b: 0.7, d: 0.5 },
  nameBoost: 1.5,
  titleBoost: 0.25,
  contextBoost: 0.1,
  fuzzyWeight: 0.6,
  fuzzyCoverage: 0.75,
  postingBudget: 3000,
  vagueQuestionPostings: Number.POSITIVE_INFINITY,
  candidates: 40,
  articleCandidates: 3,
  everydayPassages: 300,
};

const bm25 = z.strictObject({ k: z.number(), b: z.number(), d: z.number() });
const count = z.number().int().nonnegative();
const SETTINGS_SCHEMA = z.strictObject({
  bm25,
  articleBm25: bm25,
  nameBoost: z.number(),
  titleBoost: z.number(),
  contextBoost: z.number(),
  fuzzyWeight: z.number(),
  fuzzyCoverage: z.number(),
  postingBudget: count,
  vagueQuestionPostings: count,
  candidates: count,
  articleCandidates: count,
  everydayPassages: z.number().nonnegative(),
}) satisfies z.ZodType<RetrievalSettings>;

/**
 * `RETRIEVAL` with the settings of a parsed JSON object in place of its own (`--retrieval '{"nameBoost":2}'`).
 * Throws naming `source` and the first setting that is unknown or not a number of the right kind.
 */
export function parseRetrievalSettings(value: unknown, source = 'retrieval settings'): RetrievalSettings {
  const parsed = SETTINGS_SCHEMA.partial().safeParse(value);
  if (parsed.success) return { ...RETRIEVAL, ...parsed.data };
  const issue = parsed.error.issues[0]!;
  const at = [...issue.path, ...('keys' in issue ? issue.keys : [])].join('.');
  throw new Error(
    `${source}: expected an object of retrieval settings (${Object.keys(RETRIEVAL).join(', ')}), each a number${at ? ` (at ${at})` : ''}`,
  );
}
