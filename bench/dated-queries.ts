/**
 * `npm run bench:dated` (issue 11): at the full 121k-passage corpus (NewsQA + BBC + Reuters), the cost
 * of `/ask` with a period and of `/timeline` against the unfiltered `/ask`, on the same engine in the
 * same process, each question asked the three ways in turn, so load on the shared machine falls on all
 * three alike. CPU time per query is reported beside wall time: other processes inflate it far less.
 *
 *   npm run bench:dated                       300 NewsQA and every BBC/Reuters question
 *   npm run bench:dated -- --questions 100    fewer NewsQA questions
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCorpus, makeCorpus } from '../src/corpus/load-corpus.ts';
import { Engine } from '../src/search/engine.ts';
import { BENCH_PERIOD } from './engines/newsdesk-dated.ts';
import { loadQuestionSet, questionSetPath } from './eval/question-set.ts';
import { formatTable } from './lib/format-table.ts';
import { loadNewsQaQuestions } from './lib/newsqa.ts';
import { summarizeLatencies } from './lib/percentiles.ts';
import { SCALE_FILES, SHARED_DATA } from './lib/scale-corpus.ts';
import { seededShuffle } from './lib/shuffle.ts';

const { values } = parseArgs({ options: { questions: { type: 'string', default: '300' } } });
const log = (line: string) => process.stderr.write(`${line}\n`);

const corpus = makeCorpus(
  (await Promise.all(SCALE_FILES.map((file) => loadCorpus(join(SHARED_DATA, file))))).flatMap(
    (part) => part.articles,
  ),
);
const started = process.cpuUsage();
const engine = Engine.build(corpus);
log(`built ${engine.passageCount} passages in ${(process.cpuUsage(started).user / 1e6).toFixed(0)} s CPU`);
const newsqa = seededShuffle(
  await loadNewsQaQuestions(join(SHARED_DATA, 'newsqa', 'questions.jsonl')),
  11,
).slice(0, Number(values.questions));
const written = await loadQuestionSet(questionSetPath('bbc-reuters'));
const questions = [...newsqa.map((q) => q.question), ...written.map((q) => q.question)];

type Mode = 'ask' | 'ask-filtered' | 'timeline';
const modes: Record<Mode, (question: string) => unknown> = {
  ask: (question) => engine.answer(question, { limit: 5 }),
  'ask-filtered': (question) => engine.answer(question, { limit: 5, period: BENCH_PERIOD }),
  timeline: (question) => engine.timeline(question),
};
const wall: Record<Mode, number[]> = { ask: [], 'ask-filtered': [], timeline: [] };
const cpu: Record<Mode, number[]> = { ask: [], 'ask-filtered': [], timeline: [] };
// One warm-up question each (wink-nlp's model, JIT), not timed.
for (const run of Object.values(modes)) run('warm up the engine');
const order = Object.keys(modes) as Mode[];
for (const [i, question] of questions.entries()) {
  // Rotate which mode goes first: a question's terms are cached (weights) by whichever asks first.
  for (let k = 0; k < order.length; k++) {
    const mode = order[(i + k) % order.length]!;
    const cpuStart = process.cpuUsage();
    const wallStart = performance.now();
    modes[mode](question);
    wall[mode].push(performance.now() - wallStart);
    const used = process.cpuUsage(cpuStart);
    cpu[mode].push((used.user + used.system) / 1000);
  }
  if ((i + 1) % 50 === 0) log(`${i + 1}/${questions.length} questions`);
}

const rows = order.map((mode) => {
  const w = summarizeLatencies(wall[mode]);
  const c = summarizeLatencies(cpu[mode]);
  const base = { w: summarizeLatencies(wall.ask), c: summarizeLatencies(cpu.ask) };
  return [
    mode,
    String(w.count),
    w.p50.toFixed(1),
    w.p99.toFixed(1),
    (w.p99 / base.w.p99).toFixed(2),
    c.p50.toFixed(1),
    c.p99.toFixed(1),
    (c.p99 / base.c.p99).toFixed(2),
  ];
});
process.stdout.write(
  `${engine.passageCount} passages; period ${BENCH_PERIOD.since}..${BENCH_PERIOD.until}; ${questions.length} questions (${newsqa.length} NewsQA, ${written.length} BBC/Reuters)\n`,
);
process.stdout.write(
  formatTable(
    [
      'mode',
      'queries',
      'wall p50 ms',
      'wall p99 ms',
      'p99 / ask',
      'CPU p50 ms',
      'CPU p99 ms',
      'CPU p99 / ask',
    ],
    rows,
  ),
);
process.stdout.write('\n');
