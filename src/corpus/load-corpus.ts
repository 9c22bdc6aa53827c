import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { TimeSlicer, yieldToEventLoop } from '../event-loop.ts';
import type { Article, Corpus } from './article.ts';
import { ARTICLE_EXTENSIONS, buildArticle, makeCorpusAsync, parseArticleFile } from './parse-article.ts';
import { CorpusError, type CorpusProblem } from './problems.ts';

export { makeCorpus, makeCorpusAsync, parseArticleFile } from './parse-article.ts';

export { CorpusError, type CorpusProblem, formatProblem } from './problems.ts';

/**
 * Metadata read from a JSON Lines record (the shape of `../shared/data/*\/*.jsonl`); other fields are
 * ignored. Newswire dumps hold headline-only items (empty `text`: an article with no passages), items
 * without a headline (the first line of `text` stands in, as in a `.txt` file) and empty records
 * (skipped: there is nothing to cite).
 */
const JSONL_FIELDS = ['title', 'publisher', 'url', 'published', 'author', 'language'] as const;

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

/** Parses the lines of a JSON Lines file of `{id, title, text, ...}` records, or lists every problem. */
export async function parseJsonl(
  file: string,
  lines: readonly string[],
  onProgress?: ReadProgress,
): Promise<Article[]> {
  const articles: Article[] = [];
  const problems: CorpusProblem[] = [];
  // A large import must not stall the bot: parse in slices of a few milliseconds.
  const slicer = new TimeSlicer();
  for (const [i, line] of lines.entries()) {
    if (slicer.due) onProgress?.(i, lines.length);
    await slicer.pause();
    if (line.trim() === '') continue;
    const lineNumber = i + 1;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      problems.push({ file, line: lineNumber, message: 'not valid JSON' });
      continue;
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      problems.push({ file, line: lineNumber, message: 'record must be a JSON object' });
      continue;
    }
    const fields = record as Record<string, unknown>;
    const id = typeof fields.id === 'number' ? String(fields.id) : fields.id;
    if (typeof id !== 'string') {
      problems.push({ file, line: lineNumber, message: 'id is required (a string or number)' });
      continue;
    }
    if (fields.text != null && typeof fields.text !== 'string') {
      problems.push({ file, line: lineNumber, message: 'text must be a string' });
      continue;
    }
    const meta = Object.fromEntries(
      JSONL_FIELDS.filter((key) => fields[key] != null).map((key) => [key, fields[key]]),
    );
    const body = typeof fields.text === 'string' ? fields.text : '';
    if (meta.title === undefined || meta.title === '') {
      const lines = body.split('\n').map((l) => l.trim());
      const first = lines.findIndex((l) => l !== '');
      // Neither title nor text: nothing to cite, so the record is skipped.
      if (first < 0) continue;
      meta.title = lines[first]!.slice(0, 300);
    }
    try {
      articles.push(
        buildArticle(id, `${file}:${lineNumber}`, meta, body, {
          file,
          keyLines: new Map(JSONL_FIELDS.map((key) => [key, lineNumber])),
          bodyLine: lineNumber,
          emptyBodyAllowed: true,
        }),
      );
    } catch (error) {
      if (!(error instanceof CorpusError)) throw error;
      problems.push(...error.problems.map((problem) => ({ ...problem, line: lineNumber })));
    }
  }
  if (problems.length > 0) throw new CorpusError(problems);
  return articles;
}

/** Records (of a `.jsonl` file) or files (of a folder) read so far, of all. */
export type ReadProgress = (done: number, total: number) => void;

async function readSource(path: string, name: string, onProgress?: ReadProgress): Promise<Article[]> {
  const lines = await decodeLines(name, await readFile(path));
  return extname(name).toLowerCase() === '.jsonl'
    ? await parseJsonl(name, lines, onProgress)
    : [parseArticleFile(name, lines.join('\n'))];
}

/**
 * Files of a corpus folder that hold articles. Hidden files are skipped: the corpus store writes new
 * articles to hidden temporary files before renaming them into place.
 */
export function isCorpusFile(name: string): boolean {
  if (name.startsWith('.')) return false;
  const extension = extname(name).toLowerCase();
  return extension === '.jsonl' || (ARTICLE_EXTENSIONS as readonly string[]).includes(extension);
}

/**
 * Loads and validates a whole corpus: a folder of article files (`.md`, `.txt`, `.jsonl`) or one
 * `.jsonl` file. Throws `CorpusError` listing every problem in every file; never returns part of a
 * corpus.
 */
export async function loadCorpus(path: string, options: { onProgress?: ReadProgress } = {}): Promise<Corpus> {
  const { onProgress } = options;
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    throw new CorpusError([{ file: path, line: 1, message: 'no such file or folder' }]);
  }
  const entries = info.isDirectory() ? await readdir(path, { withFileTypes: true }) : [];
  const read = (entry: Dirent) => !entry.isDirectory() && isCorpusFile(entry.name);
  const sources = info.isDirectory()
    ? entries
        .filter(read)
        .map((entry) => entry.name)
        .sort()
        .map((name) => ({ path: join(path, name), name: join(path, name) }))
    : [{ path, name: path }];
  // Other files and subfolders are not read; hidden files are left out of the list on purpose.
  const skipped = entries
    .filter((entry) => !read(entry) && !entry.name.startsWith('.'))
    .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
    .sort();
  if (sources.length === 0) throw new CorpusError([{ file: path, line: 1, message: 'no articles found' }]);

  const problems: CorpusProblem[] = [];
  const articles: Article[] = [];
  const seen = new Map<string, string>();
  // One file: its records are the progress; a folder of several: its files.
  const records = sources.length === 1 ? onProgress : undefined;
  for (const [i, source] of sources.entries()) {
    if (!records) onProgress?.(i, sources.length);
    try {
      for (const article of await readSource(source.path, source.name, records)) {
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
  const corpus = { ...(await makeCorpusAsync(articles)), skipped };
  onProgress?.(sources.length, sources.length);
  return corpus;
}
