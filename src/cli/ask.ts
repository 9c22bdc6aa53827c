/**
 * `npm run ask -- "who threatened the mayor?"`: answers questions from the corpus in a terminal.
 * Answers go to stdout, diagnostics to stderr, so `npm run --silent ask -- --json ...` is pure JSON.
 */
import { unlink } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { replyToQuestion } from '../answering/reply-to-question.ts';
import { timelineChart } from '../chart/timeline-chart.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { CorpusError } from '../corpus/load-corpus.ts';
import { writeFileAtomic } from '../files/atomic-write.ts';
import type { Timeline } from '../search/answer.ts';
import { SnapshotFormatError } from '../search/index-cache/corpus-snapshot.ts';
import { openEngine, type StartedEngine } from '../search/index-cache/fast-start.ts';
import { indexCacheOf } from '../search/index-cache/index-cache.ts';
import { type Period, PeriodError, parsePeriod } from '../search/period.ts';
import { MAX_LIMIT, type SearchEngine } from '../search/search-engine.ts';
import { inertJson, stripControls } from '../text/controls.ts';
import { loadLanguageModelWhenNeeded } from '../text/entities.ts';
import { answerToJson, makeStyle, renderAnswer, wantsColour } from './render-answer.ts';
import { renderTimeline, timelineToJson } from './render-timeline.ts';
import { startProgress } from './start-progress.ts';

const USAGE = `Usage: npm run ask -- [options] "question"
       npm run ask -- --timeline [options] "topic"

Options:
  --json          print one JSON object per question
  --stdin         read one question per line from standard input
  --limit N       results per question, 1-${MAX_LIMIT} (default 3)
  --corpus PATH   a folder of articles or a .jsonl file (default: corpus/)
  --since WHEN    only articles published from then: a year (2003), month (2015-08) or date (2015-08-01)
  --until WHEN    only articles published until then (inclusive); undated articles are left out
  --story ID      answer within one article (a story a reply offered under "Which story?")
  --timeline      the topic's coverage in date order, one line per article (first report marked,
                  undated articles apart) instead of an answer
  --chart FILE    with --timeline: also write its chart to FILE, a PNG (articles per day, week, month
                  or year by outlet, as /timeline attaches it)
  --help          show this help
`;

/** `--story` names no article of the corpus: said in plain words, exit code 1. */
class UnknownStoryError extends Error {
  override name = 'UnknownStoryError';
}

/** A mistake in how the command was called: reported with the usage, exit code 2. */
class UsageError extends Error {
  override name = 'UsageError';
}

function parse(argv: string[]) {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const limit = values.limit === undefined ? 3 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}, not "${values.limit}"`);
  }
  const question = positionals.join(' ');
  if (!values.help && !values.stdin && question.trim() === '') throw new UsageError('no question given');
  if (values.stdin && question !== '') throw new UsageError('give a question or --stdin, not both');
  if (values.chart !== undefined && !values.timeline)
    throw new UsageError('--chart draws a timeline: give --timeline too');
  if (values.chart !== undefined && values.stdin)
    throw new UsageError('--chart draws one topic: give it, not --stdin');
  if (values.chart === '') throw new UsageError('--chart needs the file to write');
  if (values.story !== undefined && values.story.trim() === '')
    throw new UsageError('--story needs the id of an article');
  if (values.story !== undefined && values.timeline)
    throw new UsageError('--story answers a question within one article: not with --timeline');
  let period: Period | undefined;
  try {
    period = parsePeriod({ since: values.since ?? null, until: values.until ?? null });
  } catch (error) {
    if (!(error instanceof PeriodError)) throw error;
    throw new UsageError(`--${error.message}`);
  }
  return { ...values, limit, question, period };
}

function parseOptions(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      stdin: { type: 'boolean', default: false },
      limit: { type: 'string' },
      corpus: { type: 'string', default: 'corpus' },
      since: { type: 'string' },
      until: { type: 'string' },
      story: { type: 'string' },
      timeline: { type: 'boolean', default: false },
      chart: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
}

async function main(argv: string[]): Promise<number> {
  let options: ReturnType<typeof parse>;
  try {
    options = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`ask: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }

  loadLanguageModelWhenNeeded();
  try {
    await answerAll(options);
    return 0;
  } catch (error) {
    if (!(error instanceof CorpusError || error instanceof ConfigError || error instanceof UnknownStoryError))
      throw error;
    process.stderr.write(`ask: ${stripControls(error.message)}\n`);
    return 1;
  }
}

/** Answers the question, or every line of stdin, on stdout. Throws `CorpusError`, `ConfigError`. */
async function answerAll(options: ReturnType<typeof parse>): Promise<void> {
  let started = await open(options.corpus);

  const style = makeStyle(wantsColour(process.stdout));
  const answerWith = async (engine: SearchEngine, question: string): Promise<string> => {
    if (options.timeline) {
      const timeline = await engine.timelineAsync(question, options.period ? { period: options.period } : {});
      const text = options.json
        ? `${inertJson(timelineToJson(timeline))}\n`
        : renderTimeline(timeline, style);
      if (options.chart === undefined) return text;
      const said = await writeChart(timeline, options, options.chart);
      // `--json` keeps stdout pure JSON: where the chart went is for the person, on stderr.
      if (options.json) process.stderr.write(said);
      return options.json ? text : text + said;
    }
    const article = options.story === undefined ? undefined : engine.article(options.story.trim());
    if (options.story !== undefined && !article)
      throw new UnknownStoryError(`no article "${stripControls(options.story.trim())}" in the corpus`);
    const reply = await replyToQuestion(engine, {
      question,
      limit: options.limit,
      ...(article ? { article } : {}),
      ...(options.period ? { period: options.period } : {}),
    });
    return options.json ? `${inertJson(answerToJson(reply))}\n` : renderAnswer(reply, style);
  };
  const answerOne = async (question: string): Promise<string> => {
    try {
      return await answerWith(started.engine, question);
    } catch (error) {
      // The restored corpus's text is checked block by block as a question first reads it: a block
      // damaged on disk since it was saved is found only now. Never answered from: the cache file is
      // removed, and the corpus read from its files again (and saved again).
      if (!(error instanceof SnapshotFormatError) || started.lookup.status !== 'hit') throw error;
      process.stderr.write(`ask: the cache file was unusable (${error.message}); reading the corpus again\n`);
      await unlink(started.lookup.file).catch(() => undefined);
      started = await open(options.corpus);
      return answerWith(started.engine, question);
    }
  };

  if (!options.stdin) {
    process.stdout.write(await answerOne(options.question));
    return;
  }
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  let first = true;
  for await (const line of lines) {
    if (!options.json && !first) process.stdout.write('\n');
    if (!options.json) process.stdout.write(`${style.bold(`? ${stripControls(line.trim())}`)}\n`);
    process.stdout.write(await answerOne(line));
    first = false;
  }
}

/**
 * The timeline's chart written to `file` (atomically: a viewer never opens half a picture), and the
 * line that says where; or the line saying there is nothing to draw, and no file. Chart.js and Skia load
 * only here, so other calls do not pay for them.
 */
async function writeChart(timeline: Timeline, period: Period, file: string): Promise<string> {
  const chart = timelineChart(timeline, period);
  if (!chart) return 'No chart: no article listed is dated, so there is nothing to draw.\n';
  const { drawChart } = await import('../chart/draw-chart.ts');
  await writeFileAtomic(file, await drawChart(chart));
  return `chart: ${file}\n`;
}

/**
 * The bot's own start: the persisted index in INDEX_CACHE_DIR when it matches the corpus (one file per
 * corpus), else built and saved there for the next call; progress on stderr meanwhile. On this thread:
 * a worker would only add its own start and a copy of the corpus to a one-off question. The parsed
 * corpus is kept with the index, so that the next call need not parse unchanged files.
 */
function open(corpus: string): Promise<StartedEngine<SearchEngine>> {
  const config = { ...loadConfig(), CORPUS_PATH: corpus, INDEX_THREAD: 'main' as const };
  return openEngine(config, indexCacheOf(config), startProgress({ label: 'ask' }), { keepCorpus: true });
}

// Not a top-level `await`: `npm run ask` runs this compiled to CommonJS (`run-compiled.mjs`).
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
