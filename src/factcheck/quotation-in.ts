/**
 * The quotation in a message: what "Check quote" checks. A message often wraps the quote in talk
 * (`lol she literally said "we will open the borders"`); the longest stretch in quotation marks of at
 * least four words is the quote, otherwise the whole message is.
 */
const QUOTED = /["“„«]([^"“”„«»]{2,})["”»]/g;
const MIN_QUOTED_WORDS = 4;

export function quotationIn(message: string): string {
  const text = message.replace(/\s+/g, ' ').trim();
  const quoted = [...text.matchAll(QUOTED)]
    .map((match) => match[1]!.trim())
    .filter((inner) => inner.split(' ').length >= MIN_QUOTED_WORDS)
    .sort((a, b) => b.length - a.length);
  return quoted[0] ?? text;
}
