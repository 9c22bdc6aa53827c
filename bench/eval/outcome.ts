import { answersQuestion, collapseWhitespace, type RetrievedPassage } from '../lib/newsqa.ts';
import { percentile } from '../lib/percentiles.ts';
import type { Half } from './question-set.ts';

/** A question as the evaluation asks it; `article` and `answer` are null when nothing should answer. */
export interface EvalQuestion {
  id: string;
  question: string;
  article: string | null;
  answer: string | null;
  half: Half;
}

/** A retrieved passage; engines that pick a sentence to show (this project's) also give its `quote`. */
export interface ScoredPassage extends RetrievedPassage {
  quote?: string;
  /**
   * The answer said it has nothing from the year or month the question named and shows the closest
   * coverage instead ("Nothing from 2018; closest coverage is from 2005:").
   */
  outOfPeriod?: boolean;
}

/** What happened to one question. */
export interface QuestionOutcome {
  id: string;
  half: Half;
  answerable: boolean;
  /** 1-based rank of the first result that answers it (right article, passage holds the answer), or null. */
  rank: number | null;
  /** The engine returned nothing: shown to users as "No coverage found". */
  empty: boolean;
  /** It returned passages under "Nothing from <the period asked>; closest coverage is from …". */
  outOfPeriod: boolean;
  /** For a hit at rank 1 from an engine that quotes: whether the quote holds the answer; else null. */
  quoteHolds: boolean | null;
  /** Time the search took, in milliseconds. */
  ms: number;
}

/** Scores one question's ranked results by the NewsQA rule of `../shared/README.md`. */
export function scoreQuestion(
  question: EvalQuestion,
  results: readonly ScoredPassage[],
  ms: number,
): QuestionOutcome {
  const { article, answer } = question;
  const answerable = article !== null && answer !== null;
  let rank: number | null = null;
  if (answerable) {
    const index = results.findIndex((result) => answersQuestion(result, { ...question, article, answer }));
    rank = index === -1 ? null : index + 1;
  }
  const quote = rank === 1 ? results[0]!.quote : undefined;
  return {
    id: question.id,
    half: question.half,
    answerable,
    rank,
    empty: results.length === 0,
    outOfPeriod: results[0]?.outOfPeriod === true,
    quoteHolds: quote === undefined ? null : collapseWhitespace(quote).includes(collapseWhitespace(answer!)),
    ms,
  };
}

/** Figures over a group of outcomes. Shares are 0-1; null where the group holds nothing to measure. */
export interface Summary {
  questions: number;
  /** Shares of answerable questions answered within the first 1, 3 and 5 results. */
  hitAt1: number | null;
  hitAt3: number | null;
  hitAt5: number | null;
  /** Mean reciprocal rank of the first hit within 5 (0 for none), over answerable questions. */
  mrrAt5: number | null;
  /** Share of all questions answered with no results ("No coverage found"). */
  empty: number;
  /** How many questions were answered with no results. */
  emptyCount: number;
  /** How many were answered only with coverage from another time than the one named ("Nothing from 2018; …"). */
  outOfPeriodCount: number;
  /** Among rank-1 hits that carry a quote, the share whose quote holds the answer. */
  quoteAccuracy: number | null;
  /** How many rank-1 hits carried a quote (the denominator of `quoteAccuracy`). */
  quoted: number;
  latencyMs: { p50: number; p99: number } | null;
}

export function summarize(outcomes: readonly QuestionOutcome[]): Summary {
  const answerable = outcomes.filter((outcome) => outcome.answerable);
  const shareWithin = (k: number) =>
    share(answerable, (outcome) => outcome.rank !== null && outcome.rank <= k);
  const quoted = outcomes.filter((outcome) => outcome.quoteHolds !== null);
  const latencies = outcomes.map((outcome) => outcome.ms);
  return {
    questions: outcomes.length,
    hitAt1: shareWithin(1),
    hitAt3: shareWithin(3),
    hitAt5: shareWithin(5),
    mrrAt5:
      answerable.length === 0
        ? null
        : answerable.reduce((sum, { rank }) => sum + (rank !== null && rank <= 5 ? 1 / rank : 0), 0) /
          answerable.length,
    empty: share(outcomes, (outcome) => outcome.empty) ?? 0,
    emptyCount: outcomes.filter((outcome) => outcome.empty).length,
    outOfPeriodCount: outcomes.filter((outcome) => outcome.outOfPeriod).length,
    quoteAccuracy: share(quoted, (outcome) => outcome.quoteHolds === true),
    quoted: quoted.length,
    latencyMs:
      latencies.length === 0 ? null : { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
  };
}

function share<T>(items: readonly T[], test: (item: T) => boolean): number | null {
  return items.length === 0 ? null : items.filter(test).length / items.length;
}

/** Summaries of the tuning half, the test half and both together. */
export function summarizeHalves(outcomes: readonly QuestionOutcome[]): Record<Half | 'all', Summary> {
  return {
    tune: summarize(outcomes.filter((outcome) => outcome.half === 'tune')),
    test: summarize(outcomes.filter((outcome) => outcome.half === 'test')),
    all: summarize(outcomes),
  };
}
