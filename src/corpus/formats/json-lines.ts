import { TimeSlicer } from '../../event-loop.ts';
import type { Article } from '../article.ts';
import { buildArticle } from '../build-article.ts';
import { CorpusError, type CorpusProblem } from '../problems.ts';
import { toIsoDate } from '../published-date.ts';
import type { BulkFormat } from './format.ts';

/**
 * Metadata read from a JSON Lines record (the shape of `../shared/data/*\/*.jsonl`; `date` stands for
 * `published` when that is absent, and leaves the article undated when unreadable); other fields are
 * ignored. Newswire dumps hold headline-only items (empty `text`: an article with no passages), items
 * without a headline (the first line of `text` stands in, as in a `.txt` file) and empty records
 * (skipped: there is nothing to cite).
 */
const JSONL_FIELDS = ['title', 'publisher', 'url', 'published', 'author', 'language'] as const;

/** Parses the lines of a JSON Lines file of `{id, title, text, ...}` records, or lists every problem. */
async function parseJsonl(
  file: string,
  lines: readonly string[],
  onProgress?: (done: number, total: number) => void,
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
    // Newswire dumps (Reuters-21578) call the publication date `date`, and a few of theirs are
    // corrupt or marked as guesswork: those articles stay undated instead of refusing the import.
    const dumpDate = typeof fields.date === 'string' ? toIsoDate(fields.date) : null;
    if (meta.published === undefined && dumpDate !== null) meta.published = dumpDate;
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

/** JSON Lines: one `{"id", "title", "text", ...}` record per line, for bulk imports and benchmarks. */
export const jsonLines: BulkFormat = {
  kind: 'bulk',
  extensions: ['.jsonl'],
  description: 'JSON Lines records',
  parse: parseJsonl,
};
