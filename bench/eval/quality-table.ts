import { formatTable } from '../lib/format-table.ts';
import type { Summary } from './outcome.ts';
import type { Half } from './question-set.ts';
import type { RunName } from './runs.ts';

/** The figures of one engine on one run (question set over a corpus). */
export interface RunReport {
  run: RunName;
  corpus: string;
  engine: string;
  halves: Record<Half | 'all', Summary>;
}

const HEADER = [
  'set',
  'corpus',
  'engine',
  'half',
  'n',
  'hit@1',
  'hit@3',
  'hit@5',
  'MRR@5',
  'empty',
  '(n)',
  'nothing-from',
  'quote',
  'p50 ms',
  'p99 ms',
];

function figure(value: number | null): string {
  return value === null ? '-' : value.toFixed(3);
}

/**
 * One row per run, engine and half (tune, then test). `empty` is the share answered with no results:
 * on off-topic sets the "no coverage" rate, elsewhere a miss a user sees as "No coverage found".
 * `nothing-from` counts answers that said the corpus has nothing from the year or month the question
 * named and showed the closest coverage instead; they are not counted in `empty`.
 */
export function qualityTable(reports: readonly RunReport[]): string {
  return formatTable(
    HEADER,
    halfRows(reports, (summary) => [
      figure(summary.hitAt1),
      figure(summary.hitAt3),
      figure(summary.hitAt5),
      figure(summary.mrrAt5),
      figure(summary.empty),
      String(summary.emptyCount),
      String(summary.outOfPeriodCount),
      figure(summary.quoteAccuracy),
      summary.latencyMs === null ? '-' : summary.latencyMs.p50.toFixed(2),
      summary.latencyMs === null ? '-' : summary.latencyMs.p99.toFixed(2),
    ]),
    4,
  );
}

/** One row per run, engine and half (tune, then test): its names, the half, and `cells` of its summary. */
function halfRows(reports: readonly RunReport[], cells: (summary: Summary) => string[]): string[][] {
  return reports.flatMap(({ run, corpus, engine, halves }) =>
    (['tune', 'test'] as const).map((half) => [
      run,
      corpus,
      engine,
      half,
      String(halves[half].questions),
      ...cells(halves[half]),
    ]),
  );
}

const TRUST_HEADER = [
  'set',
  'corpus',
  'engine',
  'half',
  'n',
  'answer',
  'closest',
  'none',
  'story?',
  'hit@3|answer',
  '(answers)',
  'gets there',
  'hit@3',
];

/**
 * How sure the replies are, one row per run, engine and half: the share of replies presented as an
 * answer (on an off-topic set: off-topic presented as an answer), as the closest coverage, and as "no
 * coverage"; the share asking "Which story?"; hit@3 among the answerable questions presented as an
 * answer (and how many were); and the share where a member gets there (the answer in the first 3 of
 * the reply, or, when it asks which story, within the right story, which it must offer). An engine that
 * does not say how sure it is presents every result as an answer.
 */
export function trustTable(reports: readonly RunReport[]): string {
  return formatTable(
    TRUST_HEADER,
    halfRows(reports, (summary) => [
      figure(summary.answered),
      figure(summary.closest),
      figure(summary.empty),
      figure(summary.asksStory),
      figure(summary.answerHitAt3),
      String(summary.answers),
      figure(summary.getsThere),
      figure(summary.hitAt3),
    ]),
    4,
  );
}
