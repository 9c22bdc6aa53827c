import { createHash, type Hash } from 'node:crypto';
import { TimeSlicer } from '../event-loop.ts';
import type { Article, Corpus } from './article.ts';
import { ARTICLE_EXTENSIONS, type ArticleFileFormat, formatOf } from './formats/index.ts';
import { CorpusError } from './problems.ts';

/**
 * Parses one article file in one of the formats holding an article per file (`ARTICLE_FILE_FORMATS`),
 * chosen by its extension. The id is the file name without its extension. Throws `CorpusError`.
 */
export function parseArticleFile(fileName: string, text: string): Article {
  return articleFormatOf(fileName, text).parse(fileName, text);
}

/**
 * `parseArticleFile` with the parsing done on another thread where the format's can take long on
 * hostile input (a saved web page, read by the extraction worker within its time limit).
 */
export async function parseArticleFileOffThread(fileName: string, text: string): Promise<Article> {
  const format = articleFormatOf(fileName, text);
  return format.parseOffThread ? await format.parseOffThread(fileName, text) : format.parse(fileName, text);
}

/** The format of an article file whose text is not empty nor binary. Throws `CorpusError`. */
function articleFormatOf(fileName: string, text: string): ArticleFileFormat {
  const format = formatOf(fileName);
  if (format?.kind !== 'article') {
    throw new CorpusError([
      { file: fileName, line: 1, message: `not an article file (expected ${ARTICLE_EXTENSIONS.join(', ')})` },
    ]);
  }
  if (text.replace(/^\uFEFF/, '').trim() === '') {
    throw new CorpusError([{ file: fileName, line: 1, message: 'file is empty' }]);
  }
  if (text.includes('\u0000')) {
    throw new CorpusError([{ file: fileName, line: 1, message: 'file is binary, not text' }]);
  }
  return format;
}

/** Assembles validated articles into a corpus; the version is a hash of everything a reader sees. */
export function makeCorpus(articles: Article[]): Corpus {
  const hash = createHash('sha256');
  for (const article of articles) hashArticle(hash, article);
  return { articles, version: hash.digest('hex').slice(0, 12) };
}

/** `makeCorpus` in slices of a few milliseconds, for large corpora during a reload. */
export async function makeCorpusAsync(articles: Article[]): Promise<Corpus> {
  const hash = createHash('sha256');
  const slicer = new TimeSlicer();
  for (const article of articles) {
    hashArticle(hash, article);
    await slicer.pause();
  }
  return { articles, version: hash.digest('hex').slice(0, 12) };
}

function hashArticle(hash: Hash, article: Article): void {
  const { source: _source, passages, ...meta } = article;
  hash.update(JSON.stringify(meta));
  for (const passage of passages) hash.update(`\u0000${passage.id}\u0000${passage.text}`);
  hash.update('\u0001');
}
