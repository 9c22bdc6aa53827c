import { stemmer } from 'stemmer';
import { equivalentWord, SYMBOL_WORDS, splitMagnitude } from './equivalents.ts';
import { IRREGULAR_FORMS } from './irregular-forms.ts';
import { STOP_WORDS } from './stop-words.ts';
import { WORD_FAMILIES } from './word-families.ts';

/** A term of a text with where its word stands, for highlighting and proximity. */
export interface Token {
  /** The analysed term, as indexed (folded, stemmed). */
  term: string;
  start: number;
  end: number;
  /** Ordinal of the word in the text, counting stop words, so distances between terms are real. */
  position: number;
}

// Letters and digits, joined by an apostrophe, a hyphen, or (between digits) a comma or point:
// "Bouchart's", "co-operation", "18,000", "5.93", "U.S".
// Currency and per cent signs are words too: "£7,000" is "7,000 pounds" (see equivalents.ts).
const WORD = /[\p{L}\p{N}]+(?:(?:['’‘`´-]|[.,](?=\p{N})|\.(?=\p{L}\.))[\p{L}\p{N}]+)*\.?|[£$€¥%]/gu;
const COMBINING_MARKS = /\p{M}+/gu;

/**
 * Folds a word for matching: lower case, accents removed (Téteghem = Teteghem), typographic apostrophes
 * made plain. Length is not preserved; fold words, not whole texts whose offsets matter.
 */
export function fold(word: string): string {
  // Most words of English news are plain ASCII, which Unicode normalization would only slow down.
  if (/^[\x20-\x7e]*$/.test(word)) return word.toLowerCase().replace(/`/g, "'");
  return word
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
    .replace(/[’‘`´]/g, "'");
}

function stem(word: string): string {
  if (/\d/.test(word)) return word;
  const stemmed = stemmer(word);
  return WORD_FAMILIES.get(stemmed) ?? stemmed;
}

/**
 * Each raw word's terms, remembered: folding and stemming are the costliest steps of analysis, and news
 * repeats its words. When full, the quarter remembered first is let go (first in, first out: cheaper
 * than keeping LRU order, and a common word let go comes straight back). An index build has one of its
 * own, as large as a corpus's vocabulary (`forCorpus`); the engine then keeps the common words of it
 * for its questions (`commonWords`), and goes with them when it is replaced.
 */
export class WordCache {
  readonly #terms = new Map<string, readonly string[]>();
  readonly #limit: number;

  private constructor(limit: number) {
    this.#limit = limit;
  }

  /** For analysing a whole corpus: its vocabulary (133,000 words, ~22 MB, at 121k passages). */
  static forCorpus(): WordCache {
    return new WordCache(CORPUS_WORD_LIMIT);
  }

  /**
   * For questions and the passages ranked for them (~16 MB at most). Unbounded, a serving index's cache
   * would grow back to the corpus's vocabulary over the hours.
   */
  static forQuestions(): WordCache {
    return new WordCache(QUESTION_WORD_LIMIT);
  }

  /** How many words are remembered. */
  get size(): number {
    return this.#terms.size;
  }

  /**
   * A cache for questions holding the last remembered `KEPT_CORPUS_WORDS` of the words `isCommon` finds
   * common (by their terms), so that questions and the passages ranked for them do not analyse news's
   * common words afresh, while the rest of a built corpus's vocabulary (words of a few passages) is let
   * go. At 121k passages the words of 20 passages or more are 45,500 of 133,000 (~7 MB), and halve the
   * words questions analyse afresh.
   */
  commonWords(isCommon: (terms: readonly string[]) => boolean): WordCache {
    const kept = WordCache.forQuestions();
    const common = [...this.#terms].filter(([, terms]) => isCommon(terms));
    for (const [word, terms] of common.slice(-KEPT_CORPUS_WORDS)) kept.#terms.set(word, terms);
    return kept;
  }

  /** The terms one raw word contributes (see `analyzeWord`), remembered. */
  termsOf(raw: string): readonly string[] {
    let terms = this.#terms.get(raw);
    if (terms === undefined) {
      const word = detached(raw);
      terms = analyzeWord(word);
      if (this.#terms.size >= this.#limit) this.#letGoOf(this.#limit / 4);
      this.#terms.set(word, terms);
    }
    return terms;
  }

  /** Lets go of the `count` words remembered first. */
  #letGoOf(count: number): void {
    for (const word of this.#terms.keys()) {
      if (count-- <= 0) break;
      this.#terms.delete(word);
    }
  }
}

const CORPUS_WORD_LIMIT = 300_000;
const QUESTION_WORD_LIMIT = 100_000;
/** At most this many words of a corpus kept for questions once its index is built (~8 MB). */
const KEPT_CORPUS_WORDS = QUESTION_WORD_LIMIT / 2;

/** What texts analysed without an engine's cache (quotes, coverage gaps, fact checks) remember. */
const SHARED_WORDS = WordCache.forQuestions();

/**
 * `word` as a string of its own. V8 cuts words of 13 characters or more out of their text as slices
 * that keep all of it alive; a passage's text read from the shared corpus is a fresh string at each
 * reading, so a remembered slice would keep a copy of its passage. A JSON round trip copies the
 * characters into a new string.
 */
function detached(word: string): string {
  return word.length >= 13 ? (JSON.parse(JSON.stringify(word)) as string) : word;
}

/** The terms one raw word contributes (see `analyzeWord`). */
export function termsOfWord(raw: string, words: WordCache = SHARED_WORDS): readonly string[] {
  return words.termsOf(raw);
}

/**
 * The terms one raw word contributes: none for a stop word; a number without its thousands separators
 * ("18,000" = "18000"); both the parts and the whole of a hyphenated word ("co-operation" matches
 * "cooperation" and "operation").
 */
function analyzeWord(raw: string): string[] {
  const symbol = SYMBOL_WORDS.get(raw);
  if (symbol !== undefined) return [stem(symbol)];
  let word = fold(raw);
  if (word.endsWith('.')) {
    if (!/^(?:\p{L}\.)+$/u.test(word)) word = word.slice(0, -1);
  }
  if (/^\d[\d,]*(?:\.\d+)?$/.test(word)) return [word.replace(/,/g, '')];
  const magnitude = splitMagnitude(word);
  if (magnitude) return [magnitude[0].replace(/,/g, ''), magnitude[1]];
  if (/^(?:\p{L}\.)+\p{L}?\.?$/u.test(word)) return [word.replace(/\./g, '')]; // U.S. = us, never a stop word
  word = word.replace(/'s$/, '').replace(/'$/, '');
  const parts = word.split('-').map((part) => part.replace(/'/g, ''));
  const terms: string[] = [];
  for (const raw of parts) {
    const part = equivalentWord(raw);
    if (part.length > 0 && !STOP_WORDS.has(part)) terms.push(stem(IRREGULAR_FORMS.get(part) ?? part));
  }
  if (parts.length > 1) {
    const whole = parts.join('');
    if (!STOP_WORDS.has(whole)) terms.push(stem(whole));
  }
  return terms;
}

const PERCENT = stem('percent');

/** The terms of a word given the word before it: "cent" after "per" is "percent". */
function termsInContext(raw: string, previous: string, words: WordCache): readonly string[] {
  if ((raw === 'cent' || raw === 'Cent') && (previous === 'per' || previous === 'Per')) return [PERCENT];
  return words.termsOf(raw);
}

/**
 * Analyses a text into terms with offsets. Stop words advance the position but yield no token. `words`:
 * whose remembered words to use (an engine's own; by default those shared by texts analysed elsewhere).
 */
export function tokenize(text: string, words: WordCache = SHARED_WORDS): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  let previous = '';
  for (const match of text.matchAll(WORD)) {
    const raw = match[0];
    const start = match.index;
    for (const term of termsInContext(raw, previous, words))
      tokens.push({ term, start, end: start + raw.length, position });
    previous = raw;
    position++;
  }
  return tokens;
}

/** The analysed terms of a text, in order, repeats kept: what the index counts (`words` as `tokenize`'s). */
export function analyze(text: string, words: WordCache = SHARED_WORDS): string[] {
  const terms: string[] = [];
  let previous = '';
  for (const match of text.matchAll(WORD)) {
    for (const term of termsInContext(match[0], previous, words)) terms.push(term);
    previous = match[0];
  }
  return terms;
}
