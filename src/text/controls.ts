/**
 * Terminal escape sequences whole, 7-bit and 8-bit: OSC (a window title, an OSC 8 link: up to BEL or
 * ST), DCS, SOS, PM and APC strings, CSI (a screen clear, colours) and the two-character escapes. Removed
 * whole, so that no fragment of one (`]8;;http://…`) is left to read as text.
 */
const ESCAPE_SEQUENCE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding terminal escapes is what it is for.
  /(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|(?:\u001b[P^_X]|[\u0090\u0098\u009e\u009f])[^\u001b\u009c]*(?:\u001b\\|\u009c)?|(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]?|\u001b[ -/]*[0-~]?/g;

/**
 * Characters that act instead of showing: C0 and C1 controls (ESC starts terminal escape sequences, BEL
 * rings, U+009B is a one-byte CSI) and the bidirectional overrides and isolates that reorder what is
 * shown around them. Newline and tab are kept.
 */
const CONTROL = /(?![\n\t])[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;

/**
 * Untrusted text (corpus, questions, what a web server sends) with every escape sequence and control
 * character removed, so it can only show. The one sanitiser for text that reaches a terminal, a Discord
 * reply or the corpus from outside.
 */
export function stripControls(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '');
}

/**
 * JSON text in which the controls `JSON.stringify` leaves raw (C1, bidirectional) are written as
 * `\u` escapes: the same value for a JSON reader, inert for a terminal.
 */
export function inertJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    /[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
