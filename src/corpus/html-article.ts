import { extname } from 'node:path';
import { extractArticle, NotAnArticleError } from '../extract/extract-article.ts';
import { CorpusError } from './problems.ts';

/** File endings read as a saved web page. */
export const HTML_EXTENSIONS = ['.html', '.htm'] as const;

/**
 * Reads a saved web page with the same extractor as a fetched link: its paragraphs without the page's
 * furniture (as one body, a blank line between paragraphs), its metadata from JSON-LD, OpenGraph and
 * `<meta>`, its canonical URL as `url`. `parseArticleFile` builds the article from them.
 */
export function readHtmlArticle(
  fileName: string,
  html: string,
): { meta: Record<string, string>; body: string } {
  let extracted: ReturnType<typeof extractArticle>;
  try {
    extracted = extractArticle(html);
  } catch (error) {
    if (!(error instanceof NotAnArticleError)) throw error;
    throw new CorpusError([
      {
        file: fileName,
        line: 1,
        message: 'the page holds no article: no body of several paragraphs was found',
      },
    ]);
  }
  const meta: Record<string, string> = Object.fromEntries(
    Object.entries({
      title: extracted.title,
      publisher: extracted.publisher,
      url: extracted.canonicalUrl,
      published: extracted.published,
      author: extracted.author,
      language: extracted.language,
    }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return { meta, body: extracted.paragraphs.join('\n\n') };
}

export function isHtmlFile(fileName: string): boolean {
  return (HTML_EXTENSIONS as readonly string[]).includes(extname(fileName).toLowerCase());
}
