import { constants, type Dirent, type Stats } from 'node:fs';
import { lstat, open, readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { yieldToEventLoop } from '../event-loop.ts';
import type { Article, Corpus } from './article.ts';
import { corpusLimits } from './corpus-limits.ts';
import { formatOf } from './formats/index.ts';
import { makeCorpusAsync, parseArticleFile } from './parse-article.ts';
import { CorpusError, type CorpusProblem } from './problems.ts';

export { makeCorpus, makeCorpusAsync, parseArticleFile, parseArticleFileOffThread } from './parse-article.ts';

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

/**
 * How long one file may take to read. A local article takes milliseconds; a file on a hung network
 * mount must not hold a reload (and the moderators waiting on it) forever.
 */
export const READ_TIME_LIMIT_MS = 30_000;

/**
 * The bytes of one corpus file, or a `CorpusError` saying why it cannot be an article: only regular
 * files are read. A FIFO, socket or device is refused without being opened for reading (opening a
 * FIFO blocks until a writer comes, and a blocked read holds even process exit), a folder is refused,
 * and inside a corpus folder a link must point inside that folder.
 */
async function readRegularFile(
  path: string,
  name: string,
  folder: string | undefined,
  timeLimitMs: number,
): Promise<Uint8Array> {
  const refuse = (message: string) => new CorpusError([{ file: name, line: 1, message }]);
  const { maxFileBytes } = corpusLimits();
  const checkType = (info: Stats) => {
    if (info.isDirectory()) throw refuse('is a folder, not an article file');
    if (!info.isFile()) throw refuse('is not a regular file (a pipe, socket or device): not read');
    // By its size as stated, before a byte is read: a sparse file of 200 MB costs nothing to make.
    if (info.size > maxFileBytes) {
      throw refuse(
        `is ${megabytes(info.size)}; corpus files may be at most ${megabytes(maxFileBytes)} (CORPUS_MAX_FILE_MB): not read`,
      );
    }
  };
  try {
    if (folder !== undefined && (await lstat(path)).isSymbolicLink()) {
      const target = await realpath(path).catch(() => undefined);
      if (target === undefined) throw refuse('is a link to nothing');
      const inside = relative(await realpath(folder), target);
      if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
        throw refuse('is a link to a file outside the corpus folder: not read');
      }
    }
    checkType(await stat(path));
    // Non-blocking, so that a FIFO swapped in after the check above still cannot block the open.
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      checkType(await handle.stat());
      return await handle.readFile({ signal: AbortSignal.timeout(timeLimitMs) });
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof CorpusError) throw error;
    if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
      throw refuse(`could not be read within ${timeLimitMs / 1000} s`);
    }
    throw refuse(`could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/** `200 MB`, `5.5 KB`: one decimal below ten. */
function megabytes(bytes: number): string {
  const [size, unit] = bytes >= 1024 * 1024 ? [bytes / (1024 * 1024), 'MB'] : [bytes / 1024, 'KB'];
  return `${size >= 10 ? Math.round(size) : Math.round(size * 10) / 10} ${unit}`;
}

/** Records (of a `.jsonl` file) or files (of a folder) read so far, of all. */
export type ReadProgress = (done: number, total: number) => void;

async function readSource(
  path: string,
  name: string,
  folder: string | undefined,
  options: LoadOptions,
): Promise<Article[]> {
  const { onProgress } = options;
  const bytes = await readRegularFile(path, name, folder, options.readTimeLimitMs ?? READ_TIME_LIMIT_MS);
  options.onFile?.(name, bytes);
  const format = formatOf(name);
  if (format?.kind === 'article' && format.decode) return [parseArticleFile(name, format.decode(bytes))];
  const lines = await decodeLines(name, bytes);
  return format?.kind === 'bulk'
    ? await format.parse(name, lines, onProgress)
    : [parseArticleFile(name, lines.join('\n'))];
}

/** Options of {@link loadCorpus}. */
export interface LoadOptions {
  onProgress?: ReadProgress | undefined;
  /** How long one file may take to read. @default READ_TIME_LIMIT_MS */
  readTimeLimitMs?: number;
  /** Each file's bytes as read, before they are parsed (the index cache keys a parsed corpus on them). */
  onFile?: (name: string, bytes: Uint8Array) => void;
}

/**
 * Files of a corpus folder that hold articles. Hidden files are skipped: the corpus store writes new
 * articles to hidden temporary files before renaming them into place.
 */
export function isCorpusFile(name: string): boolean {
  return !name.startsWith('.') && formatOf(name) !== undefined;
}

/** The files a corpus is read from, in reading order, and what its folder holds that is not read. */
export interface CorpusListing {
  folder: boolean;
  /** `name` is how problems and `Article.source` name the file. */
  sources: { path: string; name: string }[];
  /** Other files and subfolders, by name (`notes.doc`, `sub/`); hidden files are left out on purpose. */
  skipped: string[];
}

/** Lists the corpus at `path` (a folder or one file). Throws `CorpusError` when there is nothing to read. */
export async function listCorpus(path: string): Promise<CorpusListing> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    throw new CorpusError([{ file: path, line: 1, message: 'no such file or folder' }]);
  }
  const entries = info.isDirectory() ? await readdir(path, { withFileTypes: true }) : [];
  // A folder named like an article (`x.md`) is read too, so that it is reported as a problem rather
  // than silently skipped; other subfolders are listed as not read.
  const read = (entry: Dirent) => isCorpusFile(entry.name);
  const sources = info.isDirectory()
    ? entries
        .filter(read)
        .map((entry) => entry.name)
        .sort()
        .map((name) => ({ path: join(path, name), name: join(path, name) }))
    : [{ path, name: path }];
  const skipped = entries
    .filter((entry) => !read(entry) && !entry.name.startsWith('.'))
    .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
    .sort();
  if (sources.length === 0) throw new CorpusError([{ file: path, line: 1, message: 'no articles found' }]);
  return { folder: info.isDirectory(), sources, skipped };
}

/**
 * Loads and validates a whole corpus: a folder of files in the formats of `formats/` (Markdown, plain
 * text, JSON Lines) or one such file. Throws `CorpusError` listing every problem in every file; never returns part of a
 * corpus.
 */
export async function loadCorpus(path: string, options: LoadOptions = {}): Promise<Corpus> {
  const { onProgress } = options;
  const { folder, sources, skipped } = await listCorpus(path);

  const problems: CorpusProblem[] = [];
  const articles: Article[] = [];
  const seen = new Map<string, string>();
  // One file: its records are the progress; a folder of several: its files.
  const records = sources.length === 1 ? onProgress : undefined;
  for (const [i, source] of sources.entries()) {
    if (!records) onProgress?.(i, sources.length);
    try {
      for (const article of await readSource(source.path, source.name, folder ? path : undefined, {
        ...options,
        onProgress: records,
      })) {
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

/** Names of skipped files shown before "and N more". */
const SKIPPED_SHOWN = 5;

/** "2 files not read: notes.doc, sub/": what the loader left out of a corpus folder, count first. */
export function notReadSummary(skipped: readonly string[]): string {
  const shown = skipped.slice(0, SKIPPED_SHOWN).join(', ');
  const more = skipped.length > SKIPPED_SHOWN ? ` and ${skipped.length - SKIPPED_SHOWN} more` : '';
  return `${skipped.length} ${skipped.length === 1 ? 'file' : 'files'} not read: ${shown}${more}`;
}
