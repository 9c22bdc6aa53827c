/**
 * `npm run check-quote -- "quotation"`: checks a quotation word for word against the corpus in a
 * terminal. The result goes to stdout, diagnostics to stderr, so `npm run --silent check-quote -- --json`
 * is pure JSON.
 */
import { parseArgs } from 'node:util';
import { CorpusError, loadCorpus } from '../corpus/load-corpus.ts';
import { checkQuote, MAX_QUOTE_CHARS } from '../factcheck/check-quote.ts';
import { Engine } from '../search/engine.ts';
import { inertJson, stripControls } from '../text/controls.ts';
import { makeStyle, wantsColour } from './render-answer.ts';
import { quoteCheckToJson, renderQuoteCheck } from './render-quote-check.ts';

const USAGE = `Usage: npm run check-quote -- [options] "quotation"

Options:
  --json          print one JSON object: {verdict, citation, passage, diff, speaker, earliest}
  --corpus PATH   a folder of articles or a .jsonl file (default: corpus/)
  --help          show this help

Verdicts: verbatim, close (a few function words or word forms differ), altered (a number, name,
negation or other content word differs, or words are added or dropped), not-found.
`;

function parse(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      corpus: { type: 'string', default: 'corpus' },
      help: { type: 'boolean', default: false },
    },
  });
  const quote = positionals.join(' ').trim();
  if (!values.help && quote === '') throw new Error('no quotation given');
  if (quote.length > MAX_QUOTE_CHARS)
    throw new Error(`the quotation is longer than ${MAX_QUOTE_CHARS} characters`);
  return { ...values, quote };
}

async function main(argv: string[]): Promise<number> {
  let options: ReturnType<typeof parse>;
  try {
    options = parse(argv);
  } catch (error) {
    process.stderr.write(`check-quote: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  let engine: Engine;
  try {
    engine = Engine.build(await loadCorpus(options.corpus));
  } catch (error) {
    if (!(error instanceof CorpusError)) throw error;
    process.stderr.write(`check-quote: ${stripControls(error.message)}\n`);
    return 1;
  }
  const check = await checkQuote(engine, options.quote);
  process.stdout.write(
    options.json
      ? `${inertJson(quoteCheckToJson(check))}\n`
      : renderQuoteCheck(check, makeStyle(wantsColour(process.stdout))),
  );
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
