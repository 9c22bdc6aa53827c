import type { ArticleMeta } from './article.ts';
import { dateLabel } from './published-date.ts';

/** What a reply says of an article whose publisher the corpus does not know: said, never guessed. */
export const PUBLISHER_UNKNOWN = 'publisher unknown';

/** "BBC, 2015-08-01", or "publisher unknown, undated": who published an article and when. */
export function sourceLabel(meta: Pick<ArticleMeta, 'publisher' | 'published'>): string {
  return `${meta.publisher ?? PUBLISHER_UNKNOWN}, ${dateLabel(meta.published)}`;
}

/** How a front end marks up the parts of a citation line: Discord's markdown, a terminal's styles. */
export interface CitationMarkup {
  title(text: string): string;
  /** Corpus text that is not the title: the publisher and the date. */
  text(text: string): string;
  /** The article's address as a link, or null where this front end does not link it. */
  link(url: string): string | null;
  /** The citation id (`teteghem#2`). */
  cite(citation: string): string;
}

/**
 * One line citing an article, the same in every front end: its title (unless `title: false`, where the
 * title is shown above), publisher and date as `sourceLabel` says them, its link where known, and the
 * citation id where given, e.g. on Discord
 * `— *Mayor threatened*, BBC, 2015-08-01 · [link](<https://…>) · cite \`teteghem#2\``.
 */
export function citationLine(
  meta: Pick<ArticleMeta, 'title' | 'publisher' | 'published' | 'url'>,
  markup: CitationMarkup,
  options: { title?: boolean; citation?: string } = {},
): string {
  const parts = [
    ...(options.title === false ? [] : [markup.title(meta.title)]),
    markup.text(sourceLabel(meta)),
  ];
  const link = meta.url ? markup.link(meta.url) : null;
  return [
    `— ${parts.join(', ')}`,
    ...(link ? [link] : []),
    ...(options.citation === undefined ? [] : [markup.cite(options.citation)]),
  ].join(' · ');
}
