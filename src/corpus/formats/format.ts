import type { Article } from '../article.ts';

/**
 * How one kind of corpus file is read. A format is declared once, in its own file, and listed in
 * `index.ts`; the loader, the accepted extensions, `/corpus`'s checks and its help text all derive
 * from that list.
 */
export type CorpusFormat = ArticleFileFormat | BulkFormat;

interface FormatBase {
  /** File endings, lower-case, with the dot. The first is the one help text names. */
  readonly extensions: readonly string[];
  /** What a reader of the help text calls it: `Markdown with front matter`. */
  readonly description: string;
}

/** One article per file, the article's id its file name: `/corpus` can add, replace and remove it. */
export interface ArticleFileFormat extends FormatBase {
  readonly kind: 'article';
  /** For files that state their own encoding (a web page's charset); the others must be UTF-8. */
  decode?(bytes: Uint8Array): string;
  /**
   * Parses the decoded text of `file`, whose name without its extension is the article's id. Throws
   * `CorpusError` listing every problem.
   */
  parse(file: string, text: string): Article;
  /**
   * `parse` on another thread, for a format whose parsing can take long on hostile input (a web page):
   * what `/corpus add` uses, so that a moderator's upload never holds the serving thread.
   */
  parseOffThread?(file: string, text: string): Promise<Article>;
}

/** Many articles per file, for bulk imports; read only, never edited by `/corpus`. */
export interface BulkFormat extends FormatBase {
  readonly kind: 'bulk';
  /**
   * Parses the decoded lines of `file`, yielding to the event loop as it goes, and telling `onProgress`
   * how many lines are done now and then. Throws `CorpusError`.
   */
  parse(
    file: string,
    lines: readonly string[],
    onProgress?: (done: number, total: number) => void,
  ): Promise<Article[]>;
}
