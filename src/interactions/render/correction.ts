import type { Correction } from '../../factcheck/correction.ts';
import { shortDiff } from '../../factcheck/correction.ts';
import type { ReplyPayload } from '../incoming.ts';
import { code } from './citation.ts';
import { renderDiff } from './quote-check.ts';

/** The diff gets at most this much of the 2,000-character content. */
const DIFF_BUDGET = 1400;

/**
 * The reply to an answer whose cited paragraph a reload changed or removed: what changed, in a short
 * word diff (struck: no longer in the coverage, underlined: new), and where the paragraph is now.
 */
export function renderCorrection(correction: Correction): ReplyPayload {
  if (correction.kind === 'removed') {
    return {
      content: `**Correction**: the paragraph this answer cited, ${code(correction.citation)}, has been removed from the coverage.`,
    };
  }
  const moved =
    correction.newCitation === correction.citation ? '' : ` It is now ${code(correction.newCitation)}.`;
  return {
    content: [
      `**Correction**: the paragraph this answer cited, ${code(correction.citation)}, has changed in the coverage.${moved}`,
      `> ${renderDiff(shortDiff(correction.diff), DIFF_BUDGET)}`,
      '~~struck~~: no longer in the coverage · __underlined__: new',
      `Now: \`/cite ${correction.newCitation}\``,
    ].join('\n'),
  };
}
