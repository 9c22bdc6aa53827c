import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NewsQaQuestion } from '../../../bench/lib/newsqa.ts';
import {
  answersQuestion,
  firstHitRank,
  loadNewsQaQuestions,
  RetrievalScorer,
} from '../../../bench/lib/newsqa.ts';

const question: NewsQaQuestion = {
  id: 'q1',
  article: 'cnn-0001',
  question: 'Which team does Zaki play for?',
  answer: 'Wigan Athletic',
};
const answering = {
  article: 'cnn-0001',
  passage: 'Amir Zaki is back at his club side Wigan Athletic in England.',
};
const sameTextOtherArticle = { article: 'cnn-0002', passage: answering.passage };
const sameArticleNoAnswer = { article: 'cnn-0001', passage: 'Zaki could not be traced for a week.' };

describe('answersQuestion', () => {
  it('counts a passage from the question’s article that contains the answer', () => {
    expect(answersQuestion(answering, question)).toBe(true);
  });

  it('does not count the answer text found in another article', () => {
    expect(answersQuestion(sameTextOtherArticle, question)).toBe(false);
  });

  it('does not count a passage of the right article without the answer', () => {
    expect(answersQuestion(sameArticleNoAnswer, question)).toBe(false);
  });

  it('ignores differences in whitespace between answer and passage', () => {
    const wrapped = { article: 'cnn-0001', passage: 'his club side Wigan\n  Athletic in England' };
    expect(answersQuestion(wrapped, { ...question, answer: ' Wigan  Athletic ' })).toBe(true);
  });
});

describe('firstHitRank', () => {
  it('gives the 1-based rank of the first answering result within k', () => {
    expect(firstHitRank([sameArticleNoAnswer, answering], question, 5)).toBe(2);
  });

  it('gives null when the answer lies beyond the first k results', () => {
    expect(firstHitRank([sameArticleNoAnswer, sameTextOtherArticle, answering], question, 2)).toBeNull();
  });
});

describe('RetrievalScorer', () => {
  it('averages hit@1, hit@5 and MRR@5 over the questions added', () => {
    const scorer = new RetrievalScorer();
    scorer.add(question, [answering]);
    scorer.add(question, [sameArticleNoAnswer, sameTextOtherArticle, answering]);
    scorer.add(question, []);
    scorer.add(question, [1, 2, 3, 4, 5].map(() => sameArticleNoAnswer).concat(answering));
    expect(scorer.scores()).toEqual({ questions: 4, hitAt1: 0.25, hitAt5: 0.5, mrrAt5: (1 + 1 / 3) / 4 });
  });

  it('scores zero before any question', () => {
    expect(new RetrievalScorer().scores()).toEqual({ questions: 0, hitAt1: 0, hitAt5: 0, mrrAt5: 0 });
  });
});

describe('loadNewsQaQuestions', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reads questions from JSON Lines, skipping blank lines', async () => {
    dir = await mkdtemp(join(tmpdir(), 'newsqa-'));
    const file = join(dir, 'questions.jsonl');
    await writeFile(file, `${JSON.stringify({ ...question, answer_start: 3, paragraph: 'x' })}\n\n`);
    expect(await loadNewsQaQuestions(file)).toEqual([question]);
  });

  it('names the line of a record that lacks a field', async () => {
    dir = await mkdtemp(join(tmpdir(), 'newsqa-'));
    const file = join(dir, 'questions.jsonl');
    await writeFile(file, `${JSON.stringify(question)}\n${JSON.stringify({ id: 'q2', article: 'a' })}\n`);
    await expect(loadNewsQaQuestions(file)).rejects.toThrow(/questions\.jsonl:2: expected/);
  });
});
