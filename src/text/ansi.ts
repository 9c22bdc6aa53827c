/** One ANSI SGR style: `open` switches it on and `close` off again, so styles nest. */
const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

/**
 * The terminal styles Newsdesk uses, for the console and the CLI alike (each picks its own meanings:
 * a matched word, a link, an id, words a member's quote adds or drops).
 */
export const ANSI = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  italic: sgr(3, 23),
  underline: sgr(4, 24),
  strike: sgr(9, 29),
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  blue: sgr(34, 39),
  cyan: sgr(36, 39),
} as const;
