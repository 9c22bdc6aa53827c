/**
 * Answer quality (`npm run eval`): every figure of docs/quality.md's "How to measure", for this engine
 * against MiniSearch with default options (and lunr with defaults where it builds quickly), on the same
 * passages, each for the tuning half and the test half of every question set.
 *
 *   npm run eval                                  everything (about 24k articles are loaded once)
 *   npm run eval -- --only newsdesk               this engine only (newsdesk,newsdesk-no-dates: with and without the date layer)
 *   npm run eval -- --sets seed,offtopic          some sets: newsqa, distractors, offtopic, seed,
 *                                                 bbc-reuters, off-topic-seed (offtopic = both corpora),
 *                                                 readers, near-misses, follow-ups (issue 32: this
 *                                                 engine only, over corpus/ and the 24k corpus)
 *   npm run eval -- --distractors                 the same as --sets distractors
 *   npm run eval -- --retrieval '{"nameBoost":2}' try other retrieval settings (retrieval.ts)
 *   npm run eval -- --model model.json            try another fitted model (npm run fit-ranking -- --out)
 *   npm run eval -- --json                        one JSON document on stdout
 *   npm run eval -- --outcomes FILE               also every question's outcome, per run and engine, in FILE
 *                                                 (to list what a change moved: compare two such files)
 *
 * Two tables: the figures of ranking (hit@k, empty, quote), and how sure the replies are:
 * the share of replies of each kind (answer, closest coverage, no coverage), asking "Which story?",
 * hit@3 among those presented as an answer, and whether a member gets there. A third for the follow-up
 * set: hit@k of each follow-up with its earlier story carried over each way, and without it.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { parseRankingModel, type RankingModel } from '../src/search/ranking-model.ts';
import { parseRetrievalSettings, RETRIEVAL, type RetrievalSettings } from '../src/search/retrieval.ts';
import { type CorpusName, evalCorpus } from './eval/corpora.ts';
import { outcomeDifferences, outcomeLabel } from './eval/date-layer-diff.ts';
import { evalEngines } from './eval/engines.ts';
import {
  evaluateFollowUps,
  type FollowUpOutcome,
  followUpTable,
  summarizeFollowUps,
} from './eval/follow-up-run.ts';
import { loadFollowUpSet } from './eval/follow-up-set.ts';
import type { QuestionOutcome } from './eval/outcome.ts';
import { summarizeHalves } from './eval/outcome.ts';
import { qualityTable, type RunReport, trustTable } from './eval/quality-table.ts';
import { evaluateRun, parseSets, RUNS, type RunName, runQuestions, wantsFollowUps } from './eval/runs.ts';
import { countPassages } from './lib/bench-corpus.ts';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    sets: { type: 'string' },
    distractors: { type: 'boolean', default: false },
    retrieval: { type: 'string' },
    model: { type: 'string' },
    json: { type: 'boolean', default: false },
    outcomes: { type: 'string' },
  },
});

const log = (line: string) => (args.json ? process.stderr : process.stdout).write(`${line}\n`);

let runs: RunName[];
let retrieval: RetrievalSettings;
let model: RankingModel | undefined;
try {
  runs = parseSets(args.distractors && args.sets === undefined ? 'distractors' : args.sets);
  retrieval = args.retrieval ? parseRetrievalSettings(JSON.parse(args.retrieval), '--retrieval') : RETRIEVAL;
  if (args.model) model = parseRankingModel(JSON.parse(readFileSync(args.model, 'utf8')), args.model);
} catch (error) {
  process.stderr.write(`npm run eval: ${(error as Error).message}\n`);
  process.exit(2);
}
const only = args.only?.split(',').map((name) => name.trim());
const engines = evalEngines(retrieval, model).filter(
  (engine) => only === undefined || only.includes(engine.name),
);
if (engines.length === 0) {
  process.stderr.write(
    `npm run eval: no engine is called "${args.only}"; choose from newsdesk, newsdesk-no-dates, minisearch-defaults, lunr-defaults\n`,
  );
  process.exit(2);
}

// Each corpus is loaded once and each engine built once on it, then asked every run's questions; the
// 24k corpus comes last so the quick sets report first.
const corpusOrder: CorpusName[] = ['seed', 'newsqa', 'full'];
// The follow-up pairs are on the seed articles and on BBC and Reuters ones: each over its own corpus.
const followUpPairs = wantsFollowUps(args.sets) ? await loadFollowUpSet() : [];
const followUpCorpora: CorpusName[] = followUpPairs.length > 0 ? ['seed', 'full'] : [];
const followUpOutcomes: FollowUpOutcome[] = [];
const reports: RunReport[] = [];
const outcomesOf = new Map<string, QuestionOutcome[]>();
const corpora: Record<string, { articles: number; passages: number }> = {};
const builds: { engine: string; corpus: CorpusName; ms: number }[] = [];
for (const corpusName of corpusOrder) {
  const corpusRuns = runs.filter((run) => RUNS[run].corpus === corpusName);
  if (corpusRuns.length === 0 && !followUpCorpora.includes(corpusName)) continue;
  const corpus = await evalCorpus(corpusName);
  corpora[corpusName] = { articles: corpus.articles.length, passages: countPassages(corpus.articles) };
  log(`${corpusName}: ${corpus.articles.length} articles, ${corpora[corpusName].passages} passages`);
  // A corpus loaded for the follow-up set alone is asked of this engine only (the others have no follow-ups).
  const asked = engines.filter(
    (candidate) =>
      candidate.corpora.includes(corpusName) && (corpusRuns.length > 0 || candidate.name === 'newsdesk'),
  );
  for (const engine of asked) {
    const started = performance.now();
    const index = await engine.build(corpus);
    const buildMs = performance.now() - started;
    builds.push({ engine: engine.name, corpus: corpusName, ms: buildMs });
    log(`  ${engine.name} built in ${(buildMs / 1000).toFixed(1)} s`);
    for (const run of corpusRuns) {
      const outcomes = await evaluateRun(index, run);
      outcomesOf.set(`${run} ${engine.name}`, outcomes);
      const halves = summarizeHalves(outcomes);
      reports.push({ run, corpus: corpusName, engine: engine.name, halves });
      // Each run's figures as soon as they exist, so a long run that is stopped still reports.
      const brief = (half: 'tune' | 'test') => {
        const { hitAt1, hitAt3, hitAt5, empty, answered, getsThere } = halves[half];
        return `${half} hit@1 ${hitAt1?.toFixed(3) ?? '-'} hit@3 ${hitAt3?.toFixed(3) ?? '-'} hit@5 ${hitAt5?.toFixed(3) ?? '-'} empty ${empty.toFixed(3)} answer ${answered.toFixed(3)} gets there ${getsThere?.toFixed(3) ?? '-'}`;
      };
      log(`    ${run.padEnd(15)} ${brief('tune')}  |  ${brief('test')}`);
    }
    if (index.followUps && followUpCorpora.includes(corpusName)) {
      const here = new Set(corpus.articles.map((article) => article.id));
      const pairs = followUpPairs.filter((pair) => here.has(pair.article));
      followUpOutcomes.push(...(await evaluateFollowUps(index.followUps, pairs)));
      log(`    follow-ups      ${pairs.length} pairs asked`);
    }
  }
}

log('');
// Read by set: each run's engines side by side.
log(qualityTable([...reports].sort((a, b) => runs.indexOf(a.run) - runs.indexOf(b.run))));
log('');
log(trustTable([...reports].sort((a, b) => runs.indexOf(a.run) - runs.indexOf(b.run))));
log('');
log(await dateLayerDifferences());
log('');
if (followUpOutcomes.length > 0) {
  log(followUpTable(summarizeFollowUps(followUpOutcomes)));
  log('');
}
log('empty: share answered with no results ("No coverage found"); quote: among rank-1 hits, share whose');
log(
  'quote holds the answer (engines that quote only); nothing-from: answered "Nothing from <the year or month',
);
log(
  'asked>; closest coverage is from …" (not counted as empty). NewsQA tunes on 0-based odd questions, the sets on odd ids.',
);
if (args.json) {
  const followUps = summarizeFollowUps(followUpOutcomes);
  process.stdout.write(`${JSON.stringify({ retrieval, corpora, builds, runs: reports, followUps })}
`);
}
if (args.outcomes) {
  await writeFile(args.outcomes, `${JSON.stringify(Object.fromEntries(outcomesOf), null, 1)}\n`);
  log(`every question's outcome: ${args.outcomes}`);
}

/** Every question answered differently with the date layer and without it, run by run. */
async function dateLayerDifferences(): Promise<string> {
  const lines: string[] = [];
  for (const run of runs) {
    const withDates = outcomesOf.get(`${run} newsdesk`);
    const withoutDates = outcomesOf.get(`${run} newsdesk-no-dates`);
    if (withDates === undefined || withoutDates === undefined) continue;
    const differences = outcomeDifferences(await runQuestions(run), withDates, withoutDates);
    lines.push(
      `${run}: ${differences.length} question(s) answered differently with the date layer than without`,
    );
    for (const { question, withDates: ours, withoutDates: theirs } of differences) {
      lines.push(
        `  ${question.id} (${question.half}) ${outcomeLabel(ours)} with dates, ${outcomeLabel(theirs)} without: ${question.question}`,
      );
    }
  }
  return lines.join('\n');
}
