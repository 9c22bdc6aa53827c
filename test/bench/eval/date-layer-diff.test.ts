import { describe, expect, it } from 'vitest';
import { outcomeDifferences, outcomeLabel } from '../../../bench/eval/date-layer-diff.ts';
import type { EvalQuestion, QuestionOutcome } from '../../../bench/eval/outcome.ts';

const question = (id: string, answerable = true): EvalQuestion => ({
  id,
  question: `question ${id}`,
  article: answerable ? 'a' : null,
  answer: answerable ? 'x' : null,
  half: 'tune',
});

const outcome = (id: string, extra: Partial<QuestionOutcome> = {}): QuestionOutcome => ({
  id,
  half: 'tune',
  answerable: true,
  rank: 1,
  empty: false,
  outOfPeriod: false,
  quoteHolds: null,
  assurance: 'answer',
  asksStory: false,
  getsThere: true,
  ms: 1,
  ...extra,
});

describe('outcomeDifferences', () => {
  it('lists the questions whose rank or emptiness differs, not those that only gained "Nothing from …"', () => {
    const questions = [question('same'), question('lower'), question('said'), question('off', false)];
    const withDates = [
      outcome('same'),
      outcome('lower', { rank: 3 }),
      outcome('said', { outOfPeriod: true }),
      outcome('off', { answerable: false, rank: null, outOfPeriod: true }),
    ];
    const withoutDates = [
      outcome('same'),
      outcome('lower'),
      outcome('said'),
      outcome('off', { answerable: false, rank: null, empty: true }),
    ];
    const differences = outcomeDifferences(questions, withDates, withoutDates);
    expect(
      differences.map((d) => [d.question.id, outcomeLabel(d.withDates), outcomeLabel(d.withoutDates)]),
    ).toEqual([
      ['lower', 'hit@3', 'hit@1'],
      ['off', 'nothing from', 'empty'],
    ]);
  });
});
