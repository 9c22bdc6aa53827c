import { createRequire } from 'node:module';
import type { Readability as ReadabilityClass } from '@mozilla/readability';
import { endsLikeSentence } from '../corpus/furniture.ts';
import { ArticleMetaSchema } from '../corpus/metadata.ts';
import { stripControls } from '../text/controls.ts';
import { checkPageBounds, DEFAULT_PAGE_BOUNDS, type PageBounds } from './page-bounds.ts';
import { type PageDocument, type PageElement, parsePage } from './page-dom.ts';
import { dropFurniture } from './page-furniture.ts';
import { readPageMetadata } from './page-metadata.ts';

/** An article read from a web page: metadata valid for the corpus (or absent), and its paragraphs. */
export interface ExtractedArticle {
  title: string;
  publisher: string | undefined;
  author: string | undefined;
  /** ISO 8601 date or date-time. */
  published: string | undefined;
  /** The page's canonical URL, when it names one that is http(s). */
  canonicalUrl: string | undefined;
  language: string | undefined;
  /** Reporting paragraphs in reading order, whitespace collapsed. */
  paragraphs: string[];
}

/** The page holds no article: a section front, a search page, a product page, an error page. */
export class NotAnArticleError extends Error {
  override name = 'NotAnArticleError';
  readonly code = 'not-an-article';
  constructor(
    message: string,
    /** Why, in a few words that follow "the page holds no article: ". */
    readonly detail: string,
  ) {
    super(message);
  }
}

const require = createRequire(import.meta.url);
/** Loaded on first use, like linkedom (see `page-dom.ts`). */
let Readability: typeof ReadabilityClass | undefined;

/** Fewer characters of paragraphs than this is a teaser or a listing, not an article. */
const MIN_ARTICLE_CHARS = 400;
/** Readability's own threshold for a candidate body; lower than its default 500 for short news items. */
const READABILITY_CHAR_THRESHOLD = 300;
/** Leaf blocks of text in Readability's output. */
const BLOCKS = 'p, li, blockquote, pre';

/**
 * Extracts the article from a page's HTML: metadata first (JSON-LD, OpenGraph, `<meta>`), then the
 * page's furniture dropped, then Readability picks the body, whose leaf blocks become the paragraphs.
 * Throws `PageTooComplexError` for a page past `bounds` (before parsing it), `NotAnArticleError` when
 * no body of paragraphs is found.
 * @param pageUrl - where the page was fetched from: resolves a relative canonical URL.
 */
export function extractArticle(
  html: string,
  pageUrl?: string,
  bounds: PageBounds = DEFAULT_PAGE_BOUNDS,
): ExtractedArticle {
  checkPageBounds(html, bounds);
  const document = parsePage(html);
  // An empty page, or plain text served as HTML, parses to no element at all: Readability would throw.
  if (document.documentElement === null) {
    const detail = html.trim() === '' ? 'the page is empty' : 'the page is plain text, not HTML';
    throw new NotAnArticleError(`This page holds no article: ${detail}.`, detail);
  }
  const meta = readPageMetadata(document, pageUrl);
  dropFurniture(document);
  Readability ??= (require('@mozilla/readability') as { Readability: typeof ReadabilityClass }).Readability;
  const parsed = new Readability<PageElement>(
    document as unknown as ConstructorParameters<typeof ReadabilityClass>[0],
    {
      serializer: (node) => node as unknown as PageElement,
      charThreshold: READABILITY_CHAR_THRESHOLD,
    },
  ).parse();
  const paragraphs = parsed?.content ? paragraphsOf(parsed.content) : [];
  const length = paragraphs.reduce((sum, paragraph) => sum + paragraph.length, 0);
  const title = valid('title', meta.title) ?? valid('title', parsed?.title ?? undefined);
  if (title === undefined || paragraphs.length < 2 || length < MIN_ARTICLE_CHARS) {
    throw new NotAnArticleError(
      'This page does not look like a news article: no body of several paragraphs was found on it.',
      'no body of several paragraphs was found',
    );
  }
  return {
    title,
    publisher: valid('publisher', meta.publisher ?? parsed?.siteName ?? undefined),
    author: valid('author', meta.author),
    published: valid('published', isoDate(meta.published ?? parsed?.publishedTime ?? undefined)),
    canonicalUrl: valid('url', meta.canonicalUrl),
    language: valid('language', languageTag(meta.language)),
    paragraphs,
  };
}

function paragraphsOf(root: PageElement | PageDocument): string[] {
  const paragraphs: string[] = [];
  for (const element of root.querySelectorAll(BLOCKS)) {
    // Only leaf blocks: a quote's paragraphs are taken one by one, not the quote again as a whole.
    if (element.querySelector(BLOCKS) !== null) continue;
    // A page's escapes and controls never reach the corpus (nor, through it, a terminal or a reply).
    const text = stripControls(element.textContent ?? '')
      .replace(/\s+/g, ' ')
      .trim();
    if (text === '') continue;
    // A list item that is not a sentence is a link or a fragment, not reporting.
    if (element.tagName.toLowerCase() === 'li' && !endsLikeSentence(text)) continue;
    paragraphs.push(text);
  }
  return paragraphs;
}

type MetaField = 'title' | 'publisher' | 'author' | 'published' | 'url' | 'language';

/** The value if the corpus would accept it for this field, else undefined (a page's metadata is not ours to fix). */
function valid(field: MetaField, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const clean = stripControls(value).replace(/\s+/g, ' ').trim();
  const candidate = field === 'title' && clean.length > 300 ? `${clean.slice(0, 299)}…` : clean;
  const checked = ArticleMetaSchema.shape[field].safeParse(candidate);
  return checked.success ? checked.data : undefined;
}

/** `2026-11-30T08:15:00+01:00` stays as it is; `Mon, 30 Nov 2026 08:15:00 GMT` becomes ISO 8601. */
function isoDate(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (ArticleMetaSchema.shape.published.safeParse(value).success) return value;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** `en_GB` → `en-GB`, `EN` → `en`. */
function languageTag(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const [primary = '', ...rest] = value.trim().replace(/_/g, '-').split('-');
  return [primary.toLowerCase(), ...rest].join('-');
}
