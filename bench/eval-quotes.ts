/**
 * Quote-check quality (`npm run eval -- --quotes`, or `npm run eval:quotes`): the test set of
 * bench/lib/quote-cases.ts, made from the seed corpus and NewsQA articles (sentences that occur nowhere
 * come from BBC articles, which are not in the corpus), checked against seed + NewsQA, with the share of
 * right verdicts per kind. The verdict thresholds were set looking at the odd-numbered cases only; the
 * even-numbered half is reported apart.
 *
 *   npm run eval:quotes                  the report
 *   npm run eval:quotes -- --per-kind 60 a quicker run
 *   npm run eval:quotes -- --json        one JSON document on stdout
 *   npm run eval:quotes -- --wrong       also print every wrong verdict
 */
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadCorpus, makeCorpus } from '../src/corpus/load-corpus.ts';
import { checkQuote } from '../src/factcheck/check-quote.ts';
import { Engine } from '../src/search/engine.ts';
import { splitSentences } from '../src/text/sentences.ts';
import { summarizeLatencies } from './lib/percentiles.ts';
import { type QuoteCase, type QuoteCaseKind, quoteCases } from './lib/quote-cases.ts';
import { seededShuffle } from './lib/shuffle.ts';

const DATA = new URL('../../shared/data/', import.meta.url);
const SEED = 18;

const { values: args } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--quotes'),
  options: {
    'per-kind': { type: 'string', default: '200' },
    json: { type: 'boolean', default: false },
    wrong: { type: 'boolean', default: false },
  },
});
const perKind = Number(args['per-kind']);
const log = (line: string) => (args.json ? process.stderr : process.stdout).write(`${line}\n`);

const seed = await loadCorpus(new URL('../corpus', import.meta.url).pathname);
const newsqa = await loadCorpus(new URL('newsqa/articles.jsonl', DATA).pathname);
const corpus = makeCorpus([...seed.articles, ...newsqa.articles]);
const engine = Engine.build(corpus);

/** Sentences of BBC articles (2004-05, not in the corpus) whose words the corpus does not carry. */
async function elsewhere(count: number): Promise<string[]> {
  const lines = (await readFile(new URL('bbc/bbc.jsonl', DATA), 'utf8')).split('\n').filter(Boolean);
  const out: string[] = [];
  for (const line of seededShuffle(lines, SEED)) {
    const { text } = JSON.parse(line) as { text: string };
    const paragraph = text.split(/\n\s*\n/)[1] ?? '';
    const sentence = splitSentences(paragraph)[0]?.text.trim();
    if (sentence && sentence.split(/\s+/).length >= 8) out.push(sentence);
    if (out.length >= count) break;
  }
  return out;
}

const cases = [
  // The seed corpus is small: every case it yields, then NewsQA's.
  ...quoteCases(seed.articles, { seed: SEED, perKind: 20 }),
  ...quoteCases(newsqa.articles, { seed: SEED, perKind, elsewhere: await elsewhere(perKind) }),
];
log(
  `Quote check: ${cases.length} cases against ${corpus.articles.length} articles (seed + NewsQA), ${engine.passageCount} passages`,
);

interface Tally {
  cases: number;
  right: number;
  verdicts: Record<string, number>;
}
const tally = (): Tally => ({ cases: 0, right: 0, verdicts: {} });
const byKind = new Map<QuoteCaseKind, { all: Tally; tuned: Tally; unseen: Tally }>();
const wrong: (QuoteCase & { got: string; citationGot: string | null })[] = [];
const latencies: number[] = [];
for (const [i, testCase] of cases.entries()) {
  const started = performance.now();
  const check = await checkQuote(engine, testCase.text);
  latencies.push(performance.now() - started);
  const right =
    check.verdict === testCase.expected &&
    (testCase.citation === null || sameText(check.source?.passage, testCase.original));
  const entry = byKind.get(testCase.kind) ?? { all: tally(), tuned: tally(), unseen: tally() };
  byKind.set(testCase.kind, entry);
  for (const t of [entry.all, i % 2 === 1 ? entry.tuned : entry.unseen]) {
    t.cases++;
    if (right) t.right++;
    t.verdicts[check.verdict] = (t.verdicts[check.verdict] ?? 0) + 1;
  }
  if (!right) wrong.push({ ...testCase, got: check.verdict, citationGot: check.source?.citation ?? null });
}

/** A verdict counts only with the right passage (or one carrying the same sentence) as its evidence. */
function sameText(passage: string | undefined, sentence: string): boolean {
  const squash = (text: string) => text.replace(/\W+/g, '').toLowerCase();
  return passage !== undefined && squash(passage).includes(squash(sentence));
}

const GROUPS: { name: string; kinds: QuoteCaseKind[]; target: number }[] = [
  { name: 'verbatim', kinds: ['verbatim'], target: 0.95 },
  { name: 'close', kinds: ['function-word'], target: 0.95 },
  { name: 'altered', kinds: ['number', 'negation', 'name', 'clause'], target: 0.9 },
  { name: 'compound', kinds: ['compound'], target: 0.95 },
  { name: 'not-found', kinds: ['nowhere'], target: 0.95 },
];
const share = (t: Tally) => (t.cases === 0 ? 0 : t.right / t.cases);
const sum = (kinds: QuoteCaseKind[], half: 'all' | 'tuned' | 'unseen') => {
  const total = tally();
  for (const kind of kinds) {
    const t = byKind.get(kind)?.[half];
    if (!t) continue;
    total.cases += t.cases;
    total.right += t.right;
  }
  return total;
};
const report = GROUPS.map(({ name, kinds, target }) => ({
  verdict: name,
  target,
  all: share(sum(kinds, 'all')),
  cases: sum(kinds, 'all').cases,
  tunedHalf: share(sum(kinds, 'tuned')),
  unseenHalf: share(sum(kinds, 'unseen')),
  kinds: kinds.map((kind) => ({
    kind,
    ...byKind.get(kind)?.all,
    share: share(byKind.get(kind)?.all ?? tally()),
  })),
}));
const latency = summarizeLatencies(latencies);
for (const group of report) {
  log(
    `${group.verdict.padEnd(10)} ${(group.all * 100).toFixed(1).padStart(5)}% right of ${String(group.cases).padStart(4)}` +
      `  (odd half ${(group.tunedHalf * 100).toFixed(1)}%, even half ${(group.unseenHalf * 100).toFixed(1)}%)` +
      `  target ≥ ${group.target * 100}%  ${group.all >= group.target ? 'met' : 'NOT MET'}`,
  );
  if (group.kinds.length > 1)
    for (const kind of group.kinds)
      log(
        `  ${kind.kind.padEnd(14)} ${(kind.share * 100).toFixed(1).padStart(5)}% of ${kind.cases}  ${JSON.stringify(kind.verdicts)}`,
      );
  else log(`  verdicts given: ${JSON.stringify(group.kinds[0]?.verdicts ?? {})}`);
}
log(`latency per check: p50 ${latency.p50.toFixed(2)} ms, p99 ${latency.p99.toFixed(2)} ms`);
if (args.wrong)
  for (const w of wrong)
    log(
      `WRONG ${w.kind}: expected ${w.expected}, got ${w.got} (${w.citationGot} vs ${w.citation})\n  quote: ${w.text}\n  orig:  ${w.original}`,
    );
if (args.json)
  process.stdout.write(`${JSON.stringify({ cases: cases.length, report, latencyMs: latency })}\n`);
