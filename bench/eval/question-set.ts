import { readJsonLines } from './jsonl-records.ts';

/** Which half of a set a question belongs to: `tune` may be fitted on, `test` is only reported. */
export type Half = 'tune' | 'test';

/**
 * One question written for the quality evaluation, as stored in `bench/data/questions/*.jsonl`.
 * An off-topic question, which no article answers, has `article` and `answer` null.
 */
export interface QuestionRecord {
  id: string;
  question: string;
  /** Id of the article whose passage answers the question, or null when nothing should answer it. */
  article: string | null;
  /** The answering text, verbatim from one passage of `article`, or null. */
  answer: string | null;
  half: Half;
  /** What makes the question hard (paraphrase, misspelling, synonym…), for people reading the set. */
  note?: string;
}

/** The question sets written by reading the articles, before any tuning on them. */
export const QUESTION_SETS = ['seed', 'bbc-reuters', 'off-topic', 'readers', 'near-misses'] as const;
export type QuestionSetName = (typeof QUESTION_SETS)[number];

export function questionSetPath(name: QuestionSetName): string {
  return new URL(`../data/questions/${name}.jsonl`, import.meta.url).pathname;
}

/** The half of the question at 0-based position `index`: odd-numbered questions (1st, 3rd…) tune. */
export function halfAt(index: number): Half {
  return index % 2 === 0 ? 'tune' : 'test';
}

/**
 * Reads a question set. Every line must be one record with the fields of `QuestionRecord`, with
 * `article` and `answer` both strings or both null; a line that is not is reported with its number.
 */
export function loadQuestionSet(path: string): Promise<QuestionRecord[]> {
  return readJsonLines(
    path,
    asQuestionRecord,
    '{id, question, article, answer, half: "tune" | "test"}, with article and answer both text or both null',
  );
}

function asQuestionRecord(value: unknown): QuestionRecord | null {
  if (typeof value !== 'object' || value === null) return null;
  const { id, question, article, answer, half, note } = value as Record<string, unknown>;
  if (typeof id !== 'string' || typeof question !== 'string') return null;
  if (half !== 'tune' && half !== 'test') return null;
  if (note !== undefined && typeof note !== 'string') return null;
  const answerable = typeof article === 'string' && typeof answer === 'string';
  const offTopic = article === null && answer === null;
  if (!answerable && !offTopic) return null;
  return {
    id,
    question,
    article: article as string | null,
    answer: answer as string | null,
    half,
    ...(note === undefined ? {} : { note }),
  };
}
