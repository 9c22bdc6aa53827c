import { basename, extname } from 'node:path';
import { extractArticle, NotAnArticleError } from '../../extract/extract-article.ts';
import { decodePage } from '../../extract/page-dom.ts';
import { buildArticle } from '../build-article.ts';
import { CorpusError } from '../problems.ts';
import type { ArticleFileFormat } from './format.ts';

/**
 * A saved web page, read by the same extractor as a fetched link (`src/extract/`): its paragraphs
 * without the page's furniture, its metadata from JSON-LD, OpenGraph and `<meta>`, its canonical URL
 * as `url`. Decoded by the charset the page declares: a browser's "Save page" keeps the site's.
 */
export const html: ArticleFileFormat = {
  kind: 'article',
  extensions: ['.html', '.htm'],
  description: 'a saved web page',
  decode: (bytes) => decodePage(bytes, undefined),
  parse(file, text) {
    let extracted: ReturnType<typeof extractArticle>;
    try {
      extracted = extractArticle(text);
    } catch (error) {
      if (!(error instanceof NotAnArticleError)) throw error;
      throw new CorpusError([
        { file, line: 1, message: 'the page holds no article: no body of several paragraphs was found' },
      ]);
    }
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
  },
};
