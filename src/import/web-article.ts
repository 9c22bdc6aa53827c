import type { Article } from '../corpus/article.ts';
import { type ExtractedArticle, extractArticle, NotAnArticleError } from '../extract/extract-article.ts';
import { decodePage } from '../extract/page-dom.ts';
import type { AddressPolicy } from '../web/address-policy.ts';
import { FetchRefusedError } from '../web/fetch-refused.ts';
import { HTML_TYPES, safeFetch } from '../web/safe-fetch.ts';
import { articleIdForUrl } from './article-id.ts';
import { articleMarkdown } from './article-markdown.ts';

/** An article read from the web, ready to be previewed and written as `fileName`. */
export interface WebArticle {
  /** The link as given: the article's `url`. */
  url: string;
  /** The page's canonical URL, else the URL it was fetched from after redirects: what duplicates are found by. */
  canonicalUrl: string;
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
}

/** Fetches a page safely and reads the article on it. Throws `FetchRefusedError` or `NotAnArticleError`. */
export async function fetchWebArticle(url: string, options: WebArticleOptions): Promise<WebArticle> {
  const fetched = await safeFetch(url, { ...options, accept: HTML_TYPES });
  if (fetched.notModified) throw new Error('a 304 answer to an unconditional request');
  return webArticleFromHtml(decodePage(fetched.body, fetched.charset), url, fetched.url, options.known);
}

/**
 * Reads the article in a page fetched from `fetchedFrom` and given as `url`. Its id is that of the
 * article among `known` with the same link or canonical URL when there is one, else the canonical URL's slug.
 */
export function webArticleFromHtml(
  html: string,
  url: string,
  fetchedFrom: string,
  known: readonly Article[] = [],
): WebArticle {
  const extracted = extractArticle(html, fetchedFrom);
  const canonicalUrl = extracted.canonicalUrl ?? fetchedFrom;
  const same = known.find((article) => article.url !== null && [url, canonicalUrl].includes(article.url));
  const id = same?.id ?? articleIdForUrl(canonicalUrl, extracted.title);
  return {
    url,
    canonicalUrl,
    id,
    fileName: `${id}.md`,
    markdown: articleMarkdown(extracted, url),
    extracted,
  };
}

/** The reason to show for a link that could not be read, or undefined for an unexpected error. */
export function importRefusal(error: unknown): { code: string; message: string } | undefined {
  if (error instanceof FetchRefusedError || error instanceof NotAnArticleError) {
    return { code: error.code, message: error.message };
  }
  return undefined;
}
