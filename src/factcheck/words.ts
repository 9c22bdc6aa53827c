/**
 * Words as the quote check compares them: each with its folded form, its indexed term and its kind
 * (function word, negation, number, content word). See README.md for what this folder owns.
 */
import { fold, termsOfWord } from '../search/analyze.ts';
import { STOP_WORDS } from '../search/stop-words.ts';

/** What a word is, for judging how much a difference in it matters. */
export type WordKind = 'function' | 'negation' | 'number' | 'content';

/** One word of a text, with where it stands and how it compares. */
export interface Word {
  /** The word as written. */
  raw: string;
  start: number;
  end: number;
  /** Case, accents, typographic quotes and thousands separators folded: equal means the same word. */
  norm: string;
  /** The indexed term (stemmed, irregular forms joined): equal means the same word in another form. */
  stem: string;
  kind: WordKind;
  /** Capitalised and not the first word of a sentence: probably a name. */
  capitalised: boolean;
}

// As the analyser's word pattern, so a word means the same here as in the index.
const WORD = /[\p{L}\p{N}]+(?:(?:['’‘`´-]|[.,](?=\p{N})|\.(?=\p{L}\.))[\p{L}\p{N}]+)*\.?/gu;

const NEGATIONS = new Set([
  'not',
  'no',
  'never',
  'nor',
  'neither',
  'none',
  'nobody',
  'nothing',
  'nowhere',
  'without',
  'cannot',
]);
const NUMBER_WORDS = new Set(
  `zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
  seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand
  million billion trillion dozen dozens hundreds thousands millions billions half quarter first second
  third fourth fifth once twice`.split(/\s+/),
);

function kindOf(norm: string): WordKind {
  const plain = norm.replace(/'/g, '');
  if (NEGATIONS.has(norm) || /n't$/.test(norm)) return 'negation';
  if (/\d/.test(norm) || NUMBER_WORDS.has(norm)) return 'number';
  if (STOP_WORDS.has(plain) || STOP_WORDS.has(norm)) return 'function';
  return 'content';
}

/** Folds a raw word for comparison: "Téteghem" = "teteghem", "18,000" = "18000", "U.S." = "us". */
export function normalizeWord(raw: string): string {
  let word = fold(raw);
  if (word.endsWith('.') && !/^(?:\p{L}\.)+$/u.test(word)) word = word.slice(0, -1);
  if (/^\d[\d,]*(?:\.\d+)?$/.test(word)) return word.replace(/,/g, '');
  if (/^(?:\p{L}\.)+\p{L}?\.?$/u.test(word)) return word.replace(/\./g, '');
  return word;
}

/** The words of a text in order, each with its comparison keys. */
export function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  for (const match of text.matchAll(WORD)) {
    const raw = match[0];
    const norm = normalizeWord(raw);
    const before = text.slice(Math.max(0, match.index - 3), match.index);
    const sentenceStart = words.length === 0 || /[.!?]["'”’]?\s*$/.test(before);
    words.push({
      raw,
      start: match.index,
      end: match.index + raw.length,
      norm,
      stem: termsOfWord(raw).join('-') || norm,
      kind: kindOf(norm),
      capitalised: !sentenceStart && /^\p{Lu}/u.test(raw),
    });
  }
  return words;
}

/** `text[start, end)` grown to the whitespace (or text edge) on either side. */
export function widen(text: string, start: number, end: number): string {
  let from = start;
  let to = end;
  while (from > 0 && !/\s/.test(text[from - 1]!)) from--;
  while (to < text.length && !/\s/.test(text[to]!)) to++;
  return text.slice(from, to);
}
