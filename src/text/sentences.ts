/** A sentence of a passage, with its offsets so a quote can be cut from the passage verbatim. */
export interface Sentence {
  start: number;
  end: number;
  text: string;
}

// Words whose trailing period does not end a sentence ("Mr. Dhersin", "Jan. 5", "U.S. officials").
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'mt',
  'gen',
  'col',
  'lt',
  'sgt',
  'capt',
  'cmdr',
  'gov',
  'sen',
  'rep',
  'rev',
  'hon',
  'pres',
  'supt',
  'insp',
  'det',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'no',
  'vs',
  'etc',
  'inc',
  'ltd',
  'co',
  'corp',
  'approx',
  'dept',
  'est',
  'fig',
  'op',
  'e.g',
  'i.e',
  'u.s',
  'u.k',
  'u.n',
  'a.m',
  'p.m',
]);

const OPENING_QUOTES = '"“‘«';
const CLOSING_AFTER_STOP = `"”’'»)]`;

/**
 * Splits text into sentences. A sentence ends at `.`, `!` or `?` (with any closing quotes or brackets)
 * followed by white space and a capital, digit or opening quote, except after a known abbreviation or an
 * initial. A break inside a quotation that is still open is not taken, so quoted speech stays whole.
 */
export function splitSentences(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  let start = skipSpace(text, 0);
  // An unbalanced quotation (speech running on into the next paragraph) cannot protect anything.
  const protectQuotes = quotesBalance(text);
  let openDouble = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '“') openDouble = true;
    else if (ch === '”') openDouble = false;
    else if (ch === '"') openDouble = !openDouble;
    if (ch !== '.' && ch !== '!' && ch !== '?') continue;
    let end = i + 1;
    while (end < text.length && (text[end] === '.' || text[end] === '!' || text[end] === '?')) end++;
    while (end < text.length && CLOSING_AFTER_STOP.includes(text[end]!)) {
      if (text[end] === '"' || text[end] === '”') openDouble = false;
      end++;
    }
    if (end >= text.length) break;
    if (!/\s/.test(text[end]!)) continue;
    const next = skipSpace(text, end);
    if (next >= text.length) break;
    const nextCh = text[next]!;
    if (!/[\p{Lu}\p{N}]/u.test(nextCh) && !OPENING_QUOTES.includes(nextCh) && nextCh !== "'") continue;
    if (ch === '.' && isAbbreviation(text, i)) continue;
    if (openDouble && protectQuotes) continue;
    sentences.push({ start, end, text: text.slice(start, end) });
    start = next;
    i = next - 1;
  }
  const tail = text.slice(start).trimEnd();
  if (tail.length > 0) sentences.push({ start, end: start + tail.length, text: tail });
  return sentences;
}

function quotesBalance(text: string): boolean {
  let straight = 0;
  let curly = 0;
  for (const ch of text) {
    if (ch === '"') straight++;
    else if (ch === '“') curly++;
    else if (ch === '”') curly--;
  }
  return straight % 2 === 0 && curly === 0;
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

function isAbbreviation(text: string, dot: number): boolean {
  let wordStart = dot;
  while (wordStart > 0 && /[\p{L}.]/u.test(text[wordStart - 1]!)) wordStart--;
  const word = text.slice(wordStart, dot).toLowerCase();
  if (word.length === 1) return /\p{Lu}/u.test(text[wordStart]!); // an initial: "Franck D. Dhersin"
  return ABBREVIATIONS.has(word);
}
