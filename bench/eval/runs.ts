import { performance } from 'node:perf_hooks';
import { loadNewsQaQuestions } from '../lib/newsqa.ts';
import { type CorpusName, SOURCES } from './corpora.ts';
import type { FollowUpEngine } from './follow-up-run.ts';
import {
  answerRank,
  type EvalQuestion,
  type EvalReply,
  type QuestionOutcome,
  type ScoredPassage,
  scoreQuestion,
} from './outcome.ts';
import { loadQuestionSet, type QuestionSetName, questionSetPath } from './question-set.ts';

/** Which questions are asked of which corpus, for each figure the eval reports. */
export const RUNS = {
  newsqa: { corpus: 'newsqa', questions: 'newsqa', title: 'NewsQA questions over NewsQA' },
  distractors: {
    corpus: 'full',
    questions: 'newsqa',
    title: 'NewsQA questions over NewsQA + BBC + Reuters',
  },
  'off-topic': { corpus: 'full', questions: 'off-topic', title: 'off-topic questions over the 24k corpus' },
  'off-topic-seed': { corpus: 'seed', questions: 'off-topic', title: 'off-topic questions over corpus/' },
  seed: { corpus: 'seed', questions: 'seed', title: 'seed questions over corpus/' },
  'bbc-reuters': {
    corpus: 'full',
    questions: 'bbc-reuters',
    title: 'BBC/Reuters questions over the 24k corpus',
  },
  readers: {
    corpus: 'full',
    questions: 'readers',
    title: 'fresh reader questions on BBC/Reuters articles over the 24k corpus',
  },
  'near-misses': {
    corpus: 'full',
    questions: 'near-misses',
    title: 'near misses (a story the archive covers, a fact it does not state) over the 24k corpus',
  },
} as const satisfies Record<
  string,
  { corpus: CorpusName; questions: QuestionSetName | 'newsqa'; title: string }
>;

export type RunName = keyof typeof RUNS;
export const RUN_NAMES = Object.keys(RUNS) as RunName[];

/** How many results each question asks for: enough for hit@5. */
export const RESULT_LIMIT = 5;

/** Anything that answers a question with ranked passages, best first, as `BenchIndex` does. */
export interface SearchIndex {
  search(question: string, limit: number): readonly ScoredPassage[] | Promise<readonly ScoredPassage[]>;
  /** An engine that says how sure it is: its reply, used instead of `search`. */
  reply?(question: string, limit: number): EvalReply | Promise<EvalReply>;
  /** The question answered within one article, as choosing a story from "Which story?" asks it. */
  within?(
    question: string,
    article: string,
    limit: number,
  ): readonly ScoredPassage[] | Promise<readonly ScoredPassage[]>;
  /** The engine as a follow-up asks it (issue 32's follow-up set); this project's engine only. */
  followUps?: FollowUpEngine;
}

const questionCache = new Map<string, Promise<EvalQuestion[]>>();

/** The questions of a run, loaded once per process. */
export function runQuestions(run: RunName): Promise<EvalQuestion[]> {
  const source = RUNS[run].questions;
  let questions = questionCache.get(source);
  if (questions === undefined) {
    questions = source === 'newsqa' ? loadNewsQa() : loadQuestionSet(questionSetPath(source));
    questionCache.set(source, questions);
  }
  return questions;
}

// NewsQA keeps the split the eval has always used, so figures stay comparable with earlier runs:
// questions at odd 0-based positions were the ones the ranking weights were tuned on.
async function loadNewsQa(): Promise<EvalQuestion[]> {
  const questions = await loadNewsQaQuestions(SOURCES.newsqaQuestions);
  return questions.map((question, index) => ({ ...question, half: index % 2 === 1 ? 'tune' : 'test' }));
}

/**
 * Asks every question of `run` of `index` (built over `evalCorpus(RUNS[run].corpus)`) and scores
 * each answer: the rank of the first hit, whether it was empty, whether the quote holds the answer,
 * and the time taken. A fitting script can build an engine with other weights and call this per run.
 */
export async function evaluateRun(index: SearchIndex, run: RunName): Promise<QuestionOutcome[]> {
  const outcomes: QuestionOutcome[] = [];
  for (const question of await runQuestions(run)) {
    const started = performance.now();
    const reply = index.reply
      ? await index.reply(question.question, RESULT_LIMIT)
      : await index.search(question.question, RESULT_LIMIT);
    const ms = performance.now() - started;
    outcomes.push(scoreQuestion(question, reply, ms, await withinStory(index, question, reply)));
  }
  return outcomes;
}

/**
 * When the reply asks which story and offers the question's own article: the answer's rank with the
 * question asked within it, as a member choosing that story gets it (null: not in its first results).
 * Undefined when there was no such choice.
 */
async function withinStory(
  index: SearchIndex,
  question: EvalQuestion,
  reply: EvalReply | readonly ScoredPassage[],
): Promise<number | null | undefined> {
  if (!('assurance' in reply) || question.article === null || index.within === undefined) return undefined;
  if (!reply.stories?.some((story) => story.article === question.article)) return undefined;
  return answerRank(question, await index.within(question.question, question.article, RESULT_LIMIT));
}

/** The follow-up set's name in `--sets`: asked of this engine only, over the corpora its articles are in. */
export const FOLLOW_UPS = 'follow-ups';

/** Whether a `--sets` list asks for the follow-up set (every run does when there is no list). */
export function wantsFollowUps(list: string | undefined): boolean {
  return list === undefined || list.split(',').some((part) => part.trim().toLowerCase() === FOLLOW_UPS);
}

/**
 * Run names from a `--sets` list such as `newsqa,distractors,offtopic,seed,bbc-reuters,readers`: `offtopic`
 * (or `off-topic`) means both off-topic runs. Throws on a name that is not a run, listing the valid ones.
 */
export function parseSets(list: string | undefined): RunName[] {
  if (list === undefined) return RUN_NAMES;
  const chosen = new Set<RunName>();
  for (const name of list.split(',').map((part) => part.trim().toLowerCase())) {
    if (name === '' || name === FOLLOW_UPS) continue;
    if (name === 'offtopic' || name === 'off-topic') {
      chosen.add('off-topic');
      chosen.add('off-topic-seed');
    } else if ((RUN_NAMES as string[]).includes(name)) {
      chosen.add(name as RunName);
    } else {
      throw new Error(
        `unknown set "${name}"; choose from ${[...RUN_NAMES, 'offtopic', FOLLOW_UPS].join(', ')}`,
      );
    }
  }
  return RUN_NAMES.filter((run) => chosen.has(run));
}
