import type { SearchResult } from 'minisearch';
import type { Steps } from '../event-loop.ts';
import { splitSentences } from '../text/sentences.ts';
import type { Token, WordCache } from './analyze.ts';
import { type AnswerType, answeringEntities, mentionsAnswerType } from './answer-type.ts';
import { confidenceFeatures, type MatchEvidence } from './confidence.ts';
import type { Located } from './corpus-lookup.ts';
import { countsTerm } from './counted-term.ts';
import { termLayout } from './proximity.ts';
import { sentenceWeight } from './quote.ts';
import {
  type ConfidenceFeature,
  confidenceOf,
  coverageScore,
  type Features,
  LAYOUT_FEATURES,
  linear,
  type RankFeature,
  type RankingModel,
} from './ranking-model.ts';

/**
 * Feature extraction: what the ranking knows of each candidate passage (`RANK_FEATURES`), measured in
 * two passes (the features that need no tokens of the passage for every candidate, `candidateOf`; how
 * the matched words lie for those that can still reach the page, `measureLayout`), then the
 * confidence features of the candidates that may be shown (`judge`). The engine retrieves the
 * candidates and decides what is shown; this module only measures them.
 */

/** What feature extraction reads of the engine: its corpus's statistics, settings and fitted model. */
export interface FeatureSource {
  readonly model: RankingModel;
  /** The words the engine's questions and passages are analysed with. */
  readonly words: WordCache;
  /** How much a fuzzily matched question term counts towards coverage (`RetrievalSettings.fuzzyCoverage`). */
  readonly fuzzyCoverage: number;
  /** The passages a term's rarity is reckoned over: the corpus's and the everyday-English prior's. */
  readonly passages: number;
  /** A term's rarity (the engine's `idf`). */
  idf(term: string): number;
  /** How many passages hold the term. */
  df(term: string): number;
  /** Whether the corpus has the term at all. */
  has(term: string): boolean;
  /** The passage of a citation, with its article. */
  located(citation: string): Located | undefined;
  /** A passage's tokens (`tokenize` with `words`), remembered across questions (`PassageTokens`). */
  tokens(passage: Located['passage']): readonly Token[];
}

/** A passage retrieved for a question, with what it matched and its measured features. */
export interface Candidate {
  located: Located;
  score: number;
  /** Indexed terms of the passage that matched the question, with their weights. */
  matchedTerms: Map<string, number>;
  /** Question terms found in the passage or its neighbours. */
  inPassage: Set<string>;
  /** Question terms found in the passage's article. */
  articleTerms: Set<string>;
  /** The passage's tokens, when ranking needed them already. */
  tokens: readonly Token[] | undefined;
  features: Features<RankFeature>;
  /** Its place among the passages MiniSearch found, best first (0-based). */
  hitRank: number;
  /** Its article's place among the articles MiniSearch found (0-based), null when not found. */
  articleRank: number | null;
  /** How specific its match is, measured for the candidates that may be shown. */
  evidence?: MatchEvidence;
  /** Calibrated probability that the passage answers the question (0 for those not measured). */
  confidence: number;
  /** The confidence features it was judged on (for those measured). */
  judged?: Features<ConfidenceFeature>;
}

/** What MiniSearch found for a question. */
export interface Retrieved {
  hits: SearchResult[];
  /** Matching articles by id. */
  articleHits: Map<string, SearchResult>;
  topArticleScore: number;
  topPassageScore: number;
  /** Each found article's place by score, best first. */
  articleRanks: Map<string, number>;
  /** Question terms too common to search, counted wherever they appear in a candidate. */
  common: string[];
  /** The searched question terms a found passage holds in its own text, by citation. */
  textTerms: (citation: string) => Set<string> | undefined;
}

/** A question as the ranking weighs it. */
export interface Asked {
  terms: string[];
  type: AnswerType;
  /** Each term's rarity (idf). */
  termWeights: Map<string, number>;
  totalWeight: number;
  /** The question speaks of the asker ("How do I...?"; see `speaksOfAsker`). */
  speaksOfAsker: boolean;
  /** Terms of what the question is about (see `focusTerms`). */
  focus: ReadonlySet<string>;
  /** What a "how many" question counts (see `countedTerm`). */
  counted: string | undefined;
  /** Whether a mention is made of the question's own words (then it cannot be the answer). */
  isKnown: (mention: string) => boolean;
  /** Pairs of question terms next to each other in the question ("le touquet", "english mafia"). */
  pairs: ReadonlySet<string>;
}

/**
 * A candidate with the features that need no tokens of the passage (unless common terms do). With
 * `everyFeature` (fitting), those the model weighs 0 are measured too; otherwise they are left 0.
 */
export function candidateOf(
  source: FeatureSource,
  hit: SearchResult,
  hitRank: number,
  retrieved: Retrieved,
  asked: Asked,
  everyFeature: boolean,
): Candidate | undefined {
  const located = source.located(String(hit.id));
  if (!located) return undefined;
  const { termWeights, totalWeight, type, isKnown } = asked;
  const matchedTerms = new Map(hit.terms.map((term) => [term, source.idf(term)]));
  const inPassage = new Set(hit.queryTerms);
  const own = textTerms(hit);
  // The neighbour and speaker features weigh 0 in the shipped model: measured only for fitting.
  const weighs = (name: RankFeature) => everyFeature || source.model.ranking[name] !== 0;
  const speakerBefore = weighs('speakerBefore') ? speakerBeforeShare(located, own, retrieved, asked) : 0;
  let contextOnly = 0;
  if (weighs('contextOnly') || weighs('speakerInContext') || weighs('factBesideContext')) {
    for (const term of hit.terms) {
      if (!hit.match[term]?.includes('text')) contextOnly += source.idf(term);
    }
  }
  let tokens: readonly Token[] | undefined;
  if (retrieved.common.length > 0) {
    tokens = source.tokens(located.passage);
    const present = new Set(tokens.map((token) => token.term));
    for (const term of retrieved.common) {
      if (!present.has(term)) continue;
      inPassage.add(term);
      own.add(term);
      matchedTerms.set(term, termWeights.get(term)!);
    }
  }
  const articleHit = retrieved.articleHits.get(located.article.id);
  const articleTerms = new Set(articleHit?.queryTerms ?? []);
  const articleShare = (articleHit?.score ?? 0) / retrieved.topArticleScore;
  const holdsAnswerType = mentionsAnswerType(located.passage.text, type, isKnown);
  const asksForFact = type === 'money' || type === 'quantity' || type === 'time';
  const neighbours = Math.min(1, contextOnly / totalWeight);
  const features: Features<RankFeature> = {
    passage: hit.score / retrieved.topPassageScore,
    article: articleShare,
    coverage: covered(source, own, asked),
    articleCoverage: covered(source, new Set([...inPassage, ...articleTerms]), asked),
    contextOnly: neighbours,
    speakerInContext:
      neighbours > 0 && weighs('speakerInContext') && PRONOUN_SPEAKER.test(located.passage.text)
        ? neighbours
        : 0,
    speakerBefore,
    factBesideContext: holdsAnswerType ? neighbours : 0,
    lead: articleShare / (1 + located.passage.index),
    answerType: holdsAnswerType ? 1 : 0,
    askedFactMissing: asksForFact && !holdsAnswerType ? 1 : 0,
    answerMeets: 0,
    proximity: 0,
    window: 0,
    phrase: 0,
    countsAsked: 0,
  };
  const score = linear(source.model.ranking, features);
  const articleRank = retrieved.articleRanks.get(located.article.id) ?? null;
  return {
    located,
    score,
    matchedTerms,
    inPassage,
    articleTerms,
    tokens,
    features,
    hitRank,
    articleRank,
    confidence: 0,
  };
}

/**
 * For a passage that speaks through a pronoun or continues a quote, the share of the question's weight
 * it lacks that the three passages before it hold, where the speaker is named ("Madeleine Darneux, 39,
 * said", then three paragraphs of her words). Read from the searched terms each found passage holds:
 * no passage is tokenized for it.
 */
function speakerBeforeShare(
  { article, passage }: Located,
  own: ReadonlySet<string>,
  { textTerms }: Retrieved,
  { termWeights, totalWeight }: Asked,
): number {
  if (passage.index === 0 || !(PRONOUN_SPEAKER.test(passage.text) || OPENS_QUOTE.test(passage.text))) {
    return 0;
  }
  const before = new Set<string>();
  for (let i = Math.max(0, passage.index - SPEAKER_REACH); i < passage.index; i++) {
    for (const term of textTerms(article.passages[i]!.id) ?? []) if (!own.has(term)) before.add(term);
  }
  let sum = 0;
  for (const term of before) sum += termWeights.get(term) ?? 0;
  return Math.min(1, sum / totalWeight);
}

/** The rarity-weighted share of the question's terms among `matched` (a fuzzy match counts less). */
function covered(
  source: FeatureSource,
  matched: ReadonlySet<string>,
  { termWeights, totalWeight }: Asked,
): number {
  let sum = 0;
  for (const [term, weight] of termWeights) {
    if (!matched.has(term)) continue;
    sum += weight * (source.has(term) ? 1 : source.fuzzyCoverage);
  }
  return sum / totalWeight;
}

/**
 * The layout of the matched words adds at most the sum of the layout weights, and needs the passage
 * tokenized: it is measured only for candidates that could still reach the places wanted, best
 * first; the rest keep their lower bound. Leaves the candidates sorted by score, the places wanted
 * exact. Past them, some candidates that would have been measured are left for the steps returned:
 * for a caller that reads past the places wanted (stories, timelines), they measure those and order
 * the candidates exactly as measuring every one of them at once would.
 */
export function* measureLayout(
  source: FeatureSource,
  candidates: Candidate[],
  asked: Asked,
  wanted: number,
): Steps<() => Steps<void>> {
  const { totalWeight, type, isKnown, counted, pairs } = asked;
  const model = source.model;
  // `proximity` weighs 0 in the shipped model: measured only for fitting (every layout measured).
  const proximity = wanted === Number.POSITIVE_INFINITY || model.ranking.proximity !== 0;
  candidates.sort((a, b) => b.score - a.score);
  const firstOrder = [...candidates];
  let layoutAtMost = 0;
  // A question that counts nothing leaves `countsAsked` 0 for every passage.
  for (const name of LAYOUT_FEATURES) {
    if (name !== 'countsAsked' || counted !== undefined) layoutAtMost += Math.max(0, model.ranking[name]);
  }
  const meetsAtMost = Math.max(0, model.ranking.answerMeets);
  const layout = (candidate: Candidate): void => {
    const tokens = candidate.tokens ?? source.tokens(candidate.located.passage);
    const measured = termLayout(tokens, candidate.matchedTerms, totalWeight, proximity);
    const f = candidate.features;
    f.proximity = measured.proximity;
    f.window = measured.densestWindow;
    f.phrase = phraseShare(tokens, pairs);
    f.countsAsked = counted !== undefined && countsTerm(tokens, counted) ? 1 : 0;
    candidate.score = linear(model.ranking, f);
  };
  const meets = (candidate: Candidate): void => {
    const { passage } = candidate.located;
    candidate.features.answerMeets = answerMeets(
      passage.text,
      candidate.matchedTerms,
      totalWeight,
      type,
      isKnown,
    );
    candidate.score = linear(model.ranking, candidate.features);
  };
  const withoutLayout: Candidate[] = [];
  const withoutMeets: Candidate[] = [];
  const best: number[] = [];
  for (const candidate of candidates) {
    if (best.length >= wanted && candidate.score + layoutAtMost < best[wanted - 1]!) break;
    // Past the places wanted, most candidates measured at 121k passages (33 of 53 a question) end below
    // them. One whose matched words weigh too little to get there at its best layout is left
    // untokenized: `best` would not have changed, nor any place wanted.
    if (
      best.length >= wanted &&
      candidate.score + layoutAtMostOf(candidate, asked, model) + BOUND_MARGIN < best[wanted - 1]!
    ) {
      withoutLayout.push(candidate);
      continue;
    }
    yield;
    layout(candidate);
    // `answerMeets` needs the passage's language analysis (wink-nlp, about 0.1 ms a passage at 121k
    // passages, rarely remembered across questions): likewise left out where it cannot matter.
    if (best.length < wanted || candidate.score + meetsAtMost + BOUND_MARGIN >= best[wanted - 1]!)
      meets(candidate);
    else withoutMeets.push(candidate);
    const at = best.findIndex((score) => score < candidate.score);
    best.splice(at < 0 ? best.length : at, 0, candidate.score);
  }
  candidates.sort((a, b) => b.score - a.score);
  return function* measureTheRest(): Steps<void> {
    if (withoutLayout.length === 0 && withoutMeets.length === 0) return;
    for (const candidate of withoutLayout) {
      yield;
      layout(candidate);
      meets(candidate);
    }
    for (const candidate of withoutMeets) {
      yield;
      meets(candidate);
    }
    withoutLayout.length = 0;
    withoutMeets.length = 0;
    // Sorted from the first order, as measuring them all at once sorts (ties keep that order).
    firstOrder.sort((a, b) => b.score - a.score);
    candidates.splice(0, candidates.length, ...firstOrder);
  };
}

/**
 * The most the layout features can add to one candidate's score, from the weight of its matched terms
 * alone (no tokens): the densest window and the best sentence hold at most all of it, a phrase share
 * and a count are at most 1 (and 0 for a question without term pairs, or counting nothing).
 */
function layoutAtMostOf(
  candidate: Candidate,
  { totalWeight, counted, pairs }: Asked,
  model: RankingModel,
): number {
  let matched = 0;
  for (const weight of candidate.matchedTerms.values()) matched += Math.max(0, weight);
  const share = totalWeight > 0 ? matched / totalWeight : 0;
  const w = model.ranking;
  return (
    Math.max(0, w.proximity) +
    Math.max(0, w.window) * share +
    (pairs.size === 0 ? 0 : Math.max(0, w.phrase)) +
    Math.max(0, w.answerMeets) * Math.min(1, share) +
    (counted === undefined ? 0 : Math.max(0, w.countsAsked))
  );
}

/** Room for rounding: a score summed in another order may differ in its last bits. */
const BOUND_MARGIN = 1e-9;

/** The candidate's confidence of answering, from how much and how specific its matched words are. */
export function judge(
  source: FeatureSource,
  candidate: Candidate,
  { termWeights, speaksOfAsker, focus }: Asked,
): void {
  let rarestMatchedDf = Number.POSITIVE_INFINITY;
  let matchedIdf = 0;
  for (const [term, weight] of candidate.matchedTerms) {
    rarestMatchedDf = Math.min(rarestMatchedDf, source.df(term));
    matchedIdf += weight;
  }
  const terms = [...termWeights].map(([term, weight]) => ({
    term,
    weight,
    known: source.has(term),
    number: /^\d/.test(term),
    inPassage: candidate.inPassage.has(term),
    inArticle: candidate.articleTerms.has(term),
  }));
  candidate.evidence = {
    terms,
    // The passages the weights are reckoned over: the corpus's and the everyday-English prior's.
    passages: source.passages,
    rarestMatchedDf,
    matchedIdf,
    speaksOfAsker,
    focus,
  };
  candidate.judged = confidenceFeatures(
    candidate.evidence,
    candidate.features,
    coverageScore(source.model.ranking, candidate.features),
  );
  candidate.confidence = confidenceOf(source.model, candidate.judged);
}

/** A statement attributed by a pronoun ("she added", "he told reporters", "said he"). */
const PRONOUN_SPEAKER =
  /\b(?:(?:he|she|they)\s+(?:said|says|added|adds|told|tells|continued|explained|insisted|warned|argued|wrote)|(?:said|added|says|adds)\s+(?:he|she))\b/i;

/** A paragraph opening with a quotation mark: a quote whose speaker an earlier paragraph names. */
const OPENS_QUOTE = /^\s*["\u201c\u2018']/;

/** How many passages before a quoted or pronoun-spoken one are searched for its speaker. */
const SPEAKER_REACH = 3;

/** Question terms in a found passage's own text (a fuzzily matched one is taken as its own). */
export function textTerms(hit: SearchResult): Set<string> {
  return new Set(hit.queryTerms.filter((term) => hit.match[term]?.includes('text') ?? true));
}

/**
 * `textTerms` by citation, undefined for a passage MiniSearch did not find; the hits are mapped by
 * citation only when first asked (few questions' candidates speak through a pronoun or a quote).
 */
export function textTermsOf(hits: readonly SearchResult[]): (citation: string) => Set<string> | undefined {
  let byId: Map<string, SearchResult> | undefined;
  return (citation) => {
    byId ??= new Map(hits.map((hit) => [String(hit.id), hit]));
    const hit = byId.get(citation);
    return hit === undefined ? undefined : textTerms(hit);
  };
}

/** The share of the question's adjacent term pairs that stand together (a stop word apart at most) in the passage. */
function phraseShare(tokens: readonly Token[], pairs: ReadonlySet<string>): number {
  if (pairs.size === 0) return 0;
  const found = new Set<string>();
  for (let i = 1; i < tokens.length; i++) {
    const a = tokens[i - 1]!;
    const b = tokens[i]!;
    const pair = `${a.term} ${b.term}`;
    if (b.position - a.position <= 2 && pairs.has(pair)) found.add(pair);
  }
  return found.size / pairs.size;
}

/**
 * Where the asked-for kind of fact and the question's words meet: the most question weight (over the
 * question's total) in one sentence that also holds a fact of the asked-for type, found by language
 * analysis.
 */
function answerMeets(
  passage: string,
  matchedTerms: ReadonlyMap<string, number>,
  totalWeight: number,
  type: AnswerType,
  isKnown: (mention: string) => boolean,
): number {
  if (type === 'other' || totalWeight <= 0) return 0;
  const entities = answeringEntities(passage, type, isKnown);
  if (entities.length === 0) return 0;
  let best = 0;
  for (const sentence of splitSentences(passage)) {
    if (!entities.some((e) => e.start >= sentence.start && e.end <= sentence.end)) continue;
    best = Math.max(best, sentenceWeight(sentence.text, matchedTerms) / totalWeight);
  }
  return Math.min(1, best);
}
