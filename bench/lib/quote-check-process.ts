// Entry point of the child process that measures the quote check on one corpus (forked by
// measure-quote-check.ts): builds the engine as the bot does, then times quote checks of sentences made
// by bench/lib/quote-cases.ts and, in the same process, /ask's answers to NewsQA questions as the peer.
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type { Corpus } from '../../src/corpus/article.ts';
import { checkQuote } from '../../src/factcheck/check-quote.ts';
import { Engine } from '../../src/search/engine.ts';
import type { QuoteCheckJob, QuoteCheckOutcome } from './measure-quote-check.ts';
import { loadNewsQaQuestions } from './newsqa.ts';
import { summarizeLatencies } from './percentiles.ts';
import { quoteCases } from './quote-cases.ts';
import { seededShuffle } from './shuffle.ts';

async function measure(job: QuoteCheckJob): Promise<QuoteCheckOutcome> {
  const corpus = JSON.parse(await readFile(job.corpusFile, 'utf8')) as Corpus;
  const engine = Engine.build(corpus);
  const made = quoteCases(corpus.articles, { seed: 6, perKind: job.perKind });
  // Sentences that occur nowhere: corpus sentences with their words in another order.
  const nowhere = made
    .filter((c) => c.kind === 'verbatim')
    .map((c, i) => seededShuffle(c.original.split(' '), i).join(' '));
  const quotes = seededShuffle([...made.map((c) => c.text), ...nowhere], 6);
  const questions = seededShuffle(await loadNewsQaQuestions(job.questionsFile), 6).slice(0, quotes.length);
  for (const quote of quotes.slice(0, 20)) await checkQuote(engine, `${quote} warm`);
  const deadline = performance.now() + job.budgetSeconds * 1000;
  const checks: number[] = [];
  const asks: number[] = [];
  let checkCpuMicros = 0;
  for (const [i, quote] of quotes.entries()) {
    if (performance.now() > deadline) break;
    let started = performance.now();
    const cpu = process.cpuUsage();
    await checkQuote(engine, quote);
    checks.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    checkCpuMicros += used.user + used.system;
    const question = questions[i];
    if (!question) continue;
    started = performance.now();
    engine.answer(question.question, { limit: 3 });
    asks.push(performance.now() - started);
  }
  return {
    corpusName: job.corpusName,
    passages: engine.passageCount,
    quoteCheck: summarizeLatencies(checks),
    cpuPerCheckMs: checkCpuMicros / 1000 / checks.length,
    ask: summarizeLatencies(asks),
  };
}

const job = JSON.parse(process.argv[2] ?? '{}') as QuoteCheckJob;
let outcome: QuoteCheckOutcome | { error: string };
try {
  outcome = await measure(job);
} catch (error) {
  outcome = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
process.send?.(outcome, () => process.exit(0));
