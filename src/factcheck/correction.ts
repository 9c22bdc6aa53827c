/**
 * What a reload did to a cited paragraph: unchanged, changed (with a word diff and where it now is), or
 * removed from the coverage. Compares the paragraph as the answer quoted it with the engine now
 * serving; a paragraph that moved within its article (one inserted above it) is found again by word
 * alignment.
 */

import type { Article } from '../corpus/article.ts';
import type { Located } from '../search/corpus-lookup.ts';
import { align } from './align.ts';
import { type DiffPart, diffOf } from './check-quote.ts';
import { verdictOf } from './verdict.ts';
import { wordsOf } from './words.ts';

export type Correction =
  | { kind: 'changed'; citation: string; newCitation: string; diff: DiffPart[] }
  | { kind: 'removed'; citation: string };

/** The engine's lookups the comparison needs. */
export interface CitationSource {
  passage(citation: string): Located | undefined;
  article(id: string): Article | undefined;
}

/** A paragraph as an answer cited it: its citation, its article and its words then. */
export interface Cited {
  citation: string;
  articleId: string;
  text: string;
}

/** What became of the paragraph `cited` in the coverage `after`; `null` when its words are unchanged. */
export function correctionOf(cited: Cited, after: CitationSource): Correction | null {
  const { citation } = cited;
  const same = after.passage(citation);
  if (same && same.passage.text === cited.text) return null;
  const article = after.article(cited.articleId);
  if (!article) return { kind: 'removed', citation };
  const oldWords = wordsOf(cited.text);
  // The paragraph itself, changed in place or moved: the passage of the new article that carries most of its words.
  let best: { id: string; text: string; cost: number; ops: ReturnType<typeof align>['ops'] } | undefined;
  for (const passage of article.passages) {
    const { cost, ops } = align(oldWords, wordsOf(passage.text));
    if (!best || cost < best.cost) best = { id: passage.id, text: passage.text, cost, ops };
  }
  if (!best || verdictOf(oldWords, best.ops) === 'not-found') return { kind: 'removed', citation };
  // diffOf reads the first text as the member's version; here it is the old paragraph, so the marks swap.
  const diff: DiffPart[] = diffOf(best.ops, cited.text, best.text).map((part) =>
    part.op === 'same' ? part : { op: part.op === 'added' ? 'dropped' : 'added', text: part.text },
  );
  for (let i = 1; i < diff.length; i++) {
    // "this was replaced by that": the old words first.
    if (diff[i - 1]!.op === 'added' && diff[i]!.op === 'dropped')
      [diff[i - 1], diff[i]] = [diff[i]!, diff[i - 1]!];
  }
  // The alignment leaves the new paragraph's words before and after the old one's out; they were added.
  const aligned = best.ops.flatMap((op) => (op.op === 'added' ? [] : [op.passage]));
  const leading = best.text.slice(0, aligned[0]?.start ?? 0).trim();
  const trailing = best.text
    .slice(aligned.at(-1)?.end ?? best.text.length)
    .replace(/^\S*/, '')
    .trim();
  if (leading) diff.unshift({ op: 'added', text: leading });
  if (trailing) diff.push({ op: 'added', text: trailing });
  if (diff.every((part) => part.op === 'same') && best.id === citation) return null;
  return { kind: 'changed', citation, newCitation: best.id, diff };
}
