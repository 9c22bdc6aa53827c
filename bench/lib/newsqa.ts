import { readFile } from 'node:fs/promises';

/** One NewsQA question, as stored in `../shared/data/newsqa/questions.jsonl`. */
export interface NewsQaQuestion {
  id: string;
  /** Id of the article that holds the answer. */
  article: string;
  question: string;
  /** A span of the article's text. */
  answer: string;
}

/** What a retrieval result must carry to be scored: the article it came from and its passage text. */
export interface RetrievedPassage {
  article: string;
  passage: string;
}

/**
 * Reads NewsQA questions from a JSON Lines file. Every line must hold string `id`, `article`,
 * `question` and `answer` fields; a line that does not is reported with its line number.
 */
export async function loadNewsQaQuestions(path: string): Promise<NewsQaQuestion[]> {
  const text = await readFile(path, 'utf8');
  const questions: NewsQaQuestion[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const record: unknown = JSON.parse(line);
    if (!isQuestionRecord(record)) {
      throw new Error(`${path}:${index + 1}: expected {id, article, question, answer} strings`);
    }
    questions.push({
      id: record.id,
      article: record.article,
      question: record.question,
      answer: record.answer,
    });
  });
  return questions;
}

function isQuestionRecord(value: unknown): value is NewsQaQuestion {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return ['id', 'article', 'question', 'answer'].every((key) => typeof record[key] === 'string');
}

// Chunkers join hard-wrapped lines and may collapse runs of spaces, so whitespace differences alone
// must not turn a retrieved answer into a miss.
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The NewsQA scoring rule of `../shared/README.md` for one result: it comes from the question's own
 * article and its passage contains the answer text (compared with runs of whitespace collapsed).
 */
export function answersQuestion(result: RetrievedPassage, question: NewsQaQuestion): boolean {
  return (
    result.article === question.article &&
    collapseWhitespace(result.passage).includes(collapseWhitespace(question.answer))
  );
}

/**
 * 1-based rank of the first result among the first `k` that answers the question, or `null` when
 * none does.
 */
export function firstHitRank(
  results: readonly RetrievedPassage[],
  question: NewsQaQuestion,
  k: number,
): number | null {
  const top = results.slice(0, k);
  const index = top.findIndex((result) => answersQuestion(result, question));
  return index === -1 ? null : index + 1;
}

/** Retrieval quality over a question set. */
export interface RetrievalScores {
  questions: number;
  hitAt1: number;
  hitAt5: number;
  /** Mean reciprocal rank of the first hit within the first 5 results (0 when none). */
  mrrAt5: number;
}

/**
 * Accumulates hit@1, hit@5 and MRR@5 one question at a time, so a benchmark can score each answer
 * as it times it without keeping every result list.
 */
export class RetrievalScorer {
  #questions = 0;
  #hitsAt1 = 0;
  #hitsAt5 = 0;
  #reciprocalRanks = 0;

  /** Scores one question's ranked results; returns the 1-based rank of the first hit within 5, or null. */
  add(question: NewsQaQuestion, results: readonly RetrievedPassage[]): number | null {
    const rank = firstHitRank(results, question, 5);
    this.#questions += 1;
    if (rank !== null) {
      this.#hitsAt5 += 1;
      this.#reciprocalRanks += 1 / rank;
      if (rank === 1) this.#hitsAt1 += 1;
    }
    return rank;
  }

  /** Scores so far; all zero before the first question. */
  scores(): RetrievalScores {
    const n = this.#questions;
    return {
      questions: n,
      hitAt1: n === 0 ? 0 : this.#hitsAt1 / n,
      hitAt5: n === 0 ? 0 : this.#hitsAt5 / n,
      mrrAt5: n === 0 ? 0 : this.#reciprocalRanks / n,
    };
  }
}
