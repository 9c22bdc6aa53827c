/**
 * Words readers use that articles don't, made one term before stemming so that either finds the other.
 * Kept small and general on purpose: currency words and symbols, per cent, the abbreviations of wire
 * copy, British and American spellings, and a few news synonyms. Nothing here is tuned to a question.
 */

/** Symbols that stand for a word: "£7,000" is "7,000 pounds". */
export const SYMBOL_WORDS: ReadonlyMap<string, string> = new Map([
  ['£', 'pound'],
  ['$', 'dollar'],
  ['€', 'euro'],
  ['¥', 'yen'],
  ['%', 'percent'],
]);

const SAME_WORD: ReadonlyMap<string, string> = new Map(
  Object.entries({
    // Currencies as wire copy abbreviates them (Reuters writes "dlrs" and "stg").
    dlr: 'dollar',
    dlrs: 'dollar',
    usd: 'dollar',
    stg: 'pound',
    sterling: 'pound',
    eur: 'euro',
    pct: 'percent',
    mln: 'million',
    bln: 'billion',
    bn: 'billion',
    // "per cent" is "percent": "cent" after "per" (see `analyze`); "per" alone is a function word.
    // News synonyms: the reader's word and the reporter's.
    jobless: 'unemployment',
    joblessness: 'unemployment',
  }),
);

// British spellings whose American form a stemmer does not reach (colour/color, centre/center).
const OUR_WORDS =
  /^(colo|hono|favo|labo|harbo|neighbo|behavio|flavo|humo|rumo|vigo|armo|savo|valo|odo|rigo|cando|clamo|endeavo|splendo|vapo|tumo|ardo|parlo)ur/;
const TRE_WORDS = /^(cent|theat|met|lit|fib|kilomet|centimet|millimet|calib|spect|somb|lust|meag)re(s|d)?$/;
const CE_WORDS = /^(defen|offen|licen|preten)ce(s)?$/;
const DOUBLED_L =
  /^(travel|cancel|label|model|fuel|signal|counsel|level|total|channel|dial|equal|rival|quarrel|tunnel|marshal|jewel)l(ed|ing|er|ers)$/;

/** The American spelling of a folded British one, or the word itself. */
export function americanSpelling(word: string): string {
  if (word.length < 5) return word;
  if (OUR_WORDS.test(word)) return word.replace(OUR_WORDS, '$1r');
  if (TRE_WORDS.test(word)) return word.replace(/re(s|d)?$/, 'er$1');
  if (CE_WORDS.test(word)) return word.replace(/ce(s)?$/, 'se$1');
  if (DOUBLED_L.test(word)) return word.replace(DOUBLED_L, '$1$2');
  // organise/organize, analyse/analyze, organisation/organization.
  if (word.length >= 6) {
    const z = word.replace(/(?<=\w{3})is(e|es|ed|ing|ation|ations|er|ers)$/, 'iz$1');
    if (z !== word) return z;
    return word.replace(/(?<=\w{3})ys(e|es|ed|ing)$/, 'yz$1');
  }
  return word;
}

/** The word a folded word is indexed as: its equivalent, in American spelling. */
export function equivalentWord(word: string): string {
  return SAME_WORD.get(word) ?? americanSpelling(word);
}

/** "3bn", "£5m", "20mln": the number and its magnitude as two words ("3 billion"). */
export function splitMagnitude(word: string): [string, string] | undefined {
  const match = /^(\d[\d,]*(?:\.\d+)?)(bn|bln|m|mln|billion|million)$/.exec(word);
  if (!match) return undefined;
  const magnitude = match[2]!.startsWith('b') ? 'billion' : 'million';
  return [match[1]!, magnitude];
}
