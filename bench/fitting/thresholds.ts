import type { Ranked } from './confidence.ts';
import type { TuningData } from './measure.ts';
import { round } from './optimise.ts';

/**
 * Step (4) of the fit: the bands of the reply, each the extreme at which a line of the product's
 * holds on the tuning halves: `coverageThreshold` (a passage is about the question: timelines, and the
 * "answer" reply's floor), `closestBand` (below it, "no coverage"), and `answerBand` (the answer
 * model's: above it an answer, below it the closest coverage; see docs/quality.md).
 */

/**
 * The threshold is the highest at which neither NewsQA set has more than `MAX_EMPTY` of its questions
 * answered "no coverage" (the line for NewsQA over the archive, 5%), and no set written by readers
 * (seed, BBC/Reuters, readers; at 30 and 79 tuning questions one seed or BBC/Reuters question is 3 or
 * 1.3 points) more than 10%. A wrong answer is worse than "No coverage found" (the bot's users settle
 * arguments with it): between a 5% and a 10% line, the BBC/Reuters questions turned away are ones whose
 * first five results held no answer (its hit@5 stays the same; see the table the script prints) and
 * one seed question in thirty more is, while one in ten more off-topic questions over the archive is
 * turned away. Past the line, every step turns answerable questions away.
 */
const MAX_EMPTY = 0.05;
/** The line for "no coverage" on answerable sets, which the closest-coverage band keeps. */
const MAX_NONE = 0.02;
const READERS_SETS_MAX_EMPTY = 0.1;
const maxEmpty = (set: string) =>
  set === 'seed' || set === 'bbc-reuters' || set === 'readers' ? READERS_SETS_MAX_EMPTY : MAX_EMPTY;

/** Per set at one threshold: the questions, hit@1, hit@5 and those answered "no coverage". */
export type Outcome = Map<string, { n: number; hit1: number; hit5: number; empty: number }>;

/** Per set at one threshold: answerable sets' hit@1, hit@5 and empty share; off-topic sets' no-coverage share. */
export function outcome(ranked: Ranked[], threshold: number): Outcome {
  const by: Outcome = new Map();
  for (const r of ranked) {
    // As the engine answers: "no coverage" when the first result is not likely enough to answer, else
    // the results that are.
    const covered = (r.top[0]?.confidence ?? 0) >= threshold;
    const shown = covered ? r.top.filter((t) => t.confidence >= threshold) : [];
    const s = by.get(r.asked.set) ?? { n: 0, hit1: 0, hit5: 0, empty: 0 };
    s.n++;
    if (shown.length === 0) s.empty++;
    if (shown[0]?.label) s.hit1++;
    if (shown.some((t) => t.label)) s.hit5++;
    by.set(r.asked.set, s);
  }
  return by;
}

/** The highest threshold (in steps of 0.01) within the "no coverage" lines of `MAX_EMPTY`; `ranked` carries its confidences. */
export function coverageThreshold(data: TuningData, ranked: Ranked[]): number {
  const within = (at: Outcome) =>
    data.answerableSets.every((set) => at.get(set)!.empty <= maxEmpty(set) * at.get(set)!.n);
  let threshold = 0;
  for (let t = 0.01; t <= 0.99 && within(outcome(ranked, t)); t += 0.01) threshold = round(t);
  return threshold;
}

/**
 * The closest-coverage band's floor: the highest, at most the answer band's, at which no answerable
 * set has more than `MAX_NONE` of its questions that have a candidate at all answered "no coverage".
 * (A question without a candidate is "no coverage" at any band.)
 */
export function closestBand(data: TuningData, ranked: Ranked[], threshold: number): number {
  let band = 0;
  for (let t = 0.01; t <= threshold; t += 0.01) {
    const within = data.answerableSets.every((set) => {
      const firsts = ranked.filter((r) => r.asked.set === set && r.top.length > 0);
      return firsts.filter((r) => r.top[0]!.confidence < t).length <= MAX_NONE * firsts.length;
    });
    if (!within) break;
    band = round(t);
  }
  return band;
}

/**
 * Prints what the threshold trades: per set, the share answered "no coverage" and hit@5 at a few
 * thresholds; then the lowest threshold turning 90% of off-topic questions over the archive away, and
 * what it costs the answerable sets.
 */
export function printThresholdTrade(data: TuningData, ranked: Ranked[]): void {
  const { sets, answerableSets } = data;
  process.stderr.write(
    `threshold  ${sets.map((set) => set.padStart(18)).join('')}   (no coverage / hit@5)\n`,
  );
  for (let t = 0.1; t < 0.95; t += 0.05) {
    const at = outcome(ranked, t);
    const cells = sets.map((set) => {
      const s = at.get(set)!;
      return `${(s.empty / s.n).toFixed(2)} / ${(s.hit5 / s.n).toFixed(2)}`.padStart(18);
    });
    process.stderr.write(`${t.toFixed(2).padEnd(11)}${cells.join('')}\n`);
  }
  for (let t = 0.01; t <= 0.99; t += 0.01) {
    const at = outcome(ranked, t);
    const offTopic = at.get('off-topic@archive');
    if (!offTopic || offTopic.empty < 0.9 * offTopic.n) continue;
    const costs = answerableSets.map((set) => `${set} ${(at.get(set)!.empty / at.get(set)!.n).toFixed(3)}`);
    process.stderr.write(
      `90% off-topic@archive turned away from threshold ${t.toFixed(2)}; empty: ${costs.join(', ')}\n`,
    );
    break;
  }
}

/**
 * The lines the answer band keeps on the tuning halves: off-topic questions presented as an answer,
 * at most 5% over the archive and none over `corpus/`; hit@3 among the questions presented as an
 * answer at least 0.85 on the sets readers wrote (seed, BBC/Reuters, readers) and 0.75 on NewsQA over
 * the archive.
 */
const ANSWER_LINES: { set: string; kind: 'off-topic' | 'hit@3'; line: number }[] = [
  { set: 'off-topic@archive', kind: 'off-topic', line: 0.05 },
  { set: 'off-topic@seed', kind: 'off-topic', line: 0 },
  { set: 'seed', kind: 'hit@3', line: 0.85 },
  { set: 'bbc-reuters', kind: 'hit@3', line: 0.85 },
  { set: 'readers', kind: 'hit@3', line: 0.85 },
  { set: 'newsqa@archive', kind: 'hit@3', line: 0.75 },
];

/**
 * The answer band: the lowest at which every line of `ANSWER_LINES` holds on the held-out probabilities
 * `p` (a question answers when its first result is within the closest band and `p` is at least the
 * band); when none does, the lowest that keeps the most lines. Printed with what each band gives.
 */
export function answerBand(ranked: Ranked[], p: ReadonlyMap<Ranked, number>): number {
  const at = (t: number) =>
    ANSWER_LINES.map(({ set, kind, line }) => {
      const of = ranked.filter((r) => r.asked.set === set);
      const answered = of.filter((r) => (p.get(r) ?? 0) >= t);
      const share = answered.length / Math.max(1, of.length);
      const hit3 =
        answered.filter((r) => r.top.slice(0, 3).some((x) => x.label)).length / Math.max(1, answered.length);
      const value = kind === 'off-topic' ? share : hit3;
      return {
        set,
        value,
        share,
        kept: kind === 'off-topic' ? value <= line : answered.length === 0 || value >= line,
      };
    });
  process.stderr.write(`answer band (held out): per set, share answered / hit@3 among answers\n`);
  let best = { t: 1, kept: -1 };
  for (let t = 0.05; t <= 0.95; t += 0.01) {
    const cells = at(t);
    const kept = cells.filter((cell) => cell.kept).length;
    if (kept > best.kept) best = { t: round(t), kept };
    if (Math.round(t * 100) % 5 === 0) {
      process.stderr.write(
        `  ${t.toFixed(2)} ${cells.map((c) => `${c.set} ${c.share.toFixed(2)}/${c.value.toFixed(2)}${c.kept ? '' : '!'}`).join('  ')}\n`,
      );
    }
  }
  process.stderr.write(`  chosen ${best.t}: ${best.kept} of ${ANSWER_LINES.length} lines kept\n`);
  return best.t;
}
