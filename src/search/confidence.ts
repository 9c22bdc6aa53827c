import { focusWords } from '../text/entities.ts';
import { analyze } from './analyze.ts';
import type { ConfidenceFeature, Features, RankFeature } from './ranking-model.ts';

/** One question term as one candidate passage matches it. */
export interface TermEvidence {
  /** The analysed term. */
  term: string;
  /** Its rarity among passages (BM25's idf). */
  weight: number;
  /** The corpus has the term (else it is as rare as can be, and matches only fuzzily if at all). */
  known: boolean;
  /** A number or year ("2018"). */
  number: boolean;
  /** Found in the passage or its neighbours. */
  inPassage: boolean;
  /** Found anywhere in the passage's article. */
  inArticle: boolean;
}

/**
 * What one candidate's match says of the question, kept apart from the features made of it so the
 * fitting script can try other confidence features on candidates it measured once.
 */
export interface MatchEvidence {
  terms: TermEvidence[];
  /** Passages in the corpus. */
  passages: number;
  /** Passages holding the rarest of the passage's matched terms (Infinity when none matched). */
  rarestMatchedDf: number;
  /** Rarity of the passage's matched terms, summed. */
  matchedIdf: number;
  /** The question speaks of the asker ("How do I...", "your passport"): see `speaksOfAsker`. */
  speaksOfAsker: boolean;
  /** Terms of the question's nouns, proper nouns and numbers: what it is about (see `focusWords`). */
  focus: ReadonlySet<string>;
}

/**
 * A word of the first or second person. "US" in capitals is the country, not "us", and so is "the us"
 * in a question typed in lower case ("out of work in the us"); "mine" is left out, since questions about
 * news ask of gold mines far more often than of what is the asker's.
 */
const ASKER = /\b(?:[Ii]|[Mm]e|[Mm]y|[Yy]ou|[Yy]ours?|[Ww]e|[Oo]ur)\b|(?<!\b[Tt]he )\bus\b/;

/**
 * Whether the question speaks of the asker or the reader ("How do I renew my passport?", "how do you
 * make hummus"): news reports events, and a question about what the asker should do is seldom answered
 * by them. A feature of the question's grammar, weighed by the fitted model like the others (NewsQA
 * has "What should you carry if you are allergic to insects?", which an article answers).
 */
export function speaksOfAsker(question: string): boolean {
  // A Roman numeral after a name ("World War I", "Henry I") is no pronoun.
  return ASKER.test(question.replace(/\b[A-Z][a-z]*\s+I\b/g, ''));
}

/** The ranking's features that the confidence also reads. */
type Shared = Pick<
  Features<RankFeature>,
  'coverage' | 'articleCoverage' | 'answerType' | 'askedFactMissing' | 'answerMeets' | 'window'
>;

/** A year a question may name ("in 2018", "the 1987 crash"). */
const YEAR = /^(?:1[89]|20)\d\d$/;

/**
 * The confidence features of a candidate: beside its ranking score, how SPECIFIC the matched words
 * are. An off-topic question over a large archive shares common words ("capital", "won") with
 * thousands of passages; what gives it away is that its rare words are unmatched, or unknown, or that
 * it names a year the archive barely mentions, or asks what the asker should do, or that what it is
 * about (its nouns and names: "seasons" in "What causes the seasons on Earth?") is missing while its
 * verbs match.
 */
export function confidenceFeatures(
  evidence: MatchEvidence,
  ranking: Shared,
  score: number,
): Features<ConfidenceFeature> {
  const { terms, passages } = evidence;
  const logPassages = Math.log(1 + passages);
  let total = 0;
  let unknown = 0;
  let known = 0;
  let knownInPassage = 0;
  let knownInArticle = 0;
  let missingIdf = 0;
  let articleMissingIdf = 0;
  let articleMissingWeight = 0;
  let numberMissing = 0;
  let yearIdf = 0;
  let focusMissing = 0;
  let focusArticleMissing = 0;
  let focusUnknown = 0;
  let focusTotal = 0;
  for (const term of terms) {
    if (evidence.focus.has(term.term)) {
      focusTotal += term.weight;
      if (!term.known) focusUnknown += term.weight;
      else if (!term.inPassage) {
        focusMissing += term.weight;
        if (!term.inArticle) focusArticleMissing += term.weight;
      }
    }
    total += term.weight;
    if (term.number && !term.inPassage && !term.inArticle) numberMissing = 1;
    if (YEAR.test(term.term)) yearIdf = Math.max(yearIdf, term.weight);
    if (!term.known) {
      unknown += term.weight;
      continue;
    }
    known += term.weight;
    if (term.inPassage) knownInPassage += term.weight;
    else missingIdf = Math.max(missingIdf, term.weight);
    if (term.inArticle || term.inPassage) knownInArticle += term.weight;
    else {
      articleMissingIdf = Math.max(articleMissingIdf, term.weight);
      articleMissingWeight += term.weight;
    }
  }
  // The question's two rarest words the corpus has: an answering passage rarely lacks them.
  const rarest = terms
    .filter((term) => term.known)
    .sort((a, b) => b.weight - a.weight)
    .slice(0, 2);
  const rarestWeight = rarest.reduce((sum, term) => sum + term.weight, 0);
  const rareMissing = rarest.reduce((sum, term) => sum + (term.inPassage ? 0 : term.weight), 0);
  return {
    score,
    coverage: ranking.coverage,
    articleCoverage: ranking.articleCoverage,
    answerType: ranking.answerType,
    askedFactMissing: ranking.askedFactMissing,
    answerMeets: ranking.answerMeets,
    window: ranking.window,
    unknownShare: total > 0 ? unknown / total : 0,
    specificity: Number.isFinite(evidence.rarestMatchedDf)
      ? 1 - Math.log(1 + evidence.rarestMatchedDf) / logPassages
      : 0,
    matchedIdf: evidence.matchedIdf / 10,
    missingRarest: Math.min(1, missingIdf / logPassages),
    rareMissing: rarestWeight > 0 ? rareMissing / rarestWeight : 0,
    numberMissing,
    knownCoverage: known > 0 ? knownInPassage / known : 0,
    knownArticleCoverage: known > 0 ? knownInArticle / known : 0,
    missingIdf: missingIdf / 10,
    articleMissingIdf: articleMissingIdf / 10,
    rarestMissing: rarest[0] !== undefined && !rarest[0].inPassage ? 1 : 0,
    surprise: (evidence.matchedIdf - logPassages) / 10,
    articleMissingWeight: articleMissingWeight / 10,
    yearRarity: Math.min(1, yearIdf / logPassages),
    speaksOfAsker: evidence.speaksOfAsker ? 1 : 0,
    focusArticleMissing: focusArticleMissing / 10,
    focusMissing: focusMissing / 10,
    focusUnknownShare: focusTotal > 0 ? focusUnknown / focusTotal : 0,
  };
}

/** The analysed terms of what the question is about: its nouns, proper nouns and numbers (see `focusWords`). */
export function focusTerms(question: string): Set<string> {
  return new Set(analyze(focusWords(question).join(' ')));
}
