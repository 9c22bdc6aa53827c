/** Appended where text was cut: says that something is missing and where to find it. */
export const ELLIPSIS = '…';

/**
 * Renders `raw` with `render` and, when the result is longer than `max`, renders the longest prefix of
 * `raw` that fits, followed by `note`. Prefers to cut after a sentence, then after a word, and only
 * then mid-word. `render` must not shorten text (escaping only adds), which makes the rendered length
 * grow with the prefix and lets the cut be found by binary search.
 */
export function fitText(
  raw: string,
  max: number,
  options: { render?: (part: string) => string; note?: string } = {},
): string {
  const render = options.render ?? ((part: string) => part);
  const note = options.note ?? ELLIPSIS;
  const full = render(raw);
  if (full.length <= max) return full;
  const attempt = (cut: number) => render(raw.slice(0, cut).trimEnd()) + note;
  for (const cuts of [sentenceEnds(raw), wordEnds(raw)]) {
    const best = largestFitting(cuts, (cut) => attempt(cut).length <= max);
    if (best !== undefined) return attempt(best);
  }
  const everyChar = Array.from({ length: raw.length }, (_, index) => index + 1).filter(
    (cut) => !isHighSurrogate(raw.charCodeAt(cut - 1)),
  );
  const best = largestFitting(everyChar, (cut) => attempt(cut).length <= max);
  if (best !== undefined) return attempt(best);
  return hardCut(note, max);
}

/** Cuts already-rendered text to `max` characters without splitting a surrogate pair or an escape. */
export function hardCut(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max - ELLIPSIS.length);
  if (cut > 0 && isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
  let head = text.slice(0, cut);
  // A trailing odd backslash would escape the ellipsis and swallow it.
  const slashes = /\\+$/.exec(head)?.[0].length ?? 0;
  if (slashes % 2 === 1) head = head.slice(0, -1);
  return max >= ELLIPSIS.length ? head + ELLIPSIS : head;
}

/** Offsets just after each sentence's closing punctuation (and closing quotes), ascending. */
export function sentenceEnds(text: string): number[] {
  const ends: number[] = [];
  for (const match of text.matchAll(/[.!?…]+["'”’)\]]*(?=\s|$)/g)) ends.push(match.index + match[0].length);
  return ends;
}

function wordEnds(text: string): number[] {
  const ends: number[] = [];
  for (const match of text.matchAll(/\S(?=\s)/g)) ends.push(match.index + 1);
  return ends;
}

function largestFitting(sorted: number[], fits: (cut: number) => boolean): number | undefined {
  let low = 0;
  let high = sorted.length - 1;
  let best: number | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const cut = sorted[middle]!;
    if (fits(cut)) {
      best = cut;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return best;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
