import type { Engine } from '../../src/search/engine.ts';
import type { Period } from '../../src/search/period.ts';
import { loadQuestionSet, questionSetPath } from '../eval/question-set.ts';
import { formatTable } from './format-table.ts';
import { loadNewsQaQuestions } from './newsqa.ts';
import { type LatencySummary, summarizeLatencies } from './percentiles.ts';
import type { TargetCheck } from './report.ts';
import { seededShuffle } from './shuffle.ts';

/**
 * Issue 11's period, for the filtered `/ask`: four months of the Reuters archive, about a third of its
 * dated articles (NewsQA and BBC are undated, so the filter leaves them out).
 */
export const BENCH_PERIOD: Period = { since: '1987-03-01', until: '1987-06-30' };

/** How far over the unfiltered `/ask`'s p99 a filtered `/ask` or a `/timeline` may be and still count as the same. */
export const SAME_P99_TOLERANCE = 1.1;

/** The three ways a question is asked: `/ask`, `/ask since:1987-03 until:1987-06`, `/timeline`. */
export const DATED_MODES = ['ask', 'ask-filtered', 'timeline'] as const;
export type DatedMode = (typeof DATED_MODES)[number];

export interface DatedOutcome {
  corpusName: string;
  passages: number;
  /** Wall-clock and CPU (user + system) time per query of each mode, ms. */
  modes: Record<DatedMode, { wall: LatencySummary; cpu: LatencySummary }>;
}

/** A fixed sample of NewsQA questions, then the written BBC/Reuters ones (about dated Reuters articles). */
export async function datedQuestions(questionsFile: string, newsqaQuestions: number): Promise<string[]> {
  const newsqa = seededShuffle(await loadNewsQaQuestions(questionsFile), 11).slice(0, newsqaQuestions);
  const written = await loadQuestionSet(questionSetPath('bbc-reuters'));
  return seededShuffle([...newsqa.map((q) => q.question), ...written.map((q) => q.question)], 11);
}

/**
 * Asks each question the three ways in turn on one engine, rotating which goes first (a question's term
 * weights are cached by whichever asks first), so load on the shared machine falls on all three alike,
 * until the questions or `budgetSeconds` run out (one question at least). CPU time is measured beside wall time: other
 * processes inflate it far less.
 */
export function measureDatedModes(
  engine: Engine,
  questions: readonly string[],
  budgetSeconds = Number.POSITIVE_INFINITY,
  progress: (asked: number) => void = () => {},
): DatedOutcome['modes'] {
  const modes: Record<DatedMode, (question: string) => unknown> = {
    ask: (question) => engine.answer(question, { limit: 5 }),
    'ask-filtered': (question) => engine.answer(question, { limit: 5, period: BENCH_PERIOD }),
    timeline: (question) => engine.timeline(question),
  };
  const wall: Record<DatedMode, number[]> = { ask: [], 'ask-filtered': [], timeline: [] };
  const cpu: Record<DatedMode, number[]> = { ask: [], 'ask-filtered': [], timeline: [] };
  // One warm-up question each (wink-nlp's model, JIT), not timed.
  for (const run of Object.values(modes)) run('warm up the engine');
  const deadline = performance.now() + budgetSeconds * 1000;
  for (const [i, question] of questions.entries()) {
    if (i > 0 && performance.now() > deadline) break;
    for (let k = 0; k < DATED_MODES.length; k++) {
      const mode = DATED_MODES[(i + k) % DATED_MODES.length]!;
      const cpuStart = process.cpuUsage();
      const wallStart = performance.now();
      modes[mode](question);
      wall[mode].push(performance.now() - wallStart);
      const used = process.cpuUsage(cpuStart);
      cpu[mode].push((used.user + used.system) / 1000);
    }
    progress(i + 1);
  }
  const summary = (mode: DatedMode) => ({
    wall: summarizeLatencies(wall[mode]),
    cpu: summarizeLatencies(cpu[mode]),
  });
  return { ask: summary('ask'), 'ask-filtered': summary('ask-filtered'), timeline: summary('timeline') };
}

/** The report's table: each mode's wall and CPU p50/p99, and its p99 over the unfiltered `/ask`'s. */
export function datedLines(outcome: DatedOutcome | { error: string }): string[] {
  if ('error' in outcome)
    return [`Filtered /ask and /timeline (issue 11): FAILED: ${outcome.error.split('\n')[0]}`];
  const base = outcome.modes.ask;
  const rows = DATED_MODES.map((mode) => {
    const { wall, cpu } = outcome.modes[mode];
    return [
      mode,
      String(wall.count),
      wall.p50.toFixed(1),
      wall.p99.toFixed(1),
      `${(wall.p99 / base.wall.p99).toFixed(2)}x`,
      cpu.p50.toFixed(1),
      cpu.p99.toFixed(1),
      `${(cpu.p99 / base.cpu.p99).toFixed(2)}x`,
    ];
  });
  return [
    `Filtered /ask (since ${BENCH_PERIOD.since} until ${BENCH_PERIOD.until}) and /timeline (issue 11) at ${outcome.passages} passages (${outcome.corpusName}), each question asked the three ways in turn in one process:`,
    formatTable(
      ['mode', 'queries', 'wall p50 ms', 'wall p99 ms', 'p99/ask', 'CPU p50 ms', 'CPU p99 ms', 'CPU p99/ask'],
      rows,
      2,
    ),
  ];
}

/**
 * Issue 11's target: a filtered `/ask` and a `/timeline` answer within the unfiltered `/ask`'s p99
 * (times SAME_P99_TOLERANCE), judged on CPU time, which the shared machine's other load inflates far
 * less than wall time (the wall ratio is shown beside it).
 */
export function datedTarget(outcome: DatedOutcome | { error: string } | undefined): TargetCheck {
  const target = `filtered /ask and /timeline query p99 within ${SAME_P99_TOLERANCE}x the unfiltered /ask's (CPU time, same process)`;
  if (outcome === undefined || 'error' in outcome) return { target, status: 'SKIP', detail: 'not measured' };
  const base = outcome.modes.ask;
  const variants = DATED_MODES.filter((mode) => mode !== 'ask').map((mode) => ({
    mode,
    cpu: outcome.modes[mode].cpu.p99 / base.cpu.p99,
    wall: outcome.modes[mode].wall.p99 / base.wall.p99,
  }));
  return {
    target,
    status: variants.every((variant) => variant.cpu <= SAME_P99_TOLERANCE) ? 'PASS' : 'FAIL',
    detail: `${variants.map((v) => `${v.mode} ${v.cpu.toFixed(2)}x (wall ${v.wall.toFixed(2)}x)`).join(', ')} at ${outcome.corpusName}`,
  };
}
