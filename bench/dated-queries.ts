/**
 * `npm run bench:dated` (issue 11): at the full 121k-passage corpus (NewsQA + BBC + Reuters), the cost
 * of `/ask` with a period and of `/timeline` against the unfiltered `/ask`, on the same engine in the
 * same process, each question asked the three ways in turn (bench/lib/dated-modes.ts). `npm run bench`
 * makes the same measurement after its engines; this runs it alone, with as many questions as asked.
 *
 *   npm run bench:dated                       300 NewsQA and every BBC/Reuters question
 *   npm run bench:dated -- --questions 100    fewer NewsQA questions
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCorpus, makeCorpus } from '../src/corpus/load-corpus.ts';
import { Engine } from '../src/search/engine.ts';
import { datedLines, datedQuestions, datedTarget, measureDatedModes } from './lib/dated-modes.ts';
import { SCALE_FILES, SHARED_DATA } from './lib/scale-corpus.ts';

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
const questions = await datedQuestions(
  join(SHARED_DATA, 'newsqa', 'questions.jsonl'),
  Number(values.questions),
);
const outcome = {
  corpusName: 'full',
  passages: engine.passageCount,
  modes: measureDatedModes(engine, questions, Number.POSITIVE_INFINITY, (asked) => {
    if (asked % 50 === 0) log(`${asked}/${questions.length} questions`);
  }),
};
const target = datedTarget(outcome);
process.stdout.write(
  `${[...datedLines(outcome), `${target.status} ${target.target}: ${target.detail}`].join('\n')}\n`,
);
