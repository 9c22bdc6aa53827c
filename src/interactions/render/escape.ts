import { stripControls } from '../../text/controls.ts';

/** Zero-width space: splits a mention so Discord shows it as text and never resolves it. */
export const ZWSP = '\u200b';

// Line-start syntax (headings, subtext, block quotes, lists) only means something at the start of a line.
const LINE_START = /^(\s*)(#{1,3}\s|-#\s|>|[-*+]\s|\d+[.)]\s)/gm;
// Inline syntax: emphasis, strike, code, spoilers, masked links, escapes themselves.
const INLINE = /[\\*_~`|[\]]/g;
// @everyone / @here and every <...> mention form: users, roles, channels, slash commands, emojis.
const MENTION_AT = /@(everyone|here)/gi;
const MENTION_ANGLE = /<(?=[@#/:]|a:|t:|id:)/g;

/**
 * Makes untrusted text (corpus passages, questions, titles) safe to embed in a Discord message:
 * markdown is escaped so it shows literally, and mentions are split with a zero-width space so they
 * never resolve, even if `allowed_mentions` were ever lost on the way.
 */
export function escapeText(text: string): string {
  return neutraliseMentions(
    stripControls(text)
      .replace(INLINE, '\\$&')
      .replace(LINE_START, (_match, indent: string, marker: string) => `${indent}${escapeMarker(marker)}`),
  );
}

/** For fields Discord never renders as markdown (embed footers, author names, button labels). */
export function neutraliseMentions(text: string): string {
  // Control characters Discord shows as boxes or strips unpredictably.
  return stripControls(text).replace(MENTION_AT, `@${ZWSP}$1`).replace(MENTION_ANGLE, `<${ZWSP}`);
}

/** True when the text still contains something Discord would turn into a mention. */
export function hasLiveMention(text: string): boolean {
  return /@(everyone|here)/i.test(text) || /<(@[!&]?|#|\/[^>]*:)\d+>/.test(text);
}

/** Reverses `neutraliseMentions` and strips zero-width spaces, to read back what the bot wrote. */
export function stripZeroWidth(text: string): string {
  return text.replaceAll(ZWSP, '');
}

/** `1. ` needs its dot escaped (a backslash before a digit is shown literally); others their first char. */
function escapeMarker(marker: string): string {
  const ordered = /^(\d+)([.)])(\s)$/.exec(marker);
  return ordered ? `${ordered[1]}\\${ordered[2]}${ordered[3]}` : `\\${marker}`;
}
