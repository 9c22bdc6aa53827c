import { basename, extname } from 'node:path';
import { type ExtractedArticle, extractArticle, NotAnArticleError } from '../../extract/extract-article.ts';
import { PageTooComplexError } from '../../extract/page-bounds.ts';
import { decodePage } from '../../extract/page-dom.ts';
import { PageNotReadError, pageExtractor } from '../../extract/page-extractor.ts';
import type { Article } from '../article.ts';
import { buildArticle } from '../build-article.ts';
import { corpusLimits, extractionLimits } from '../corpus-limits.ts';
import { CorpusError } from '../problems.ts';
import type { ArticleFileFormat } from './format.ts';

/**
 * A saved web page, read by the same extractor as a fetched link (`src/extract/`): its paragraphs
 * without the page's furniture, its metadata from JSON-LD, OpenGraph and `<meta>`, its canonical URL
 * as `url`. Decoded by the charset the page declares: a browser's "Save page" keeps the site's. A page
 * past the corpus's page bounds (EXTRACT_MAX_DEPTH, EXTRACT_MAX_PAGE_MB) is refused before it is parsed.
 */
export const html: ArticleFileFormat = {
  kind: 'article',
  extensions: ['.html', '.htm'],
  description: 'a saved web page',
  decode: (bytes) => decodePage(bytes, undefined),
  parse(file, text) {
    let extracted: ExtractedArticle;
    try {
      extracted = extractArticle(text, undefined, corpusLimits().page);
    } catch (error) {
      throw refusal(file, error);
    }
    return articleOf(file, extracted);
  },
  async parseOffThread(file, text) {
    let extracted: ExtractedArticle;
    try {
      extracted = await pageExtractor.extract(text, undefined, extractionLimits());
    } catch (error) {
      throw refusal(file, error);
    }
    return articleOf(file, extracted);
  },
};

/** A page that holds no article, or could not be read, as the problem of its file. */
function refusal(file: string, error: unknown): unknown {
  if (error instanceof NotAnArticleError) {
    return new CorpusError([{ file, line: 1, message: `the page holds no article: ${error.detail}` }]);
  }
  if (error instanceof PageTooComplexError || error instanceof PageNotReadError) {
    return new CorpusError([{ file, line: 1, message: `the page was not read: ${error.message}` }]);
  }
  return error;
}

function articleOf(file: string, extracted: ExtractedArticle): Article {
  const meta = Object.fromEntries(
    Object.entries({
      title: extracted.title,
      publisher: extracted.publisher,
      url: extracted.canonicalUrl,
      published: extracted.published,
      author: extracted.author,
      language: extracted.language,
    }).filter(([, value]) => value !== undefined),
  );
  return buildArticle(basename(file, extname(file)), file, meta, extracted.paragraphs.join('\n\n'), {
    file,
  });
}
