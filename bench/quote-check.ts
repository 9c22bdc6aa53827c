/**
 * `npm run bench:quotes`: the quote check's latency alone at the benchmark's largest size (NewsQA + BBC +
 * Reuters, about 121k passages), as `npm run bench` measures it after the engines. For a machine too
 * busy for the whole benchmark.
 *
 *   npm run bench:quotes -- [--budget S] [--timeout S] [--data DIR]
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { assembleBenchCorpora } from './lib/bench-corpus.ts';
import { measureQuoteCheck, quoteCheckLines } from './lib/measure-quote-check.ts';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(projectRoot, '..', 'shared', 'data') },
    budget: { type: 'string', default: '30' },
    timeout: { type: 'string', default: '1200' },
  },
});
const largest = (await assembleBenchCorpora(values.data)).at(-1)!;
process.stderr.write(`${largest.name}: ${largest.articleCount} articles, ${largest.passageCount} passages\n`);
const workDir = await mkdtemp(join(tmpdir(), 'newsdesk-quotes-'));
try {
  const corpusFile = join(workDir, 'corpus.json');
  await writeFile(corpusFile, JSON.stringify(largest.corpus));
  const outcome = await measureQuoteCheck(
    {
      corpusName: largest.name,
      corpusFile,
      questionsFile: join(values.data, 'newsqa', 'questions.jsonl'),
      perKind: 60,
      budgetSeconds: Number(values.budget),
    },
    Number(values.timeout) * 1000,
  );
  process.stdout.write(`${quoteCheckLines(outcome).join('\n')}\n`);
  if ('error' in outcome) process.exitCode = 1;
} finally {
  await rm(workDir, { recursive: true, force: true });
}
