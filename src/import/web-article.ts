import { basename, extname } from 'node:path';
import type { Article } from '../corpus/article.ts';
import { extractionLimits } from '../corpus/corpus-limits.ts';
import { slugify } from '../corpus-editing/article-file-name.ts';
import { type ExtractedArticle, NotAnArticleError } from '../extract/extract-article.ts';
import { PageTooComplexError } from '../extract/page-bounds.ts';
import { decodePage } from '../extract/page-dom.ts';
import { type ExtractionLimits, PageNotReadError, pageExtractor } from '../extract/page-extractor.ts';
import type { AddressPolicy } from '../web/address-policy.ts';
import { FetchRefusedError } from '../web/fetch-refused.ts';
import { HTML_TYPES, safeFetch } from '../web/safe-fetch.ts';
import { articleIdForUrl } from './article-id.ts';
import { articleMarkdown } from './article-markdown.ts';

/** An article read from the web, ready to be previewed and written as `fileName`. */
export interface WebArticle {
  /** The link as given (a saved file: its canonical URL): the article's `url`. */
  url: string | undefined;
  /** The page's canonical URL, else the URL it was fetched from after redirects: what duplicates are found by. */
  canonicalUrl: string | undefined;
  /** An article among the known ones already has this link or canonical URL (its id is reused). */
  alreadyKnown: boolean;
  id: string;
  /** `${id}.md` */
  fileName: string;
  markdown: string;
  extracted: ExtractedArticle;
}

/** Options of {@link fetchWebArticle}: who may be fetched from, and the corpus to find duplicates in. */
export interface WebArticleOptions extends AddressPolicy {
  /** The articles serving now: a page already among them keeps its id, so adding it again offers a replace. */
  known?: readonly Article[];
  timeoutMs?: number;
  /** How deep, large and long a page may be to read. @default extractionLimits(), from EXTRACT_* */
  extraction?: ExtractionLimits | undefined;
}

/**
 * Fetches a page safely and reads the article on it, off this thread. Throws `FetchRefusedError`,
 * `NotAnArticleError`, `PageTooComplexError` or `PageNotReadError` (see `importRefusal`).
 */
export async function fetchWebArticle(url: string, options: WebArticleOptions): Promise<WebArticle> {
  const fetched = await safeFetch(url, { ...options, accept: HTML_TYPES });
  if (fetched.notModified) throw new Error('a 304 answer to an unconditional request');
  return webArticleFromHtml(
    decodePage(fetched.body, fetched.charset),
    { url, fetchedFrom: fetched.url },
    options.known,
    options.extraction,
  );
}

/** Where a page came from: a link (`url`, fetched from `fetchedFrom` after redirects) or a saved file. */
export type PageSource = { url: string; fetchedFrom: string } | { fileName: string };

/**
 * Reads the article in a page. Its id is that of the article among `known` with the same link or
 * canonical URL when there is one, else the canonical URL's slug (a saved file without one: its name).
 * A fetched page's `url` is the link as given; a saved file's, its canonical URL. The page is read on
 * the extraction worker (`pageExtractor`), within `limits`.
 */
export async function webArticleFromHtml(
  html: string,
  source: PageSource,
  known: readonly Article[] = [],
  limits: ExtractionLimits = extractionLimits(),
): Promise<WebArticle> {
  const fetched = 'url' in source ? source : undefined;
  const extracted = await pageExtractor.extract(html, fetched?.fetchedFrom, limits);
  const canonicalUrl = extracted.canonicalUrl ?? fetched?.fetchedFrom;
  const url = fetched?.url ?? extracted.canonicalUrl;
  const links = [url, canonicalUrl].filter((link) => link !== undefined);
  const same = known.find((article) => article.url !== null && links.includes(article.url));
  const fallback = 'fileName' in source ? slugify(basename(source.fileName, extname(source.fileName))) : '';
  const id =
    same?.id ??
    (canonicalUrl === undefined
      ? fallback || slugify(extracted.title)
      : articleIdForUrl(canonicalUrl, extracted.title));
  return {
    url,
    canonicalUrl,
    alreadyKnown: same !== undefined,
    id,
    fileName: `${id}.md`,
    markdown: articleMarkdown(extracted, url),
    extracted,
  };
}

/** The reason to show for a link that could not be read, or undefined for an unexpected error. */
export function importRefusal(error: unknown):
  | {
      code:
        | FetchRefusedError['code']
        | NotAnArticleError['code']
        | PageTooComplexError['code']
        | PageNotReadError['code'];
      message: string;
    }
  | undefined {
  if (
    error instanceof FetchRefusedError ||
    error instanceof NotAnArticleError ||
    error instanceof PageTooComplexError ||
    error instanceof PageNotReadError
  ) {
    return { code: error.code, message: error.message };
  }
  return undefined;
}
