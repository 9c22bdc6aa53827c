import { slugify } from '../corpus-editing/article-file-name.ts';

/** Last path segments that say nothing about the story, so the one before them names it. */
const GENERIC_SEGMENTS = /^(?:index|default|amp|article|story|news|content|print)(?:\.[a-z0-9]+)?$/i;

/**
 * The article id for a page: the slug of its canonical URL's last meaningful path segment
 * (`…/2026/11/dunkirk-opens-winter-shelter.html` → `dunkirk-opens-winter-shelter`). A segment that is
 * only digits or too short to say anything keeps the segment before it (`…/world-europe/33729000` →
 * `world-europe-33729000`); a URL with no usable path falls back to the headline.
 */
export function articleIdForUrl(url: string, title: string): string {
  const segments = new URL(url).pathname
    .split('/')
    .map((segment) => safeDecode(segment).replace(/\.(?:s?html?|php|aspx?|jsp)$/i, ''))
    .filter((segment) => segment !== '' && !GENERIC_SEGMENTS.test(segment));
  const last = segments.at(-1);
  if (last === undefined) return slugify(title) || 'article';
  const slug = slugify(last);
  if (slug.length >= 8 && /[a-z]/.test(slug)) return slug;
  const before = segments.at(-2);
  const joined = slugify(before === undefined ? last : `${before}-${last}`);
  return joined.length >= 3 ? joined : slugify(title) || 'article';
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
