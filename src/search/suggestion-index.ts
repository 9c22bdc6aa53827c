import type { Article } from '../corpus/article.ts';
import { fold } from './analyze.ts';

/**
 * The longest typed text autocomplete looks up, after folding. Folding can expand a character 18
 * times (U+FDFA), so this caps the folded text, not what was typed; an id or headline is recognised
 * long before 100 characters.
 */
export const MAX_SUGGESTION_TEXT = 100;

/** How long a key is kept: a longer typed text is checked against the article itself. */
const KEY_LENGTH = 32;

/**
 * Keys of a prefix range looked at, at most, for one lookup: `a` starts thousands of headline words,
 * and autocomplete shows 25. Keeps a lookup's cost independent of the corpus beyond a binary search.
 */
const SCAN_LIMIT = 2_000;

/** Sorted keys and the article each belongs to. */
interface SortedKeys {
  keys: string[];
  articles: Int32Array;
}

/**
 * Autocomplete's lookup of articles by what a member has typed, built once per corpus: the folded
 * headline and id of each article (for "starts with"), and every word start of its headline,
 * publisher and id (for a match inside), each in a sorted array searched by binary search. A lookup
 * folds the typed text once and reads at most `SCAN_LIMIT` keys, whatever the corpus size.
 */
export class SuggestionIndex {
  readonly #articles: readonly Article[];
  readonly #starts: SortedKeys;
  readonly #inside: SortedKeys;
  /** Each article's folded headline, publisher and id, for typed texts longer than a key. */
  readonly #folded: string[];

  private constructor(
    articles: readonly Article[],
    starts: SortedKeys,
    inside: SortedKeys,
    folded: string[],
  ) {
    this.#articles = articles;
    this.#starts = starts;
    this.#inside = inside;
    this.#folded = folded;
  }

  static build(articles: readonly Article[]): SuggestionIndex {
    const starts: [string, number][] = [];
    const inside: [string, number][] = [];
    const folded: string[] = [];
    articles.forEach((article, index) => {
      const title = fold(article.title);
      const id = article.id.toLowerCase();
      const publisher = fold(article.publisher ?? '');
      starts.push([title.slice(0, KEY_LENGTH), index], [id.slice(0, KEY_LENGTH), index]);
      for (const text of [title, publisher, id]) {
        for (const at of wordStarts(text)) inside.push([text.slice(at, at + KEY_LENGTH), index]);
      }
      folded.push(`${title}\n${publisher}\n${id}`);
    });
    return new SuggestionIndex(articles, sortKeys(starts), sortKeys(inside), folded);
  }

  /**
   * Up to `limit` articles for `typed`: those whose id or headline starts with it first, then those
   * where it starts a word of the headline, the publisher or the id; each group by headline.
   * Case and accents aside.
   */
  suggest(typed: string, limit: number): Article[] {
    const needle = foldTyped(typed);
    if (needle === '') return byTitle(this.#articles.slice(0, limit));
    const first = this.#lookup(this.#starts, needle, limit, new Set(), (text) =>
      text.split('\n').some((part, i) => i !== 1 && part.startsWith(needle)),
    );
    const seen = new Set(first);
    const then = this.#lookup(this.#inside, needle, limit - first.length, seen, (text) =>
      wordStarts(text).some((at) => text.startsWith(needle, at)),
    );
    return [
      ...byTitle(first.map((i) => this.#articles[i]!)),
      ...byTitle(then.map((i) => this.#articles[i]!)),
    ];
  }

  /** Articles whose id or headline starts with `typed`, in key order (`/cite tete`). */
  starting(typed: string, limit: number): Article[] {
    const needle = foldTyped(typed);
    if (needle === '') return [];
    return this.#lookup(this.#starts, needle, limit, new Set(), (text) =>
      text.split('\n').some((part, i) => i !== 1 && part.startsWith(needle)),
    ).map((i) => this.#articles[i]!);
  }

  /** Distinct articles of the keys starting with `needle`, skipping `seen`, confirmed by `matches`. */
  #lookup(
    sorted: SortedKeys,
    needle: string,
    limit: number,
    seen: Set<number>,
    matches: (folded: string) => boolean,
  ): number[] {
    const found: number[] = [];
    if (limit <= 0) return found;
    const key = needle.slice(0, KEY_LENGTH);
    // A needle longer than a key matched the key's start only: the article's own text decides.
    const confirm = needle.length > KEY_LENGTH;
    const end = Math.min(sorted.keys.length, lowerBound(sorted.keys, key) + SCAN_LIMIT);
    for (let i = lowerBound(sorted.keys, key); i < end && found.length < limit; i++) {
      if (!sorted.keys[i]!.startsWith(key)) break;
      const article = sorted.articles[i]!;
      if (seen.has(article)) continue;
      seen.add(article);
      if (!confirm || matches(this.#folded[article]!)) found.push(article);
    }
    return found;
  }
}

/**
 * The typed text as keys are written: trimmed, folded once, capped before and after folding. What
 * `/cite` autocomplete searches the index for too, so a long text costs the search no more.
 */
export function foldTyped(typed: string): string {
  return fold(typed.trim().slice(0, MAX_SUGGESTION_TEXT)).slice(0, MAX_SUGGESTION_TEXT);
}

/** Offsets where a word starts: the text's start and every letter or digit after a non-word character. */
function wordStarts(text: string): number[] {
  const starts: number[] = [];
  for (const match of text.matchAll(/(?<![\p{L}\p{N}])[\p{L}\p{N}]/gu)) starts.push(match.index);
  return starts;
}

function sortKeys(entries: [string, number][]): SortedKeys {
  // Code-unit order, the order `lowerBound` searches in (localeCompare would not agree with `<`).
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  return { keys: entries.map((entry) => entry[0]), articles: Int32Array.from(entries, (entry) => entry[1]) };
}

/** The first index whose key is not below `key`. */
function lowerBound(keys: readonly string[], key: string): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keys[middle]! < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

function byTitle(articles: Article[]): Article[] {
  return articles.sort((a, b) => a.title.localeCompare(b.title));
}
