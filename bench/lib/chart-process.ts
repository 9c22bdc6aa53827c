// Entry point of the child process that measures charts (forked by measure-charts.ts): builds the
// engine as the bot does, starts the chart worker, and runs chart-modes.ts.
import { readFile } from 'node:fs/promises';
import { ChartWorker } from '../../src/chart/chart-renderer.ts';
import type { Corpus } from '../../src/corpus/article.ts';
import { Engine } from '../../src/search/engine.ts';
import { type ChartOutcome, measureChartModes } from './chart-modes.ts';
import { datedQuestions } from './dated-modes.ts';
import type { ChartJob } from './measure-charts.ts';

async function measure(job: ChartJob): Promise<ChartOutcome> {
  const corpus = JSON.parse(await readFile(job.corpusFile, 'utf8')) as Corpus;
  const engine = Engine.build(corpus);
  const charts = new ChartWorker({ keep: 0 });
  try {
    const questions = await datedQuestions(job.questionsFile, job.newsqaQuestions);
    return {
      corpusName: job.corpusName,
      passages: engine.passageCount,
      ...(await measureChartModes(engine, charts, questions, job.budgetSeconds)),
    };
  } finally {
    await charts.close();
  }
}

const job = JSON.parse(process.argv[2] ?? '{}') as ChartJob;
let outcome: ChartOutcome | { error: string };
try {
  outcome = await measure(job);
} catch (error) {
  outcome = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
process.send?.(outcome, () => process.exit(0));
