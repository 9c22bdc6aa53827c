import type { ArticleMeta } from '../../corpus/article.ts';
import { citationLine } from '../../corpus/citation.ts';
import type { DiffPart } from '../../factcheck/check-quote.ts';
import type { Correction } from '../../factcheck/correction.ts';
import type { ReplyPayload } from '../incoming.ts';
import { code, DISCORD_CITATION } from './citation.ts';
import { renderDiff } from './quote-check.ts';

/** The diffs get at most this much of the 2,000-character content, shared between the corrections. */
const DIFF_BUDGET = 1200;
/** More corrections than this in one answer are counted, not shown (an answer cites at most five). */
const MAX_SHOWN = 5;

/** A correction with the article that now holds the paragraph, for its citation line. */
export interface ShownCorrection {
  correction: Correction;
  /** The article the paragraph is now in; absent for a removal. */
  article?: ArticleMeta;
}

/**
 * The reply to an answer whose cited paragraphs a reload changed or removed: for each, what changed in
 * a short word diff (struck: no longer in the coverage, underlined: new) and where the paragraph is
 * now, or that it was removed from the coverage.
 */
export function renderCorrections(corrections: readonly ShownCorrection[]): ReplyPayload {
  const shown = corrections.slice(0, MAX_SHOWN);
  const changed = shown.filter((item) => item.correction.kind === 'changed').length;
  const budget = Math.floor(DIFF_BUDGET / Math.max(1, changed));
  const blocks = shown.map((item) => renderOne(item, budget));
  const hidden = corrections.length - shown.length;
  if (hidden > 0)
    blocks.push(`…and ${hidden} more cited paragraph${hidden === 1 ? '' : 's'} changed or removed.`);
  if (changed > 0) blocks.push('~~struck~~: no longer in the coverage · __underlined__: new');
  return { content: blocks.join('\n'), allowed_mentions: { parse: [] } };
}

/** One correction on its own, as the reply to an answer that cited one paragraph. */
export function renderCorrection(correction: Correction, article?: ArticleMeta): ReplyPayload {
  return renderCorrections([{ correction, ...(article ? { article } : {}) }]);
}

function renderOne({ correction, article }: ShownCorrection, budget: number): string {
  if (correction.kind === 'removed') {
    return `**Correction**: the paragraph this answer cited, ${code(correction.citation)}, has been removed from the coverage.`;
  }
  const moved =
    correction.newCitation === correction.citation ? '' : ` It is now ${code(correction.newCitation)}.`;
  return [
    `**Correction**: the paragraph this answer cited, ${code(correction.citation)}, has changed in the coverage.${moved}`,
    `> ${renderDiff(shortDiff(correction.diff), budget)}`,
    article
      ? citationLine(article, DISCORD_CITATION, { citation: correction.newCitation })
      : `Now: ${code(`/cite ${correction.newCitation}`)}`,
  ].join('\n');
}

/**
 * The diff with long unchanged stretches cut to `context` words either side of a change, for a short
 * reply: "… he had spent over ~~$18,000~~ __$16,000__ traveling from Syria …".
 */
export function shortDiff(diff: readonly DiffPart[], context = 5): DiffPart[] {
  return diff.map((part, i) => {
    if (part.op !== 'same') return part;
    const words = part.text.split(/\s+/);
    const afterChange = i > 0;
    const beforeChange = i < diff.length - 1;
    if (words.length <= (afterChange ? context : 0) + (beforeChange ? context : 0) + 1) return part;
    const head = afterChange ? words.slice(0, context) : [];
    const tail = beforeChange ? words.slice(-context) : [];
    return { op: 'same', text: [...head, '…', ...tail].join(' ') };
  });
}
