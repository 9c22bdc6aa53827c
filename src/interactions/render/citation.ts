import type { ArticleMeta } from '../../corpus/article.ts';
import { dateLabel } from '../../corpus/published-date.ts';
import { escapeText, neutraliseMentions } from './escape.ts';

/**
 * One line citing a passage: title, publisher, date (or "undated"), a link where known, and the
 * citation id, e.g. `— *Mayor threatened*, BBC, 2015-08-01 · [link](<https://…>) · cite \`teteghem#2\``.
 */
export function citationLine(meta: ArticleMeta, citation: string, options: { title?: boolean } = {}): string {
  const parts = [
    ...(options.title === false ? [] : [`*${escapeText(meta.title)}*`]),
    meta.publisher ? escapeText(meta.publisher) : 'publisher unknown',
    escapeText(dateLabel(meta.published)),
  ];
  const link = meta.url && isWebUrl(meta.url) ? ` · [link](<${safeUrl(meta.url)}>)` : '';
  return `— ${parts.join(', ')}${link} · cite ${code(citation)}`;
}

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
    meta.publisher ?? 'Publisher unknown',
    dateLabel(meta.published),
    meta.author ? `by ${meta.author}` : null,
  ]
    .filter((part): part is string => Boolean(part))
    .join(' · ');
}
