// Entry point of the child process that measures a filtered /ask and /timeline against the unfiltered
// /ask on one corpus (forked by measure-dated.ts): builds the engine as the bot does, then asks each
// question the three ways in turn (dated-modes.ts).
import { readFile } from 'node:fs/promises';
import type { Corpus } from '../../src/corpus/article.ts';
import { Engine } from '../../src/search/engine.ts';
import { type DatedOutcome, datedQuestions, measureDatedModes } from './dated-modes.ts';
import type { DatedJob } from './measure-dated.ts';

async function measure(job: DatedJob): Promise<DatedOutcome> {
  const corpus = JSON.parse(await readFile(job.corpusFile, 'utf8')) as Corpus;
  const engine = Engine.build(corpus);
  const questions = await datedQuestions(job.questionsFile, job.newsqaQuestions);
  return {
    corpusName: job.corpusName,
    passages: engine.passageCount,
    modes: measureDatedModes(engine, questions, job.budgetSeconds),
  };
}

const job = JSON.parse(process.argv[2] ?? '{}') as DatedJob;
let outcome: DatedOutcome | { error: string };
try {
  outcome = await measure(job);
} catch (error) {
  outcome = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
process.send?.(outcome, () => process.exit(0));
