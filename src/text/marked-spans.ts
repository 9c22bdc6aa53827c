/** A span of a text, as `[start, end)` offsets. */
export interface Span {
  start: number;
  end: number;
}

/**
 * The text with its spans marked (bold in Discord, a colour in a terminal) and the rest written plain
 * (escaped, or stripped of control characters). Spans are clipped to the text (a quote may have been
 * cut) and merged where they touch or overlap, or two markers would run into each other (`****`).
 */
export function markSpans(
  text: string,
  spans: readonly Span[],
  write: { plain(part: string): string; marked(part: string): string },
): string {
  const merged: Span[] = [];
  for (const span of spans
    .map(({ start, end }) => ({ start: Math.max(0, start), end: Math.min(text.length, end) }))
    .filter(({ start, end }) => end > start)
    .sort((a, b) => a.start - b.start)) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  let out = '';
  let at = 0;
  for (const span of merged) {
    out += write.plain(text.slice(at, span.start)) + write.marked(text.slice(span.start, span.end));
    at = span.end;
  }
  return out + write.plain(text.slice(at));
}
