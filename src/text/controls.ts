/**
 * Characters that act instead of showing: C0 and C1 controls (ESC starts terminal escape sequences, BEL
 * rings, U+009B is a one-byte CSI) and the bidirectional overrides and isolates that reorder what is
 * shown around them. Newline and tab are kept.
 */
const CONTROL = /(?![\n\t])[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;

/** Untrusted text (corpus, questions) with every control character removed, so it can only show. */
export function stripControls(text: string): string {
  return text.replace(CONTROL, '');
}

/**
 * JSON text in which the controls `JSON.stringify` leaves raw (C1, bidirectional) are written as
 * `\u` escapes: the same value for a JSON reader, inert for a terminal.
 */
export function inertJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
