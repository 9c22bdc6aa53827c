/**
 * `npm run bench:charts` (issue 30): at the full 121k-passage corpus (NewsQA + BBC + Reuters), the
 * chart `/timeline` attaches (built, drawn on the chart worker, back) beside the `/timeline` text reply,
 * and `/ask` while the worker draws charts against `/ask` with it idle (bench/lib/chart-modes.ts).
 * `npm run bench` makes the same measurement after its engines; this runs it alone.
 *
 *   npm run bench:charts                      300 NewsQA and every BBC/Reuters question, 90 s
 *   npm run bench:charts -- --seconds 40      a quicker look
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCorpus, makeCorpus } from '../src/corpus/load-corpus.ts';
import { chartLines, chartTargets } from './lib/chart-modes.ts';
import { measureCharts } from './lib/measure-charts.ts';
import { SCALE_FILES, SHARED_DATA } from './lib/scale-corpus.ts';

const { values } = parseArgs({
  options: { questions: { type: 'string', default: '300' }, seconds: { type: 'string', default: '90' } },
});
const corpus = makeCorpus(
  (await Promise.all(SCALE_FILES.map((file) => loadCorpus(join(SHARED_DATA, file))))).flatMap(
    (part) => part.articles,
  ),
);
const workDir = await mkdtemp(join(tmpdir(), 'newsdesk-bench-charts-'));
try {
  const corpusFile = join(workDir, 'full.json');
  await writeFile(corpusFile, JSON.stringify(corpus));
  const outcome = await measureCharts(
    {
      corpusName: 'full',
      corpusFile,
      questionsFile: join(SHARED_DATA, 'newsqa', 'questions.jsonl'),
      newsqaQuestions: Number(values.questions),
      budgetSeconds: Number(values.seconds),
    },
    600_000,
  );
  const lines = [
    ...chartLines(outcome),
    ...chartTargets(outcome).map((t) => `${t.status} ${t.target}: ${t.detail}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
