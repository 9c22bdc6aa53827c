import type { ExtractedArticle } from '../extract/extract-article.ts';

/**
 * The Markdown file for an article read from the web: front matter (`url` is the link as the moderator
 * or the feed gave it, so the citation points where they pointed), then its paragraphs verbatim, a
 * blank line between them. Values are double-quoted, so nothing in a headline can end the field early.
 */
export function articleMarkdown(article: ExtractedArticle, url: string | undefined): string {
  const fields: [string, string | undefined][] = [
    ['title', article.title],
    ['publisher', article.publisher],
    ['url', url],
    ['published', article.published],
    ['author', article.author],
    ['language', article.language],
  ];
  const front = fields
    .filter((field): field is [string, string] => field[1] !== undefined)
    .map(([key, value]) => `${key}: "${value.replace(/\s+/g, ' ').replace(/"/g, '\\"')}"`);
  const provenance =
    article.canonicalUrl && article.canonicalUrl !== url ? [`# canonical: ${article.canonicalUrl}`] : [];
  return ['---', ...provenance, ...front, '---', '', article.paragraphs.join('\n\n'), ''].join('\n');
}
