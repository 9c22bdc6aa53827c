/**
 * `npm run bench` (issue 6): this project's engine against MiniSearch (defaults), lunr, FlexSearch and
 * Orama on the same passages at three corpus sizes. Each engine and size is measured alone in a fresh
 * child process (bench/lib/engine-process.ts), one after another, never two at once.
 *
 *   npm run bench                                  everything, within about 10 minutes
 *   npm run bench -- --max-passages 60000          the two smaller sizes
 *   npm run bench -- --engines newsdesk --sizes full   this engine at the largest size only
 *   npm run bench -- --engines newsdesk,lunr --questions 300   a quick look
 *   npm run --silent bench -- --json > bench.json  one JSON document on stdout
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { engineAdapters } from './engines/registry.ts';
import { assembleBenchCorpora } from './lib/bench-corpus.ts';
import { type ChartOutcome, chartLines, chartTargets } from './lib/chart-modes.ts';
import { type DatedOutcome, datedLines, datedTarget } from './lib/dated-modes.ts';
import { formatTable } from './lib/format-table.ts';
import { describeMachine, installedVersions } from './lib/machine.ts';
import { measureCharts } from './lib/measure-charts.ts';
import { measureDated } from './lib/measure-dated.ts';
import { measureQuoteCheck, quoteCheckLines } from './lib/measure-quote-check.ts';
import type { MeasurementJob, MeasurementOutcome } from './lib/measurement.ts';
import { isFailed } from './lib/measurement.ts';
import { checkTargets, growthRatios, peerRatios } from './lib/report.ts';
import { runEngineProcess } from './lib/run-engine-process.ts';
import { allotSlot } from './lib/time-budget.ts';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

const usage = `Usage: npm run bench -- [options]
  --max-passages N        measure only corpus sizes of at most N passages (default: all three)
  --sizes a,b             measure only these corpus sizes: newsqa, 50k, full (default: all three)
  --engines a,b           engines to measure (default: all: ${engineAdapters.map((a) => a.name).join(', ')})
  --json                  print one JSON document on stdout (progress goes to stderr)
  --data DIR              the shared data folder (default: ../shared/data)
  --questions N           ask only N NewsQA questions, a fixed sample (quick runs; default: all)
  --query-budget S        at most S seconds of timed queries per engine and size (default: 20); the rest of the
                          questions are skipped, and less is given when the time limit draws near
  --time-limit S          seconds the measurements should fit in (default: 540, so a run with loading stays
                          within 10 minutes); time is shared among engines and sizes by passage count
  --timeout S             seconds one engine may take on one size before it is killed (default: 240)`;

function positiveInteger(value: string | undefined, option: string): number | null {
  if (value === undefined) return null;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0)
    throw new Error(`${option} must be a positive integer, got "${value}"`);
  return number;
}

function parseOptions() {
  const { values } = parseArgs({
    options: {
      'max-passages': { type: 'string' },
      engines: { type: 'string' },
      sizes: { type: 'string' },
      json: { type: 'boolean', default: false },
      data: { type: 'string', default: resolve(projectRoot, '..', 'shared', 'data') },
      questions: { type: 'string' },
      'query-budget': { type: 'string', default: '20' },
      'time-limit': { type: 'string', default: '540' },
      timeout: { type: 'string', default: '240' },
      help: { type: 'boolean', default: false },
    },
  });
  const engines = values.engines?.split(',').map((name) => name.trim()) ?? engineAdapters.map((a) => a.name);
  const unknown = engines.filter((name) => !engineAdapters.some((adapter) => adapter.name === name));
  if (unknown.length > 0) throw new Error(`unknown engine(s): ${unknown.join(', ')}`);
  return {
    help: values.help,
    json: values.json,
    dataDir: values.data,
    engines,
    sizes: values.sizes?.split(',').map((name) => name.trim()) ?? null,
    maxPassages: positiveInteger(values['max-passages'], '--max-passages'),
    questionLimit: positiveInteger(values.questions, '--questions'),
    queryBudgetSeconds: positiveInteger(values['query-budget'], '--query-budget')!,
    timeLimitSeconds: positiveInteger(values['time-limit'], '--time-limit')!,
    timeoutSeconds: positiveInteger(values.timeout, '--timeout')!,
  };
}

const log = (message: string) => process.stderr.write(`${message}\n`);
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

function resultRows(outcomes: readonly MeasurementOutcome[]): string[][] {
  return outcomes.map((outcome) => {
    if (isFailed(outcome))
      return [outcome.corpusName, outcome.engine, `FAILED: ${outcome.error.split('\n')[0]}`];
    const persistence = outcome.persistence;
    return [
      outcome.corpusName,
      outcome.engine,
      String(outcome.passages),
      (outcome.buildMs / 1000).toFixed(2),
      (outcome.buildCpuMs / 1000).toFixed(2),
      ((outcome.buildCpuMs * 1000) / outcome.passages).toFixed(1),
      mib(outcome.indexHeapBytes),
      (outcome.indexHeapBytes / outcome.passages).toFixed(0),
      mib(outcome.rssBytes),
      outcome.latency.p50.toFixed(2),
      outcome.latency.p99.toFixed(2),
      outcome.cpuPerQueryMs.toFixed(2),
      outcome.latency.perSecond.toFixed(0),
      outcome.quality.hitAt1.toFixed(3),
      outcome.quality.hitAt5.toFixed(3),
      outcome.quality.mrrAt5.toFixed(3),
      `${outcome.quality.questions}${outcome.truncated ? '*' : ''}`,
      persistence ? mib(persistence.bytes) : '-',
      persistence ? (persistence.loadMs / 1000).toFixed(2) : '-',
      persistence ? (persistence.loadedMatches ? 'yes' : 'NO') : '-',
    ];
  });
}

async function main(): Promise<void> {
  const options = parseOptions();
  if (options.help) {
    log(usage);
    return;
  }
  const machine = describeMachine();
  const versions = installedVersions(projectRoot, ['minisearch', 'lunr', 'flexsearch', '@orama/orama']);
  log(`machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, node ${machine.node}`);

  log(`loading corpora from ${options.dataDir} ...`);
  const allSizes = await assembleBenchCorpora(options.dataDir);
  const unknownSizes = options.sizes?.filter((name) => !allSizes.some((size) => size.name === name)) ?? [];
  if (unknownSizes.length > 0)
    throw new Error(
      `unknown size(s): ${unknownSizes.join(', ')} (the sizes: ${allSizes.map((s) => s.name).join(', ')})`,
    );
  const sizes = allSizes.filter(
    (size) =>
      (options.maxPassages === null || size.passageCount <= options.maxPassages) &&
      (options.sizes === null || options.sizes.includes(size.name)),
  );
  if (sizes.length === 0) {
    throw new Error(
      `--max-passages ${options.maxPassages} is below the smallest corpus (${allSizes[0]?.passageCount} passages)`,
    );
  }
  for (const size of sizes)
    log(`  ${size.name}: ${size.articleCount} articles, ${size.passageCount} passages (${size.description})`);

  const workDir = await mkdtemp(join(tmpdir(), 'newsdesk-bench-'));
  const outcomes: MeasurementOutcome[] = [];
  let quoteCheck: Awaited<ReturnType<typeof measureQuoteCheck>> | undefined;
  let dated: DatedOutcome | { error: string } | undefined;
  let charts: ChartOutcome | { error: string } | undefined;
  const started = performance.now();
  let remainingPassages = sizes.reduce((sum, size) => sum + size.passageCount * options.engines.length, 0);
  try {
    for (const size of sizes) {
      const corpusFile = join(workDir, `${size.name}.json`);
      await writeFile(corpusFile, JSON.stringify(size.corpus));
      for (const engine of options.engines) {
        const slot = allotSlot({
          remainingSeconds: options.timeLimitSeconds - (performance.now() - started) / 1000,
          passages: size.passageCount,
          remainingPassages,
          remainingMeasurements: sizes.length * options.engines.length - outcomes.length,
          maxQuerySeconds: options.queryBudgetSeconds,
          minQuerySeconds: 3,
        });
        remainingPassages -= size.passageCount;
        const job: MeasurementJob = {
          engine,
          corpusName: size.name,
          corpusFile,
          questionsFile: join(options.dataDir, 'newsqa', 'questions.jsonl'),
          warmupQuestions: 50,
          questionLimit: options.questionLimit,
          queryBudgetSeconds: slot.querySeconds,
          measurePersistence: slot.measurePersistence,
        };
        const engineStarted = performance.now();
        const outcome = await runEngineProcess(job, options.timeoutSeconds * 1000);
        const seconds = ((performance.now() - engineStarted) / 1000).toFixed(1);
        log(
          isFailed(outcome)
            ? `  ${size.name} ${engine}: FAILED (${outcome.error.split('\n')[0]}) after ${seconds} s`
            : `  ${size.name} ${engine}: build ${(outcome.buildMs / 1000).toFixed(1)} s, ${outcome.latency.count} questions in a ${slot.querySeconds.toFixed(0)} s budget, p99 ${outcome.latency.p99.toFixed(2)} ms, hit@5 ${outcome.quality.hitAt5.toFixed(3)} (${seconds} s)`,
        );
        outcomes.push(outcome);
      }
    }
    const largest = sizes.at(-1)!;
    quoteCheck = await measureQuoteCheck(
      {
        corpusName: largest.name,
        corpusFile: join(workDir, `${largest.name}.json`),
        questionsFile: join(options.dataDir, 'newsqa', 'questions.jsonl'),
        perKind: 60,
        budgetSeconds: options.queryBudgetSeconds,
      },
      options.timeoutSeconds * 1000,
    );
    log(quoteCheckLines(quoteCheck).join('\n'));
    // Issue 11: a filtered /ask and /timeline against the unfiltered /ask, each question asked the three
    // ways in turn in one process, so the machine's load falls on all three alike.
    if (options.engines.includes('newsdesk')) {
      const atLargest = {
        corpusName: largest.name,
        corpusFile: join(workDir, `${largest.name}.json`),
        questionsFile: join(options.dataDir, 'newsqa', 'questions.jsonl'),
        newsqaQuestions: options.questionLimit ?? 300,
      };
      // Three queries a question, and a p99 needs a few hundred of each.
      dated = await measureDated(
        { ...atLargest, budgetSeconds: 3 * options.queryBudgetSeconds },
        options.timeoutSeconds * 1000,
      );
      log(datedLines(dated).join('\n'));
      // Issue 30: /timeline's chart beside its text reply, and /ask while charts are drawn against /ask
      // without; two phases, the second waiting for the worker's charts between questions.
      charts = await measureCharts(
        { ...atLargest, budgetSeconds: 4 * options.queryBudgetSeconds },
        options.timeoutSeconds * 1000,
      );
      log(chartLines(charts).join('\n'));
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  const totalSeconds = (performance.now() - started) / 1000;

  const corpora = sizes.map(({ name, description, articleCount, passageCount }) => ({
    name,
    description,
    articles: articleCount,
    passages: passageCount,
  }));
  const engines = engineAdapters
    .filter((adapter) => options.engines.includes(adapter.name))
    .map((adapter) => ({
      name: adapter.name,
      package: adapter.packageName,
      configuration: adapter.configuration,
    }));
  const targets = [...checkTargets(outcomes), datedTarget(dated), ...chartTargets(charts)];
  const ratios = peerRatios(outcomes);
  const growth = growthRatios(outcomes);

  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ machine, versions, corpora, engines, totalSeconds, results: outcomes, ratios, growth, targets, quoteCheck, dated, charts }, null, 2)}\n`,
    );
    return;
  }

  const out: string[] = [];
  out.push(
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB RAM, ${machine.os}, node ${machine.node}`,
  );
  out.push(
    `Libraries: ${Object.entries(versions)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}`,
  );
  out.push('Engines:');
  for (const engine of engines) out.push(`  ${engine.name}: ${engine.configuration}`);
  out.push('Corpora:');
  for (const corpus of corpora)
    out.push(
      `  ${corpus.name}: ${corpus.articles} articles, ${corpus.passages} passages (${corpus.description})`,
    );
  out.push(
    `Total time ${totalSeconds.toFixed(0)} s. Each engine measured alone in a fresh process; one query at a time.`,
  );
  out.push('');
  out.push(
    formatTable(
      [
        'size',
        'engine',
        'passages',
        'build s',
        'cpu s',
        'cpu µs/psg',
        'heap MiB',
        'B/psg',
        'RSS MiB',
        'p50 ms',
        'p99 ms',
        'cpu ms/q',
        'q/s',
        'hit@1',
        'hit@5',
        'MRR@5',
        'asked',
        'saved MiB',
        'load s',
        'load ok',
      ],
      resultRows(outcomes),
      2,
    ),
  );
  out.push(
    'build s = wall time; cpu s, cpu µs/psg = build CPU time (user + system, all threads), robust to other load;',
  );
  out.push('heap = heap held by the index after GC (corpus excluded); RSS = whole process after indexing;');
  out.push(
    'p50/p99 = wall-clock latency per query; cpu ms/q = CPU time per query; q/s = queries per second on one core,',
  );
  out.push(
    'back to back; asked* = the query budget ran out: latency and quality cover a fixed random sample of that size.',
  );
  out.push('');
  if (ratios.length > 0) {
    out.push('Ratios, this engine / peer (lower is better except hit@5):');
    const peers = [...new Set(ratios.map((ratio) => ratio.peer))];
    const metrics = [...new Set(ratios.map((ratio) => ratio.metric))];
    const rows = [...new Set(ratios.map((ratio) => ratio.corpusName))].flatMap((corpusName) =>
      metrics.map((metric) => [
        corpusName,
        metric,
        ...peers.map((peer) => {
          const ratio = ratios.find(
            (r) => r.corpusName === corpusName && r.metric === metric && r.peer === peer,
          );
          return ratio ? `${ratio.ratio.toFixed(2)}x` : '-';
        }),
      ]),
    );
    out.push(formatTable(['size', 'metric', ...peers], rows, 2));
    out.push('');
  }
  if (growth.length > 0) {
    out.push('Per-passage cost growth, largest / smallest size (1.00 = linear):');
    out.push(
      formatTable(
        ['engine', 'sizes', 'build/psg', 'heap/psg'],
        growth.map((g) => [
          g.engine,
          `${g.from} -> ${g.to}`,
          `${g.buildPerPassage.toFixed(2)}x`,
          `${g.heapPerPassage.toFixed(2)}x`,
        ]),
      ),
    );
    out.push('');
  }
  if (quoteCheck) out.push(...quoteCheckLines(quoteCheck), '');
  if (dated) out.push(...datedLines(dated), '');
  if (charts) out.push(...chartLines(charts), '');
  out.push('Targets (issue 6; then issue 11, then issue 30):');
  for (const check of targets) out.push(`  ${check.status} ${check.target}: ${check.detail}`);
  process.stdout.write(`${out.join('\n')}\n`);
}

main().catch((error: unknown) => {
  log(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
