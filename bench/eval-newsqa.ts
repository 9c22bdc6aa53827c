/**
 * Retrieval quality on NewsQA (`npm run eval`): this engine against MiniSearch with default options and
 * lunr with defaults, on the same passages, scored by the rule in `../shared/README.md`.
 *
 *   npm run eval                      all three engines, all questions
 *   npm run eval -- --only newsdesk   this engine only (quick, for tuning)
 *   npm run eval -- --ranking '{"article":0.6}'   try other ranking weights
 *   npm run eval -- --json            one JSON document on stdout
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadCorpus } from '../src/corpus/load-corpus.ts';
import { Engine } from '../src/search/engine.ts';
import { RANKING, type RankingWeights } from '../src/search/ranking.ts';
import type { BenchIndex } from './engines/engine-adapter.ts';
import { lunrDefaults } from './engines/lunr.ts';
import { miniSearchDefaults } from './engines/minisearch-defaults.ts';
import { loadNewsQaQuestions, RetrievalScorer } from './lib/newsqa.ts';
import { summarizeLatencies } from './lib/percentiles.ts';

const DATA = new URL('../../shared/data/newsqa/', import.meta.url);

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    ranking: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

const ranking: RankingWeights = {
  ...RANKING,
  ...(args.ranking ? (JSON.parse(args.ranking) as Partial<RankingWeights>) : {}),
};
const corpus = await loadCorpus(new URL('articles.jsonl', DATA).pathname);
const questions = await loadNewsQaQuestions(new URL('questions.jsonl', DATA).pathname);

const engines: { name: string; build: () => BenchIndex | Promise<BenchIndex> }[] = [
  {
    name: 'newsdesk',
    build: () => {
      const engine = Engine.build(corpus, { ranking });
      return { search: (question: string, limit: number) => engine.answer(question, { limit }).results };
    },
  },
  { name: 'minisearch-defaults', build: () => miniSearchDefaults.build(corpus) },
  { name: 'lunr-defaults', build: () => lunrDefaults.build(corpus) },
].filter((engine) => args.only === undefined || engine.name === args.only);

const passages = corpus.articles.reduce((sum, article) => sum + article.passages.length, 0);
const log = (line: string) => (args.json ? process.stderr : process.stdout).write(`${line}\n`);
log(`NewsQA: ${corpus.articles.length} articles, ${passages} passages, ${questions.length} questions`);

const report = [];
for (const { name, build } of engines) {
  const index = await build();
  // Half the questions were used to tune the ranking weights; the other half shows whether it generalises.
  const scorers = { all: new RetrievalScorer(), tuned: new RetrievalScorer(), unseen: new RetrievalScorer() };
  const latencies: number[] = [];
  for (const [i, question] of questions.entries()) {
    const started = performance.now();
    const results = await index.search(question.question, 5);
    latencies.push(performance.now() - started);
    scorers.all.add(question, results);
    (i % 2 === 1 ? scorers.tuned : scorers.unseen).add(question, results);
  }
  const scores = scorers.all.scores();
  const latency = summarizeLatencies(latencies);
  report.push({ engine: name, ...scores, unseenHalf: scorers.unseen.scores(), latencyMs: latency });
  log(
    `${name.padEnd(20)} hit@1 ${scores.hitAt1.toFixed(3)}  hit@5 ${scores.hitAt5.toFixed(3)}  MRR@5 ${scores.mrrAt5.toFixed(3)}` +
      `  (even-numbered half: hit@1 ${scorers.unseen.scores().hitAt1.toFixed(3)} hit@5 ${scorers.unseen.scores().hitAt5.toFixed(3)})` +
      `  p50 ${latency.p50.toFixed(2)} ms  p99 ${latency.p99.toFixed(2)} ms`,
  );
}
if (args.json)
  process.stdout.write(
    `${JSON.stringify({ corpus: { articles: corpus.articles.length, passages }, report })}\n`,
  );
