/**
 * `npm run bench:retrieval -- --retrieval JSON [--model FILE] [--questions N]`: what other retrieval
 * settings (a wider posting budget, a wider candidate pool) and their model cost per question at 121k
 * passages, against the shipped settings in the same process. Both engines are made from the same
 * postings and asked each question in turn, alternating which goes first, so a loaded machine slows
 * both alike; the ratio of their percentiles is the figure (`npm run bench` times the shipped settings
 * alone against other libraries).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Engine } from '../src/search/engine.ts';
import { parseRankingModel } from '../src/search/ranking-model.ts';
import { parseRetrievalSettings } from '../src/search/retrieval.ts';
import { evalCorpus, SOURCES } from './eval/corpora.ts';
import { loadNewsQaQuestions } from './lib/newsqa.ts';
import { percentile } from './lib/percentiles.ts';
import { seededShuffle } from './lib/shuffle.ts';

const { values: args } = parseArgs({
  options: {
    retrieval: { type: 'string', default: '{}' },
    model: { type: 'string' },
    questions: { type: 'string', default: '600' },
  },
});
const retrieval = parseRetrievalSettings(JSON.parse(args.retrieval), '--retrieval');
const model = args.model
  ? parseRankingModel(JSON.parse(readFileSync(args.model, 'utf8')), args.model)
  : undefined;
const corpus = await evalCorpus('full');
const built = Engine.build(corpus);
const engines = {
  shipped: Engine.fromPostings(corpus, built.postings),
  tried: Engine.fromPostings(corpus, built.postings, { retrieval, ...(model ? { model } : {}) }),
};
const questions = seededShuffle(await loadNewsQaQuestions(SOURCES.newsqaQuestions), 34).slice(
  0,
  Number(args.questions),
);
const WARM_UP = 30;
const wall = { shipped: [] as number[], tried: [] as number[] };
const cpu = { shipped: [] as number[], tried: [] as number[] };
for (const [i, question] of questions.entries()) {
  const order = i % 2 === 0 ? (['shipped', 'tried'] as const) : (['tried', 'shipped'] as const);
  for (const name of order) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    engines[name].answer(question.question, { limit: 3 });
    const used = process.cpuUsage(cpuStarted);
    if (i < WARM_UP) continue;
    wall[name].push(performance.now() - started);
    cpu[name].push((used.user + used.system) / 1000);
  }
}
const row = (name: 'shipped' | 'tried') => ({
  settings: name,
  wallP50: round(percentile(wall[name], 50)),
  wallP99: round(percentile(wall[name], 99)),
  cpuP50: round(percentile(cpu[name], 50)),
  cpuP99: round(percentile(cpu[name], 99)),
});
console.table([row('shipped'), row('tried')]);
const ratio = (values: typeof wall, p: number) =>
  round(percentile(values.tried, p) / percentile(values.shipped, p));
console.log(
  `${wall.tried.length} questions at ${corpus.articles.length} articles; tried / shipped: wall p50 ${ratio(wall, 50)}x, p99 ${ratio(wall, 99)}x; CPU p50 ${ratio(cpu, 50)}x, p99 ${ratio(cpu, 99)}x`,
);

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
