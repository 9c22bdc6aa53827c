import type { Assurance } from '../../src/search/answer.ts';
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

/**
 * A reply as a member sees it: the ranked passages, how sure the engine says it is, and the stories it
 * asks the member to choose from ("Which story?"). An engine that does not say how sure it is presents
 * whatever it returns as an answer.
 */
export interface EvalReply {
  results: readonly ScoredPassage[];
  assurance: Assurance;
  stories?: readonly { article: string }[];
}

/** The reply of an engine that only ranks: any result is presented as an answer. */
export function replyOf(results: readonly ScoredPassage[]): EvalReply {
  return { results, assurance: results.length > 0 ? 'answer' : 'none' };
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
  /** How sure the reply said it was. */
  assurance: Assurance;
  /** The reply asked "Which story?". */
  asksStory: boolean;
  /**
   * Answerable questions: whether a member gets the answer within the first 3 passages: of the reply
   * itself, or, when it asks which story, by choosing the right story (it must be offered) and reading
   * the answer within it. Null for off-topic questions.
   */
  getsThere: boolean | null;
  /**
   * When the reply asks which story: the answer's rank asked again within the right story (null: not
   * in its first results), or 'not offered' when the right story is not among the choices.
   */
  withinStory?: number | null | 'not offered';
  /** Time the search took, in milliseconds. */
  ms: number;
}

/** 1-based rank of the first result answering `question` (NewsQA's rule), null for none or off-topic. */
export function answerRank(question: EvalQuestion, results: readonly ScoredPassage[]): number | null {
  const { article, answer } = question;
  if (article === null || answer === null) return null;
  const index = results.findIndex((result) => answersQuestion(result, { ...question, article, answer }));
  return index === -1 ? null : index + 1;
}

/**
 * Scores one question's reply by the NewsQA rule of `../shared/README.md`. `withinStory` is the rank of
 * the answer when the question is asked again within the right story (null: not found there), given
 * only when the reply asked which story and offered it.
 */
export function scoreQuestion(
  question: EvalQuestion,
  reply: EvalReply | readonly ScoredPassage[],
  ms: number,
  withinStory?: number | null,
): QuestionOutcome {
  const { results, assurance, stories } = 'assurance' in reply ? reply : replyOf(reply);
  const answerable = question.article !== null && question.answer !== null;
  const rank = answerRank(question, results);
  const quote = rank === 1 ? results[0]!.quote : undefined;
  const asksStory = (stories?.length ?? 0) > 0;
  const direct = rank !== null && rank <= 3;
  const chosen = withinStory !== undefined && withinStory !== null && withinStory <= 3;
  return {
    id: question.id,
    half: question.half,
    answerable,
    rank,
    empty: results.length === 0,
    outOfPeriod: results[0]?.outOfPeriod === true,
    quoteHolds:
      quote === undefined ? null : collapseWhitespace(quote).includes(collapseWhitespace(question.answer!)),
    assurance,
    asksStory,
    getsThere: answerable ? (asksStory ? chosen : direct) : null,
    ...(answerable && asksStory
      ? { withinStory: withinStory === undefined ? 'not offered' : withinStory }
      : {}),
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
  /** Shares of all questions by the kind of reply; `empty` is the share of 'none'. */
  answered: number;
  closest: number;
  /** Share of all questions whose reply asked "Which story?". */
  asksStory: number;
  /** Among answerable questions presented as an answer, the share with the answer in the first 3; and how many. */
  answerHitAt3: number | null;
  answers: number;
  /** Share of answerable questions where a member gets there (see `QuestionOutcome.getsThere`). */
  getsThere: number | null;
  latencyMs: { p50: number; p99: number } | null;
}

export function summarize(outcomes: readonly QuestionOutcome[]): Summary {
  const answerable = outcomes.filter((outcome) => outcome.answerable);
  const shareWithin = (k: number) =>
    share(answerable, (outcome) => outcome.rank !== null && outcome.rank <= k);
  const quoted = outcomes.filter((outcome) => outcome.quoteHolds !== null);
  const answers = answerable.filter((outcome) => outcome.assurance === 'answer');
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
    answered: share(outcomes, (outcome) => outcome.assurance === 'answer') ?? 0,
    closest: share(outcomes, (outcome) => outcome.assurance === 'closest') ?? 0,
    asksStory: share(outcomes, (outcome) => outcome.asksStory) ?? 0,
    answerHitAt3: share(answers, (outcome) => outcome.rank !== null && outcome.rank <= 3),
    answers: answers.length,
    getsThere: share(answerable, (outcome) => outcome.getsThere === true),
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
