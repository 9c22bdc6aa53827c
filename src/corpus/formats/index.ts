import { extname } from 'node:path';
import type { ArticleFileFormat, CorpusFormat } from './format.ts';
import { html } from './html.ts';
import { jsonLines } from './json-lines.ts';
import { markdown } from './markdown.ts';
import { plainText } from './plain-text.ts';

export type { ArticleFileFormat, BulkFormat, CorpusFormat } from './format.ts';

/**
 * Every kind of file a corpus may hold. Adding a format is one file in this folder and one entry here:
 * the loader, `/corpus`'s checks and its help text derive from this list.
 */
export const CORPUS_FORMATS: readonly CorpusFormat[] = [markdown, plainText, html, jsonLines];

/** The formats that hold one article per file: the ones `/corpus add` accepts. */
export const ARTICLE_FILE_FORMATS: readonly ArticleFileFormat[] = CORPUS_FORMATS.filter(
  (format): format is ArticleFileFormat => format.kind === 'article',
);

/** File endings read as one article each (`.md`, `.markdown`, `.txt`, `.html`, `.htm`). */
export const ARTICLE_EXTENSIONS: readonly string[] = ARTICLE_FILE_FORMATS.flatMap(
  (format) => format.extensions,
);

/** The format a file name's extension names, if any. */
export function formatOf(fileName: string): CorpusFormat | undefined {
  const extension = extname(fileName).toLowerCase();
  return CORPUS_FORMATS.find((format) => format.extensions.includes(extension));
}
