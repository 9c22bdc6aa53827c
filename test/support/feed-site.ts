/** A news site's pages and RSS feed, for the tests of following feeds. */

/** One article page of the test site, as a news site serves it. */
export function articlePage(n: number, topic: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${topic} story ${n}</title>
<meta property="og:site_name" content="Feed Test Gazette"><meta name="date" content="2026-11-${String(10 + (n % 18)).padStart(2, '0')}">
</head><body><article><h1>${topic} story ${n}</h1>
<p>The ${topic.toLowerCase()} story number ${n} opens with a lede long enough to be a paragraph of a real article, the council said on Thursday.</p>
<p>A second paragraph of story ${n} gives the details that readers of the ${topic.toLowerCase()} report expect to find.</p>
<p>Officials said on Friday that the work described in story ${n} would continue through the winter, while residents asked for a public meeting to discuss what comes next.</p>
<p>The regional council has promised a full report on story ${n} before the end of the year, with figures on costs and delays.</p>
</article></body></html>`;
}

/** One item a feed lists: story `n` on `topic`, at `/a/<n>`. */
export interface SiteItem {
  n: number;
  topic: string;
  summary?: string;
}

/** The RSS 2.0 feed `title` listing `items`, newest first as given, each linking to its page on `origin`. */
export function rss(title: string, origin: string, items: SiteItem[]): string {
  const entries = items
    .map(
      (item) => `<item><title>${item.topic} story ${item.n}</title><link>${origin}/a/${item.n}</link>
<guid isPermaLink="false">item-${item.n}</guid>${item.summary ? `<description>${item.summary}</description>` : ''}</item>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>${title}</title>${entries}</channel></rss>`;
}
