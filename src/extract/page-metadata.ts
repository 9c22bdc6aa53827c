import type { PageDocument } from './page-dom.ts';

/** What a page says about itself. Every field is `undefined` when no source gives it: never guessed. */
export interface PageMetadata {
  title: string | undefined;
  publisher: string | undefined;
  author: string | undefined;
  /** As the page states it (ISO 8601 in practice); `extract-article.ts` normalises it. */
  published: string | undefined;
  /** Absolute URL the page names as its own canonical address. */
  canonicalUrl: string | undefined;
  language: string | undefined;
  /** The JSON-LD `@type` found, e.g. `NewsArticle`, or undefined. */
  schemaType: string | undefined;
}

type Fields = Omit<PageMetadata, 'schemaType'>;
const FIELDS = ['title', 'publisher', 'author', 'published', 'canonicalUrl', 'language'] as const;

/** schema.org types that are an article (NewsArticle and its kin). */
const ARTICLE_TYPES = new Set([
  'NewsArticle',
  'Article',
  'ReportageNewsArticle',
  'AnalysisNewsArticle',
  'BackgroundNewsArticle',
  'OpinionNewsArticle',
  'ReviewNewsArticle',
  'AskPublicNewsArticle',
  'LiveBlogPosting',
  'BlogPosting',
  'Report',
]);

/**
 * Reads the page's metadata from JSON-LD (`NewsArticle` and kin), then OpenGraph, then plain `<meta>`
 * tags, `<link rel=canonical>`, `<title>` and `<html lang>`: field by field, the first source that
 * has a field wins. `pageUrl` resolves a relative canonical URL.
 */
export function readPageMetadata(document: PageDocument, pageUrl: string | undefined): PageMetadata {
  const jsonLd = fromJsonLd(document);
  const sources: Partial<Fields>[] = [jsonLd.fields, fromOpenGraph(document), fromMetaTags(document)];
  const merged = Object.fromEntries(
    FIELDS.map((field) => [
      field,
      sources.map((source) => clean(source[field])).find((v) => v !== undefined),
    ]),
  ) as Fields;
  return {
    ...merged,
    canonicalUrl: absoluteUrl(merged.canonicalUrl, pageUrl),
    schemaType: jsonLd.type,
  };
}

function fromJsonLd(document: PageDocument): { fields: Partial<Fields>; type: string | undefined } {
  for (const script of document.querySelectorAll('script[type="application/ld+json"]')) {
    let data: unknown;
    try {
      data = JSON.parse(script.textContent ?? '');
    } catch {
      continue; // A broken block is common; the other sources still count.
    }
    const node = findArticleNode(data);
    if (node === undefined) continue;
    const type = typesOf(node).find((t) => ARTICLE_TYPES.has(t));
    return {
      type,
      fields: {
        title: text(node.headline) ?? text(node.name),
        publisher: nameOf(node.publisher),
        author: nameOf(node.author),
        published: text(node.datePublished) ?? text(node.dateCreated),
        canonicalUrl: text(node.url) ?? idOf(node.mainEntityOfPage),
        language: text(node.inLanguage) ?? nameOf(node.inLanguage),
      },
    };
  }
  return { fields: {}, type: undefined };
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typesOf(node: JsonObject): string[] {
  const type = node['@type'];
  return (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string');
}

/** The first article-typed object in a JSON-LD document: top level, in an array, or in `@graph`. */
function findArticleNode(data: unknown, depth = 0): JsonObject | undefined {
  if (depth > 3) return undefined;
  if (Array.isArray(data)) {
    for (const item of data) {
      const found = findArticleNode(item, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  if (!isObject(data)) return undefined;
  if (typesOf(data).some((t) => ARTICLE_TYPES.has(t))) return data;
  return findArticleNode(data['@graph'], depth + 1);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `"Jane Doe"`, `{ "name": "Jane Doe" }`, or a list of either (names joined with commas). */
function nameOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const names = value.map(nameOf).filter((name): name is string => name !== undefined);
    return names.length > 0 ? names.join(', ') : undefined;
  }
  return isObject(value) ? text(value.name) : undefined;
}

function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return isObject(value) ? (text(value['@id']) ?? text(value.url)) : undefined;
}

function meta(document: PageDocument, attribute: 'property' | 'name', key: string): string | undefined {
  for (const element of document.querySelectorAll(`meta[${attribute}]`)) {
    if (element.getAttribute(attribute)?.toLowerCase() === key)
      return element.getAttribute('content') ?? undefined;
  }
  return undefined;
}

function fromOpenGraph(document: PageDocument): Partial<Fields> {
  const og = (key: string) => meta(document, 'property', key) ?? meta(document, 'name', key);
  const author = og('article:author');
  return {
    title: og('og:title'),
    publisher: og('og:site_name'),
    // article:author is often a profile URL rather than a name: a name only.
    author: author && !/^https?:\/\//.test(author) ? author : undefined,
    published: og('article:published_time'),
    canonicalUrl: og('og:url'),
    language: og('og:locale')?.replace('_', '-'),
  };
}

function fromMetaTags(document: PageDocument): Partial<Fields> {
  const named = (...keys: string[]) =>
    keys.map((key) => meta(document, 'name', key)).find((value) => value !== undefined);
  return {
    title: document.querySelector('title')?.textContent ?? undefined,
    publisher: named('application-name', 'publisher', 'dc.publisher'),
    author: named('author', 'byl', 'dc.creator', 'sailthru.author'),
    published: named(
      'date',
      'pubdate',
      'publish-date',
      'dc.date',
      'dc.date.issued',
      'article:published_time',
    ),
    canonicalUrl: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? undefined,
    language: document.documentElement?.getAttribute('lang') ?? named('language', 'content-language'),
  };
}

function clean(value: string | undefined): string | undefined {
  const trimmed = value?.replace(/\s+/g, ' ').trim();
  return trimmed === '' ? undefined : trimmed;
}

function absoluteUrl(url: string | undefined, base: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const absolute = new URL(url, base);
    return absolute.protocol === 'http:' || absolute.protocol === 'https:' ? absolute.href : undefined;
  } catch {
    return undefined;
  }
}
