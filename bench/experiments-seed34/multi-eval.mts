// Asks the eval's runs of several models, one index per corpus (Engine.fromPostings per model).
import { readFileSync, writeFileSync } from 'node:fs';
import { evalCorpus, type CorpusName } from '../bench/eval/corpora.ts';
import { summarizeHalves, type QuestionOutcome } from '../bench/eval/outcome.ts';
import { evaluateRun, RUNS, type RunName, type SearchIndex } from '../bench/eval/runs.ts';
import { Engine } from '../src/search/engine.ts';
import { parseRankingModel, RANKING_MODEL } from '../src/search/ranking-model.ts';
const [, , out, setsArg, ...modelFiles] = process.argv;
const models = [['current', RANKING_MODEL] as const, ...modelFiles.map((f) => [f, parseRankingModel(JSON.parse(readFileSync(f, 'utf8')), f)] as const)];
const runs = setsArg!.split(',') as RunName[];
const all: Record<string, QuestionOutcome[]> = {};
for (const corpusName of ['seed', 'newsqa', 'full'] as CorpusName[]) {
  const here = runs.filter((r) => RUNS[r].corpus === corpusName);
  if (here.length === 0) continue;
  const corpus = await evalCorpus(corpusName);
  const base = Engine.build(corpus);
  for (const [name, model] of models) {
    const engine = Engine.fromPostings(corpus, base.postings, { model });
    const index: SearchIndex = {
      reply: (q, limit) => { const a = engine.answer(q, { limit }); return { results: a.results, assurance: a.assurance, ...(a.stories ? { stories: a.stories } : {}) }; },
      search: (q, limit) => engine.answer(q, { limit }).results,
      within: (q, article, limit) => engine.answer(q, { limit, articleId: article }).results,
    };
    for (const run of here) {
      const outcomes = await evaluateRun(index, run);
      all[`${run} ${name}`] = outcomes;
      const h = summarizeHalves(outcomes);
      const f = (x: number | null) => (x === null ? '  -  ' : x.toFixed(3));
      const b = (s: (typeof h)['tune']) => `h1 ${f(s.hitAt1)} h3 ${f(s.hitAt3)} ans ${f(s.answered)} none ${f(s.empty)} h3|ans ${f(s.answerHitAt3)} gets ${f(s.getsThere)}`;
      console.log(`${run.padEnd(14)} ${name.padEnd(32)} tune ${b(h.tune)} | test ${b(h.test)}`);
    }
  }
}
writeFileSync(out!, JSON.stringify(all));
