import { readFile } from 'node:fs/promises';
import type { Corpus } from '../../src/corpus/article.ts';
import type { BenchIndex, EngineAdapter } from '../engines/engine-adapter.ts';
import type { EngineMeasurement, MeasurementJob, PersistenceMeasurement } from './measurement.ts';
import { canCollectGarbage, settledMemory } from './memory.ts';
import type { NewsQaQuestion, RetrievedPassage } from './newsqa.ts';
import { loadNewsQaQuestions, RetrievalScorer } from './newsqa.ts';
import { summarizeLatencies } from './percentiles.ts';
import { seededShuffle } from './shuffle.ts';

/** Fixes the order questions are asked in, the same for every engine and run. */
const QUESTION_ORDER_SEED = 6;

/** Warm-up stops after this long even if questions remain: a slow engine is warm long before. */
const WARMUP_LIMIT_MS = 2000;

/** Questions compared between the built and the reloaded index. */
const LOAD_CHECK_QUESTIONS = 20;

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

function sameResults(a: readonly RetrievedPassage[], b: readonly RetrievedPassage[]): boolean {
  return (
    a.length === b.length &&
    a.every((result, i) => result.article === b[i]!.article && result.passage === b[i]!.passage)
  );
}

async function measurePersistence(
  adapter: EngineAdapter,
  index: BenchIndex,
  corpus: Corpus,
  questions: readonly NewsQaQuestion[],
): Promise<PersistenceMeasurement | null> {
  if (!index.serialize || !adapter.load) return null;
  let started = performance.now();
  const serialized = await index.serialize();
  const saveMs = performance.now() - started;
  started = performance.now();
  const loaded = await adapter.load(corpus, serialized);
  const loadMs = performance.now() - started;
  let loadedMatches = true;
  for (const question of questions.slice(0, LOAD_CHECK_QUESTIONS)) {
    const [original, reloaded] = await Promise.all([
      index.search(question.question, 5),
      loaded.search(question.question, 5),
    ]);
    if (!sameResults(original, reloaded)) loadedMatches = false;
  }
  return { bytes: Buffer.byteLength(serialized), saveMs, loadMs, loadedMatches };
}

/**
 * Measures one engine on one corpus, in this process: build time, memory held by the index, query
 * latency and NewsQA quality, then the serialized index. Meant to run alone in a fresh process so no
 * other engine's heap is counted.
 */
export async function measureEngine(adapter: EngineAdapter, job: MeasurementJob): Promise<EngineMeasurement> {
  const corpus = JSON.parse(await readFile(job.corpusFile, 'utf8')) as Corpus;
  const allQuestions = seededShuffle(await loadNewsQaQuestions(job.questionsFile), QUESTION_ORDER_SEED);
  const questions = job.questionLimit === null ? allQuestions : allQuestions.slice(0, job.questionLimit);
  const passages = corpus.articles.reduce((sum, article) => sum + article.passages.length, 0);

  const before = settledMemory();
  let started = performance.now();
  const buildCpu = process.cpuUsage();
  const index = await adapter.build(corpus);
  const buildMs = performance.now() - started;
  const buildCpuMs = cpuMs(process.cpuUsage(buildCpu));
  const after = settledMemory();

  const warmupEnds = performance.now() + WARMUP_LIMIT_MS;
  for (const question of questions.slice(0, job.warmupQuestions)) {
    if (performance.now() > warmupEnds) break;
    await index.search(question.question, 5);
  }

  const scorer = new RetrievalScorer();
  const latencies: number[] = [];
  const budgetMs = job.queryBudgetSeconds * 1000;
  let spentMs = 0;
  const queryCpu = process.cpuUsage();
  for (const question of questions) {
    if (spentMs > budgetMs) break;
    started = performance.now();
    const pending = index.search(question.question, 5);
    // Awaiting a plain array would add a microtask turn to every synchronous engine's latency.
    const results = pending instanceof Promise ? await pending : pending;
    const elapsed = performance.now() - started;
    latencies.push(elapsed);
    spentMs += elapsed;
    scorer.add(question, results);
  }
  const queryCpuMs = cpuMs(process.cpuUsage(queryCpu));

  const persistence = job.measurePersistence
    ? await measurePersistence(adapter, index, corpus, questions)
    : null;
  return {
    engine: adapter.name,
    corpusName: job.corpusName,
    passages,
    buildMs,
    buildCpuMs,
    indexHeapBytes: after.heapUsed - before.heapUsed,
    heapUsedBytes: after.heapUsed,
    rssBytes: after.rss,
    indexRssBytes: after.rss - before.rss,
    latency: summarizeLatencies(latencies),
    cpuPerQueryMs: queryCpuMs / latencies.length,
    quality: scorer.scores(),
    questionsAvailable: questions.length,
    truncated: latencies.length < questions.length,
    persistence,
    memorySettled: canCollectGarbage(),
  };
}
