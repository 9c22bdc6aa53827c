import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { yieldToEventLoop } from '../event-loop.ts';
import type { Article, Corpus } from './article.ts';
import { formatOf } from './formats/index.ts';
import { makeCorpusAsync, parseArticleFile } from './parse-article.ts';
import { CorpusError, type CorpusProblem } from './problems.ts';

export { makeCorpus, makeCorpusAsync, parseArticleFile } from './parse-article.ts';

export { CorpusError, type CorpusProblem, formatProblem } from './problems.ts';

/** Bytes decoded between two yields to the event loop: a 20 MB newswire dump must not stall the bot. */
const DECODE_SLICE_BYTES = 1 << 20;

/**
 * Decodes a file strictly as UTF-8, so that one in another encoding is refused instead of quoted
 * garbled, into its lines. Slice by slice, and into lines rather than one string: joining a 20 MB
 * dump into one string alone blocks for longer than a heartbeat can wait.
 */
async function decodeLines(file: string, bytes: Uint8Array): Promise<string[]> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const lines: string[] = [];
  let partial = '';
  try {
    for (let at = 0; at < bytes.length; at += DECODE_SLICE_BYTES) {
      const end = Math.min(bytes.length, at + DECODE_SLICE_BYTES);
      const slice = (partial + decoder.decode(bytes.subarray(at, end), { stream: true })).split('\n');
      partial = slice.pop() ?? '';
      for (const line of slice) lines.push(line);
      if (end < bytes.length) await yieldToEventLoop();
    }
    lines.push(partial + decoder.decode());
  } catch {
    throw new CorpusError([{ file, line: 1, message: 'file is not valid UTF-8 text' }]);
  }
  return lines;
}

async function readSource(path: string, name: string): Promise<Article[]> {
  const lines = await decodeLines(name, await readFile(path));
  const format = formatOf(name);
  return format?.kind === 'bulk'
    ? await format.parse(name, lines)
    : [parseArticleFile(name, lines.join('\n'))];
}

/**
 * Files of a corpus folder that hold articles. Hidden files are skipped: the corpus store writes new
 * articles to hidden temporary files before renaming them into place.
 */
export function isCorpusFile(name: string): boolean {
  return !name.startsWith('.') && formatOf(name) !== undefined;
}

/**
 * Loads and validates a whole corpus: a folder of files in the formats of `formats/` (Markdown, plain
 * text, JSON Lines) or one such file. Throws `CorpusError` listing every problem in every file; never returns part of a
 * corpus.
 */
export async function loadCorpus(path: string): Promise<Corpus> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    throw new CorpusError([{ file: path, line: 1, message: 'no such file or folder' }]);
  }
  const sources = info.isDirectory()
    ? (await readdir(path))
        .filter(isCorpusFile)
        .sort()
        .map((name) => ({ path: join(path, name), name: join(path, name) }))
    : [{ path, name: path }];
  if (sources.length === 0) throw new CorpusError([{ file: path, line: 1, message: 'no articles found' }]);

  const problems: CorpusProblem[] = [];
  const articles: Article[] = [];
  const seen = new Map<string, string>();
  for (const source of sources) {
    try {
      for (const article of await readSource(source.path, source.name)) {
        const first = seen.get(article.id);
        if (first !== undefined) {
          const line = Number(/:(\d+)$/.exec(article.source)?.[1] ?? 1);
          problems.push({
            file: source.name,
            line,
            message: `article id "${article.id}" is also used by ${first}`,
          });
          continue;
        }
        seen.set(article.id, article.source);
        articles.push(article);
      }
    } catch (error) {
      if (!(error instanceof CorpusError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0) throw new CorpusError(problems);
  return makeCorpusAsync(articles);
}
