import type { Article } from '../corpus/article.ts';
import type { Steps } from '../event-loop.ts';
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

/** Where the keys starting with a key are: read `sorted` from `from` until a key does not start with it. */
type PrefixRange = (key: string) => { sorted: SortedKeys; from: number };

/**
 * Pieces of work one step of `SuggestionIndex.buildSteps` does at most: articles read, keys numbered,
 * merged or copied, and keys sorted per run before the runs are merged. At 121k passages (23,704
 * articles, 226k keys) each step is under 5 ms.
 */
export interface BuildSlices {
  articles: number;
  keys: number;
  run: number;
}

const SLICES: BuildSlices = { articles: 512, keys: 16_384, run: 4_096 };

/** A build under way, as `SuggestionIndex.buildSteps` gives it. */
export interface SuggestionBuild {
  /** The build, a step at a time (`finishInSlices` runs it); returns the index. */
  readonly steps: Steps<SuggestionIndex>;
  /**
   * The index if built, else one that answers exactly as it will by scanning the keys found (reading
   * the articles not read yet first): a few milliseconds a lookup at 121k, not the build's 0.3 s.
   */
  now(): SuggestionIndex;
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
  readonly #starts: PrefixRange;
  readonly #inside: PrefixRange;

  private constructor(
    articles: readonly Article[],
    text: string,
    articleAt: Int32Array,
    starts: PrefixRange,
    inside: PrefixRange,
  ) {
    this.#articles = articles;
    this.#text = text;
    this.#articleAt = articleAt;
    this.#starts = starts;
    this.#inside = inside;
  }

  /** Builds the index in one go (the CLI, and wherever nothing else waits for the thread). */
  static build(articles: readonly Article[]): SuggestionIndex {
    const found = new FoundText(articles);
    found.read(articles.length);
    const text = found.text();
    return SuggestionIndex.#sorted(
      articles,
      text,
      found.articleAt,
      sortKeys(text, found.starts),
      sortKeys(text, found.inside),
    );
  }

  /**
   * The same index built in steps of a few milliseconds each (see `BuildSlices`): the articles read a
   * slice at a time, then each array of keys sorted in runs that are merged, the order and result
   * exactly `build`'s. Between steps the thread is free; meanwhile `now()` answers by a scan.
   */
  static buildSteps(articles: readonly Article[], slices: BuildSlices = SLICES): SuggestionBuild {
    const found = new FoundText(articles);
    let built: SuggestionIndex | undefined;
    function* steps(): Steps<SuggestionIndex> {
      while (found.articlesRead < articles.length) {
        found.read(Math.min(articles.length, found.articlesRead + slices.articles));
        yield;
      }
      const text = found.text();
      const starts = yield* sortKeysInSteps(text, found.starts, slices);
      const inside = yield* sortKeysInSteps(text, found.inside, slices);
      built = SuggestionIndex.#sorted(articles, text, found.articleAt, starts, inside);
      return built;
    }
    let scanning: SuggestionIndex | undefined;
    return {
      steps: steps(),
      now() {
        if (built) return built;
        if (scanning) return scanning;
        // Read on the spot what the steps have not read yet: the rest of a 30 ms pass at 121k.
        found.read(articles.length);
        const text = found.text();
        const scan =
          (keys: FoundKeys): PrefixRange =>
          (key) => ({ sorted: sortKeys(text, keysStarting(text, keys, key)), from: 0 });
        scanning = new SuggestionIndex(
          articles,
          text,
          found.articleAt,
          scan(found.starts),
          scan(found.inside),
        );
        return scanning;
      },
    };
  }

  static #sorted(
    articles: readonly Article[],
    text: string,
    articleAt: Int32Array,
    starts: SortedKeys,
    inside: SortedKeys,
  ): SuggestionIndex {
    const range =
      (sorted: SortedKeys): PrefixRange =>
      (key) => ({ sorted, from: lowerBound(text, sorted, key) });
    return new SuggestionIndex(articles, text, articleAt, range(starts), range(inside));
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
    range: PrefixRange,
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
    const { sorted, from } = range(key);
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

/** The number of a key's first code units, which settles most comparisons (see `keyOrder`). */
function sortNumber(text: string, at: number, length: number): number {
  let number = 0;
  for (let unit = 0; unit < SORT_NUMBER_UNITS; unit++)
    number = number * 0x20000 + (unit < length ? text.charCodeAt(at + unit) + 1 : 0);
  return number;
}

/**
 * Code-unit order of keys (the order `lowerBound` searches in; localeCompare would not agree with
 * `<`), keys alike in article order. Most comparisons are settled by the keys' sort numbers, and the
 * rest read the text without making strings: over twice as fast as sorting strings, and nothing to
 * collect after.
 */
function keyOrder(
  text: string,
  { at, length, articles }: FoundKeys,
  numbers: Float64Array,
): (a: number, b: number) => number {
  return (a, b) => {
    const byNumber = numbers[a]! - numbers[b]!;
    if (byNumber !== 0) return byNumber;
    const common = Math.min(length[a]!, length[b]!);
    for (let unit = SORT_NUMBER_UNITS; unit < common; unit++) {
      const byUnit = text.charCodeAt(at[a]! + unit) - text.charCodeAt(at[b]! + unit);
      if (byUnit !== 0) return byUnit;
    }
    return length[a]! - length[b]! || articles[a]! - articles[b]!;
  };
}

/** The keys in `keyOrder`, in one go. */
function sortKeys(text: string, found: FoundKeys): SortedKeys {
  const { at, length, articles } = found;
  const count = at.length;
  const numbers = new Float64Array(count);
  for (let i = 0; i < count; i++) numbers[i] = sortNumber(text, at[i]!, length[i]!);
  const order = Int32Array.from({ length: count }, (_, i) => i);
  order.sort(keyOrder(text, found, numbers));
  return {
    at: Int32Array.from(order, (i) => at[i]!),
    length: Uint8Array.from(order, (i) => length[i]!),
    articles: Int32Array.from(order, (i) => articles[i]!),
  };
}

/**
 * The keys in `keyOrder`, a step at a time: runs of `slices.run` keys sorted, then merged pairwise
 * (stably, as the sort of a run is), `slices.keys` keys a step. The same order as `sortKeys`.
 */
function* sortKeysInSteps(text: string, found: FoundKeys, slices: BuildSlices): Steps<SortedKeys> {
  const { at, length, articles } = found;
  const count = at.length;
  const numbers = new Float64Array(count);
  let order = new Int32Array(count);
  for (let from = 0; from < count; from += slices.keys) {
    for (let i = from; i < Math.min(count, from + slices.keys); i++) {
      numbers[i] = sortNumber(text, at[i]!, length[i]!);
      order[i] = i;
    }
    yield;
  }
  const compare = keyOrder(text, found, numbers);
  for (let from = 0; from < count; from += slices.run) {
    order.subarray(from, Math.min(count, from + slices.run)).sort(compare);
    yield;
  }
  let merged = new Int32Array(count);
  // Counted across a pass, not per pair: a pass of short runs merges every key too.
  let inStep = 0;
  for (let width = slices.run; width < count; width *= 2) {
    for (let left = 0; left < count; left += 2 * width) {
      const middle = Math.min(count, left + width);
      const right = Math.min(count, left + 2 * width);
      let i = left;
      let j = middle;
      let out = left;
      while (i < middle && j < right) {
        // The right run's key first only when strictly before: keys alike keep their order.
        merged[out++] = compare(order[j]!, order[i]!) < 0 ? order[j++]! : order[i++]!;
        if (++inStep === slices.keys) {
          inStep = 0;
          yield;
        }
      }
      merged.set(order.subarray(i, middle), out);
      merged.set(order.subarray(j, right), out + (middle - i));
    }
    [order, merged] = [merged, order];
    yield;
  }
  const sorted: SortedKeys = {
    at: new Int32Array(count),
    length: new Uint8Array(count),
    articles: new Int32Array(count),
  };
  for (let from = 0; from < count; from += slices.keys) {
    for (let i = from; i < Math.min(count, from + slices.keys); i++) {
      const key = order[i]!;
      sorted.at[i] = at[key]!;
      sorted.length[i] = length[key]!;
      sorted.articles[i] = articles[key]!;
    }
    yield;
  }
  return sorted;
}

/** The keys of `found` that start with `key` (a build's scan before its keys are sorted). */
function keysStarting(text: string, found: FoundKeys, key: string): FoundKeys {
  const starting: FoundKeys = { at: [], length: [], articles: [] };
  for (let i = 0; i < found.at.length; i++) {
    if (found.length[i]! < key.length || !text.startsWith(key, found.at[i])) continue;
    starting.at.push(found.at[i]!);
    starting.length.push(found.length[i]!);
    starting.articles.push(found.articles[i]!);
  }
  return starting;
}

/** The first key of `sorted` not below `key`, in code-unit order. */
function lowerBound(text: string, sorted: SortedKeys, key: string): number {
  let low = 0;
  let high = sorted.at.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (below(text, sorted.at[middle]!, sorted.length[middle]!, key)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Whether the key of `length` at `at` sorts before `key`, as `<` compares strings. */
function below(text: string, at: number, length: number, key: string): boolean {
  const common = Math.min(length, key.length);
  for (let i = 0; i < common; i++) {
    const unit = text.charCodeAt(at + i);
    const other = key.charCodeAt(i);
    if (unit !== other) return unit < other;
  }
  return length < key.length;
}

/**
 * The keys of a corpus's articles as they are read, and the text they are stretches of: `read` reads
 * up to an article, so a build can read a slice at a time.
 */
class FoundText {
  readonly starts: FoundKeys = { at: [], length: [], articles: [] };
  readonly inside: FoundKeys = { at: [], length: [], articles: [] };
  readonly articleAt: Int32Array;
  readonly #articles: readonly Article[];
  readonly #parts: string[] = [];
  #offset = 0;
  #read = 0;
  #text: string | undefined;

  constructor(articles: readonly Article[]) {
    this.#articles = articles;
    this.articleAt = new Int32Array(articles.length + 1);
  }

  get articlesRead(): number {
    return this.#read;
  }

  /** Reads the articles before `end` not read yet. */
  read(end: number): void {
    for (let index = this.#read; index < end; index++) {
      const article = this.#articles[index]!;
      const offset = this.#offset;
      const title = fold(article.title);
      const id = article.id.toLowerCase();
      const publisher = fold(article.publisher ?? '');
      const idAt = offset + title.length + publisher.length + 2;
      addKey(this.starts, title, 0, offset, index);
      addKey(this.starts, id, 0, idAt, index);
      for (const [text, textAt] of [
        [title, offset],
        [publisher, offset + title.length + 1],
        [id, idAt],
      ] as const) {
        for (const at of wordStarts(text)) addKey(this.inside, text, at, textAt + at, index);
      }
      this.#parts.push(`${title}\n${publisher}\n${id}`);
      this.articleAt[index] = offset;
      this.#offset = idAt + id.length + 1;
    }
    this.#read = Math.max(this.#read, end);
  }

  /** The text of every article, once all are read. */
  text(): string {
    if (this.#text === undefined) {
      this.articleAt[this.#articles.length] = this.#offset;
      this.#text = this.#parts.join('\n');
    }
    return this.#text;
  }
}

function byTitle(articles: Article[]): Article[] {
  return articles.sort((a, b) => a.title.localeCompare(b.title));
}
