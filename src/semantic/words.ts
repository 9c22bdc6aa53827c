/**
 * Words as GloVe knows them: lower-cased, with hyphens and apostrophes inside a word kept ("cross-country",
 * "o'brien"); a word GloVe lacks in that form is looked up by its parts (`lookupForms`). GloVe 6B was
 * trained on lower-cased Wikipedia and Gigaword text, so nothing here stems or folds accents.
 */
const WORD = /[\p{L}\p{N}]+(?:['\u2019-][\p{L}\p{N}]+)*/gu;

/** The words of a text, in order, lower-cased, curly apostrophes made straight. */
export function vectorWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) words.push(match[0].replaceAll('\u2019', "'"));
  return words;
}

/**
 * The forms to look a word up by, best first: itself, then, for a joined word GloVe lacks, its parts
 * ("mayor's" as "mayor", "anti-fraud" as "anti" and "fraud").
 */
export function lookupForms(word: string, known: (word: string) => boolean): string[] {
  if (known(word) || !/['-]/.test(word)) return [word];
  const parts = word.replace(/'s$/, '').split(/['-]/);
  return parts.filter((part) => part !== '');
}

/** How many passages hold each word, over a corpus's passages. */
export interface Vocabulary {
  /** Passages counted. */
  passages: number;
  /** Passages holding each word (a headline counts as one passage of its own). */
  df: Map<string, number>;
}

/**
 * The words of a corpus with the number of passages (and headlines) holding each, for the idf of a
 * sentence vector and to know which words' vectors a corpus needs.
 */
export function vocabularyOf(texts: Iterable<string>): Vocabulary {
  const df = new Map<string, number>();
  let passages = 0;
  for (const text of texts) {
    passages++;
    for (const word of new Set(vectorWords(text))) df.set(word, (df.get(word) ?? 0) + 1);
  }
  return { passages, df };
}
