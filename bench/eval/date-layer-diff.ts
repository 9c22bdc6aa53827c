import type { EvalQuestion, QuestionOutcome } from './outcome.ts';

/** One question answered differently with and without the date layer. */
export interface OutcomeDifference {
  question: EvalQuestion;
  withDates: QuestionOutcome;
  withoutDates: QuestionOutcome;
}

/** How a question ended, as a reader of the report sees it: `hit@2`, `miss`, `empty`, `nothing from`. */
export function outcomeLabel(outcome: QuestionOutcome): string {
  if (outcome.empty) return 'empty';
  const shown = outcome.outOfPeriod ? 'nothing from, ' : '';
  if (!outcome.answerable) return outcome.outOfPeriod ? 'nothing from' : 'answered';
  return `${shown}${outcome.rank === null ? 'miss' : `hit@${outcome.rank}`}`;
}

/**
 * The questions whose outcome differs between the engine with its date layer and without it (the same
 * index asked twice), in question order: what the date layer costs or gains, question by question. An
 * answer that only gained "Nothing from 2018; …" before the same passages is not a difference here; the
 * table counts those (nothing-from).
 */
export function outcomeDifferences(
  questions: readonly EvalQuestion[],
  withDates: readonly QuestionOutcome[],
  withoutDates: readonly QuestionOutcome[],
): OutcomeDifference[] {
  const without = new Map(withoutDates.map((outcome) => [outcome.id, outcome]));
  const asked = new Map(questions.map((question) => [question.id, question]));
  return withDates.flatMap((outcome) => {
    const other = without.get(outcome.id);
    const question = asked.get(outcome.id);
    if (other === undefined || question === undefined) return [];
    const same = outcome.empty === other.empty && outcome.rank === other.rank;
    return same ? [] : [{ question, withDates: outcome, withoutDates: other }];
  });
}
