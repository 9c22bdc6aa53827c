/**
 * `npm run explain-misses -- --set seed [--half tune]`: for each question of a set this engine misses at
 * rank 1 (or refuses), what it ranked first with its features and confidence, where the answering
 * passage stood among its candidates, and what MiniSearch's defaults ranked first on the same passages.
 * A diagnosis aid for ranking work (read it before changing a feature), not a figure of the eval.
 *
 *   npm run explain-misses -- --set seed                 tuning half, misses only (diagnose on it, not on test)
 *   npm run explain-misses -- --set seed --all           every question, hits too
 *   npm run explain-misses -- --set off-topic            off-topic questions answered over the 24k articles
 *   npm run explain-misses -- --question "whereabouts is teteghem"   one question of your own, on the set's corpus
 *   npm run explain-misses -- --model /tmp/model.json    another fitted model (npm run fit-ranking -- --out)
 * The 24k-article sets (bbc-reuters, off-topic) load the whole archive: about a minute before the first line.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { confidenceFeatures } from '../src/search/confidence.ts';
import { Engine } from '../src/search/engine.ts';
import {
  confidenceOf,
  coverageScore,
  linear,
  parseRankingModel,
  RANKING_MODEL as SHIPPED,
} from '../src/search/ranking-model.ts';
import { buildMiniSearchDefaultsTopK } from './engines/minisearch-defaults-top-k.ts';
import { evalCorpus } from './eval/corpora.ts';
import { RUNS, type RunName, runQuestions } from './eval/runs.ts';
import { answersQuestion } from './lib/newsqa.ts';

const { values: args } = parseArgs({
  options: {
    set: { type: 'string', default: 'seed' },
    half: { type: 'string', default: 'tune' },
    all: { type: 'boolean', default: false },
    question: { type: 'string' },
    model: { type: 'string' },
  },
});
const run = args.set as RunName;
const corpus = await evalCorpus(RUNS[run].corpus);
const RANKING_MODEL = args.model
  ? parseRankingModel(JSON.parse(readFileSync(args.model, 'utf8')), args.model)
  : SHIPPED;
const engine = Engine.build(corpus, { model: RANKING_MODEL });
const peer = buildMiniSearchDefaultsTopK(corpus);
const round = (value: number) => Math.round(value * 1000) / 1000;
const asked =
  args.question === undefined
    ? await runQuestions(run)
    : [{ id: 'asked', question: args.question, article: '', answer: '\u0000', half: args.half as 'tune' }];
for (const question of asked) {
  if (question.half !== args.half) continue;
  // An off-topic question (no article) is a miss when anything is shown.
  const expected = { ...question, article: question.article ?? '', answer: question.answer ?? '\u0000' };
  const ours = engine.answer(question.question, { limit: 5 }).results;
  const ourRank = ours.findIndex((result) => answersQuestion(result, expected)) + 1;
  const theirs = await peer.search(question.question, 5);
  const theirRank = theirs.findIndex((result) => answersQuestion(result, expected)) + 1;
  const missed = question.article === null ? ours.length > 0 : ourRank !== 1;
  if (!args.all && !missed) continue;
  console.log(
    `\n== ${question.id} ours ${ourRank || '-'} (${ours.length} shown) minisearch ${theirRank || '-'}: ${question.question}  [${question.answer}]`,
  );
  const candidates = engine.candidatesForFitting(question.question);
  const scored = candidates
    .map((candidate) => {
      const score = linear(RANKING_MODEL.ranking, candidate.features);
      const confidenceInputs = confidenceFeatures(
        candidate.evidence,
        candidate.features,
        coverageScore(RANKING_MODEL.ranking, candidate.features),
      );
      return {
        candidate,
        score,
        confidence: confidenceOf(RANKING_MODEL, confidenceInputs),
        confidenceInputs,
      };
    })
    .sort((a, b) => b.score - a.score);
  const show = (label: string, entry: (typeof scored)[number], place: number) => {
    const f = Object.entries(entry.candidate.features)
      .map(([k, v]) => `${k} ${round(v)}`)
      .join(', ');
    const c = Object.entries(entry.confidenceInputs)
      .filter(([, v]) => v !== 0)
      .map(([k, v]) => `${k} ${round(v)}`)
      .join(', ');
    console.log(
      `  ${label} #${place + 1} ${entry.candidate.citation} score ${round(entry.score)} conf ${round(entry.confidence)}\n    rank: ${f}\n    conf: ${c}\n    "${entry.candidate.passage.slice(0, 160)}"`,
    );
  };
  const terms = scored[0]?.candidate.evidence.terms ?? [];
  console.log(
    `  terms: ${terms.map((t) => `${t.term}${t.known ? '' : '?'} ${round(t.weight)}${scored[0]!.candidate.evidence.focus.has(t.term) ? '*' : ''}`).join(', ')}`,
  );
  if (scored[0]) show('first', scored[0], 0);
  const right = scored.findIndex((entry) =>
    answersQuestion({ article: entry.candidate.article, passage: entry.candidate.passage }, expected),
  );
  if (right > 0) show('answer', scored[right]!, right);
  else if (right < 0) console.log(`  answer not among ${scored.length} candidates`);
  console.log(`  minisearch first: ${theirs[0]?.article} "${theirs[0]?.passage.slice(0, 100)}"`);
}
