import { parseFeed } from 'feedsmith';

/** Media types a feed may be served as. `application/xml` and `text/xml` are common for RSS and Atom. */
export const FEED_TYPES = [
  'application/rss+xml',
  'application/atom+xml',
  'application/rdf+xml',
  'application/feed+json',
  'application/xml',
  'text/xml',
  'application/json',
] as const;

/** One entry of a feed: what is needed to fetch it and to recognise it again. */
export interface FeedItem {
  /** The item's GUID / Atom id / JSON Feed id; its link when it has none. */
  guid: string;
  /** The article's address. */
  link: string;
  title: string | undefined;
  /** The entry's summary or description as plain text, when it gives one (feed filters read it). */
  summary?: string | undefined;
}

export interface ReadFeed {
  title: string | undefined;
  /** In the feed's order (newest first, in practice). Items without a usable http(s) link are left out. */
  items: FeedItem[];
}

/** The bytes are not a feed the bot can read. */
export class FeedFormatError extends Error {
  override name = 'FeedFormatError';
  readonly code = 'not-a-feed';
}

/** Reads an RSS 2.0, RSS 1.0 (RDF), Atom or JSON Feed document. Throws `FeedFormatError`. */
export function readFeed(text: string, feedUrl: string): ReadFeed {
  let parsed: ReturnType<typeof parseFeed>;
  try {
    parsed = parseFeed(text);
  } catch (error) {
    const why =
      error instanceof Error && error.name === 'MalformedError'
        ? 'it is malformed'
        : 'its format is not recognised';
    throw new FeedFormatError(`This is not a feed the bot can read (RSS, Atom or JSON Feed): ${why}.`);
  }
  const raw: {
    guid: string | undefined;
    link: string | undefined;
    title: string | undefined;
    summary?: string | undefined;
  }[] = [];
  let title: string | undefined;
  switch (parsed.format) {
    case 'rss':
      title = parsed.feed.title;
      for (const item of parsed.feed.items ?? []) {
        raw.push({ guid: item.guid?.value, link: item.link, title: item.title, summary: item.description });
      }
      break;
    case 'rdf':
      title = parsed.feed.title;
      for (const item of parsed.feed.items ?? [])
        raw.push({ guid: item.link, link: item.link, title: item.title, summary: item.description });
      break;
    case 'atom':
      title = parsed.feed.title?.value;
      for (const entry of parsed.feed.entries ?? []) {
        const link =
          entry.links?.find((l) => (l.rel ?? 'alternate') === 'alternate')?.href ?? entry.links?.[0]?.href;
        raw.push({ guid: entry.id, link, title: entry.title?.value, summary: entry.summary?.value });
      }
      break;
    case 'json':
      title = parsed.feed.title;
      for (const item of parsed.feed.items ?? []) {
        raw.push({
          guid: item.id,
          link: item.url ?? item.external_url,
          title: item.title,
          summary: item.summary ?? item.content_text,
        });
      }
      break;
  }
  const items: FeedItem[] = [];
  for (const item of raw) {
    const link = absoluteHttpUrl(item.link?.trim(), feedUrl);
    if (link === undefined) continue;
    const summary = plainText(item.summary);
    items.push({
      guid: item.guid?.trim() || link,
      link,
      title: item.title?.trim() || undefined,
      ...(summary ? { summary } : {}),
    });
  }
  return { title: title?.trim() || undefined, items };
}

function absoluteHttpUrl(link: string | undefined, base: string): string | undefined {
  if (!link) return undefined;
  try {
    const url = new URL(link, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A summary's text without its markup (RSS descriptions are often HTML): only words are matched. */
function plainText(html: string | undefined): string | undefined {
  if (!html) return undefined;
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(nbsp|amp|lt|gt|quot|#39);/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text || undefined;
}
