import { loadConfig } from '../config.ts';
import type { Corpus } from '../corpus/article.ts';
import { corpusLimitsOf, setCorpusLimits } from '../corpus/corpus-limits.ts';
import { CorpusError, loadCorpus } from '../corpus/load-corpus.ts';
import { stripControls } from '../text/controls.ts';
import { runImport } from './import-run.ts';

/**
 * `npm run import -- <url | feed url | file.html> ...`: imports articles into CORPUS_PATH, printing a
 * progress line per item and a summary. Exits 1 when nothing was imported, 2 on a usage error.
 */
async function main(targets: string[]): Promise<number> {
  if (targets.length === 0) {
    process.stderr.write('Usage: npm run import -- <article link | feed link | page.html> ...\n');
    return 2;
  }
  const config = loadConfig();
  setCorpusLimits(corpusLimitsOf(config));
  let current: Corpus = { articles: [], version: '' };
  try {
    current = await loadCorpus(config.CORPUS_PATH);
  } catch (error) {
    if (!(error instanceof CorpusError)) throw error;
    // An empty or partly invalid folder can still receive articles; duplicates are then not detected.
    process.stderr.write(
      `Note: the corpus at ${config.CORPUS_PATH} did not load (${error.problems[0]?.message}).\n`,
    );
  }
  const summary = await runImport(targets, {
    folder: config.CORPUS_PATH,
    current,
    allowPrivate: config.FETCH_ALLOW_PRIVATE,
    // Targets, titles and what servers answer (an HTTP status text) are remote text: printed inert.
    writeLine: (line) => process.stderr.write(`${stripControls(line)}\n`),
  });
  process.stdout.write(
    `Imported ${summary.added.length} article${summary.added.length === 1 ? '' : 's'} into ${config.CORPUS_PATH}` +
      ` (${summary.skipped} already there, ${summary.failed} failed).` +
      (summary.added.length > 0
        ? ' A running bot serves them after /reload or SIGHUP (or by itself with WATCH_CORPUS=true).'
        : '') +
      '\n',
  );
  return summary.added.length > 0 ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
