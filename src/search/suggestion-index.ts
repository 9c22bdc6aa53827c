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

/**
 * Keys in sorted order, each a stretch of the index's text (where it starts and how long it is, so
 * that no key is a string of its own), and the article each belongs to.
 */
interface SortedKeys {
  at: Int32Array;
  length: Uint8Array;
  articles: Int32Array;
}

/** Keys as they are found, before sorting. */
interface FoundKeys {
  at: number[];
  length: number[];
  articles: number[];
}

/**
 * Autocomplete's lookup of articles by what a member has typed, built once per corpus: the folded
 * headline and id of each article (for "starts with"), and every word start of its headline,
 * publisher and id (for a match inside), each in a sorted array searched by binary search. A lookup
 * folds the typed text once and reads at most `SCAN_LIMIT` keys, whatever the corpus size. The keys
 * are offsets into one string of all the folded texts, a fifth of the memory of a string per key.
 */
export class SuggestionIndex {
  readonly #articles: readonly Article[];
  /** Each article's folded headline, publisher and id, `\n` apart; articles `\n` apart too. */
  readonly #text: string;
  /** Where each article's part of `#text` starts, and one past the last. */
  readonly #articleAt: Int32Array;
  readonly #starts: SortedKeys;
  readonly #inside: SortedKeys;

  private constructor(
    articles: readonly Article[],
    text: string,
    articleAt: Int32Array,
    starts: SortedKeys,
    inside: SortedKeys,
  ) {
    this.#articles = articles;
    this.#text = text;
    this.#articleAt = articleAt;
    this.#starts = starts;
    this.#inside = inside;
  }

  static build(articles: readonly Article[]): SuggestionIndex {
    const starts: FoundKeys = { at: [], length: [], articles: [] };
    const inside: FoundKeys = { at: [], length: [], articles: [] };
    const parts: string[] = [];
    const articleAt = new Int32Array(articles.length + 1);
    let offset = 0;
    articles.forEach((article, index) => {
      const title = fold(article.title);
      const id = article.id.toLowerCase();
      const publisher = fold(article.publisher ?? '');
      const idAt = offset + title.length + publisher.length + 2;
      addKey(starts, title, 0, offset, index);
      addKey(starts, id, 0, idAt, index);
      for (const [text, textAt] of [
        [title, offset],
        [publisher, offset + title.length + 1],
        [id, idAt],
      ] as const) {
        for (const at of wordStarts(text)) addKey(inside, text, at, textAt + at, index);
      }
      parts.push(`${title}\n${publisher}\n${id}`);
      articleAt[index] = offset;
      offset = idAt + id.length + 1;
    });
    articleAt[articles.length] = offset;
    const text = parts.join('\n');
    return new SuggestionIndex(articles, text, articleAt, sortKeys(text, starts), sortKeys(text, inside));
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
    const from = this.#lowerBound(sorted, key);
    const end = Math.min(sorted.at.length, from + SCAN_LIMIT);
    for (let i = from; i < end && found.length < limit; i++) {
      if (sorted.length[i]! < key.length || !this.#text.startsWith(key, sorted.at[i])) break;
      const article = sorted.articles[i]!;
      if (seen.has(article)) continue;
      seen.add(article);
      if (!confirm || matches(this.#folded(article))) found.push(article);
    }
    return found;
  }

  /** An article's folded headline, publisher and id, `\n` apart. */
  #folded(article: number): string {
    return this.#text.slice(this.#articleAt[article], this.#articleAt[article + 1]! - 1);
  }

  /** The first key not below `key`, in code-unit order. */
  #lowerBound(sorted: SortedKeys, key: string): number {
    let low = 0;
    let high = sorted.at.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#below(sorted.at[middle]!, sorted.length[middle]!, key)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Whether the key of `length` at `at` sorts before `key`, as `<` compares strings. */
  #below(at: number, length: number, key: string): boolean {
    const common = Math.min(length, key.length);
    for (let i = 0; i < common; i++) {
      const unit = this.#text.charCodeAt(at + i);
      const other = key.charCodeAt(i);
      if (unit !== other) return unit < other;
    }
    return length < key.length;
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

/** The key of `text` starting at `start`, found at `at` of the index's text. */
function addKey(found: FoundKeys, text: string, start: number, at: number, article: number): void {
  found.at.push(at);
  found.length.push(Math.min(KEY_LENGTH, text.length - start));
  found.articles.push(article);
}

/** Code units a key's sort number holds: three of 17 bits (a unit plus one, 0 past the key's end) fit a double. */
const SORT_NUMBER_UNITS = 3;

/**
 * The keys in code-unit order (the order `#lowerBound` searches in; localeCompare would not agree with
 * `<`), keys alike in article order. Most comparisons are settled by a number made of a key's first
 * code units, and the rest read the text without making strings: over twice as fast as sorting
 * strings, and nothing to collect after.
 */
function sortKeys(text: string, { at, length, articles }: FoundKeys): SortedKeys {
  const count = at.length;
  const numbers = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    let number = 0;
    for (let unit = 0; unit < SORT_NUMBER_UNITS; unit++)
      number = number * 0x20000 + (unit < length[i]! ? text.charCodeAt(at[i]! + unit) + 1 : 0);
    numbers[i] = number;
  }
  const order = Int32Array.from({ length: count }, (_, i) => i);
  order.sort((a, b) => {
    const byNumber = numbers[a]! - numbers[b]!;
    if (byNumber !== 0) return byNumber;
    const common = Math.min(length[a]!, length[b]!);
    for (let unit = SORT_NUMBER_UNITS; unit < common; unit++) {
      const byUnit = text.charCodeAt(at[a]! + unit) - text.charCodeAt(at[b]! + unit);
      if (byUnit !== 0) return byUnit;
    }
    return length[a]! - length[b]! || articles[a]! - articles[b]!;
  });
  return {
    at: Int32Array.from(order, (i) => at[i]!),
    length: Uint8Array.from(order, (i) => length[i]!),
    articles: Int32Array.from(order, (i) => articles[i]!),
  };
}

function byTitle(articles: Article[]): Article[] {
  return articles.sort((a, b) => a.title.localeCompare(b.title));
}
