import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { evalCorpus } from '../bench/eval/corpora.ts';
import { loadNewsQaQuestions } from '../bench/lib/newsqa.ts';
import { SOURCES } from '../bench/eval/corpora.ts';
import { Engine } from '../src/search/engine.ts';
import { parseRankingModel, RANKING_MODEL } from '../src/search/ranking-model.ts';
import { readWordSimilarity } from '../src/semantic/word-similarity.ts';
const t0 = performance.now(); const rss0 = process.memoryUsage().rss;
const similarity = readWordSimilarity('/tmp/seed34/vectors');
console.log(`vectors: ${similarity.size} words, load ${(performance.now() - t0).toFixed(0)} ms, rss +${((process.memoryUsage().rss - rss0) / 1e6).toFixed(0)} MB`);
const corpus = await evalCorpus('newsqa');
const base = Engine.build(corpus);
const qs = (await loadNewsQaQuestions(SOURCES.newsqaQuestions)).slice(0, 600).map((q) => q.question);
const load = (f: string) => parseRankingModel(JSON.parse(readFileSync(f, 'utf8')));
const runs = { lexical: Engine.fromPostings(corpus, base.postings, { model: RANKING_MODEL }), answerNear: Engine.fromPostings(corpus, base.postings, { model: load('/tmp/seed34/m-near-0.001.json') }), gloveAndNear: Engine.fromPostings(corpus, base.postings, { model: load('/tmp/seed34/m-both-0.01.json'), similarity }) };
for (const q of qs) Engine.fromPostings(corpus, base.postings, { model: load('/tmp/seed34/m-both-0.01.json'), similarity }).answer(q, { limit: 5 });
const round = 1;
for (const [name, e] of Object.entries(runs)) {
  const ms: number[] = [];
  for (const q of qs) { const s = performance.now(); e.answer(q, { limit: 5 }); ms.push(performance.now() - s); }
  ms.sort((a, b) => a - b);
  if (round === 1) console.log(name, 'p50', ms[Math.floor(ms.length * 0.5)]!.toFixed(2), 'p99', ms[Math.floor(ms.length * 0.99)]!.toFixed(2));
}
