import type { CitedPassage } from '../community/cited-passages.ts';
import type { Article } from '../corpus/article.ts';
import { type Disagreement, disagreementsIn, type PassageSource } from '../factcheck/outlets-differ.ts';
import type { Answer, AnswerOptions, AnswerResult, Assurance, StoryChoice } from '../search/answer.ts';
import { publisherKey, publisherKeys } from '../search/outlets.ts';
import type { Period } from '../search/period.ts';
import { describeTime } from '../search/time-layer.ts';

/** What the pipeline asks of a search engine; `Engine`, `WorkerEngine` and the commands' view satisfy it. */
export interface AnsweringEngine extends PassageSource {
  readonly version: string;
  answerAsync(question: string, options?: AnswerOptions): Promise<Answer>;
  closestHeadlinesAsync(question: string, limit?: number): Promise<Article[]>;
}

/** One question as a front end asks it, already checked (the article exists, the period parsed). */
export interface QuestionRequest {
  question: string;
  limit: number;
  /** Results skipped, for "More results". @default 0 */
  offset?: number;
  /** Answer within this article only: `/ask source:`, a story chosen from "Which story?", `--story`. */
  article?: Pick<Article, 'id'>;
  /** Outlets to answer from (a channel's, or `/ask source:` naming one); empty: every outlet. */
  outlets?: readonly string[];
  period?: Period;
}

/**
 * What a reply said, for whoever records it: the citations shown, or that nothing answered. Closest
 * coverage counts as a question without coverage: the archive may not answer it.
 */
export type AnswerOutcome =
  | { kind: 'answered'; citations: string[]; cited: CitedPassage[]; corpusVersion: string }
  | { kind: 'no-coverage'; corpusVersion: string };

/** The whole reply to a question, as data: every front end renders this and adds nothing to it. */
export interface QuestionReply {
  question: string;
  /** How sure the reply is: an answer, the closest coverage, or nothing. */
  assurance: Assurance;
  /** The engine's answer: the passages shown (empty when `assurance` is 'none'), paging, time words. */
  answer: Answer;
  /** The stories to choose from ("Which story?"), best first; empty when the reply does not ask. */
  stories: readonly StoryChoice[];
  /** With no passage to show, the headlines nearest the question, to rephrase or look further. */
  closestHeadlines: readonly Article[];
  /** Where the outlets grouped with a result give a value differently, by the result's citation. */
  disagreements: ReadonlyMap<string, readonly Disagreement[]>;
  /** What the question's time words did ("Newest reports first."), as a sentence; null when nothing. */
  timeNote: string | null;
  outcome: AnswerOutcome;
}

/** Headlines offered when nothing answers. */
const CLOSEST_HEADLINES = 3;

/**
 * The question to its reply: the engine's answer and how sure it is, the stories it fits, the closest
 * headlines when nothing answers, where outlets differ, and what to record. `/ask`, its buttons and its
 * story menu, "Find coverage", watched questions, the console, the HTTP endpoint and the CLI all ask here.
 */
export async function replyToQuestion(
  engine: AnsweringEngine,
  request: QuestionRequest,
): Promise<QuestionReply> {
  const answer = await engine.answerAsync(request.question, {
    limit: request.limit,
    offset: request.offset ?? 0,
    ...(request.article ? { articleId: request.article.id } : {}),
    ...(request.outlets?.length ? { publishers: request.outlets } : {}),
    ...(request.period ? { period: request.period } : {}),
  });
  const shown = answer.results.length > 0;
  const note = describeTime(answer.time);
  return {
    question: request.question,
    assurance: answer.assurance,
    answer,
    stories: answer.stories ?? [],
    closestHeadlines:
      shown || (request.offset ?? 0) > 0
        ? []
        : await closestFrom(engine, request.question, request.outlets ?? []),
    disagreements: disagreementsIn(answer.results, engine),
    timeNote: note === '' ? null : note,
    outcome: outcomeOf(answer, engine.version),
  };
}

/** The closest headlines, of the outlets answered from when there are some (a channel's reply keeps to them). */
async function closestFrom(engine: AnsweringEngine, question: string, outlets: readonly string[]) {
  if (outlets.length === 0) return engine.closestHeadlinesAsync(question, CLOSEST_HEADLINES);
  const keys = publisherKeys(outlets);
  const near = await engine.closestHeadlinesAsync(question, 30);
  return near
    .filter((article) => keys?.has(publisherKey(article.publisher ?? '')))
    .slice(0, CLOSEST_HEADLINES);
}

/** What to record of an answer: an answer's citations, or a question without coverage. */
export function outcomeOf(answer: Answer, corpusVersion: string): AnswerOutcome {
  return answer.assurance === 'answer' && answer.results.length > 0
    ? {
        kind: 'answered',
        citations: answer.results.map((result) => result.citation),
        cited: citedIn(answer.results),
        corpusVersion,
      }
    : { kind: 'no-coverage', corpusVersion };
}

/** The paragraphs an answer quotes, as a correction will compare them after a reload. */
export function citedIn(results: readonly AnswerResult[]): CitedPassage[] {
  return results.map((result) => ({
    citation: result.citation,
    articleId: result.article,
    paragraph: result.paragraph,
    text: result.passage,
  }));
}
