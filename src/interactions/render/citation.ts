import type { ArticleMeta } from '../../corpus/article.ts';
import { type CitationMarkup, PUBLISHER_UNKNOWN } from '../../corpus/citation.ts';
import { dateLabel } from '../../corpus/published-date.ts';
import { escapeText, neutraliseMentions } from './escape.ts';

/**
 * `citationLine`'s parts in Discord's markdown: the title in italics, a link only to a web page (`<…>`
 * so Discord shows no preview), the id as inline code after "cite".
 */
export const DISCORD_CITATION: CitationMarkup = {
  title: (text) => `*${escapeText(text)}*`,
  text: escapeText,
  link: (url) => (isWebUrl(url) ? `[link](<${safeUrl(url)}>)` : null),
  cite: (citation) => `cite ${code(citation)}`,
};

/** Inline code for ids; falls back to escaped text if the id itself holds a backtick. */
export function code(text: string): string {
  return text.includes('`') ? escapeText(text) : `\`${neutraliseMentions(text)}\``;
}

export function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** A URL that cannot end a markdown link early or open a new one. */
export function safeUrl(value: string): string {
  return new URL(value).href.replace(
    /[()<>\s]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** Article metadata as a short plain line: `BBC · 2015-08-01 · by Jane Doe`; unknown author left out. */
export function metaLine(meta: ArticleMeta): string {
  return [
    meta.publisher ?? capitalise(PUBLISHER_UNKNOWN),
    dateLabel(meta.published),
    meta.author ? `by ${meta.author}` : null,
  ]
    .filter((part): part is string => Boolean(part))
    .join(' · ');
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
