/**
 * Word alignment of a member's version against a passage: which words are the same, which differ in
 * form only, which were changed, added or dropped. Semi-global: the whole quote is aligned, and the
 * passage words before and after the stretch it covers cost nothing (quoting part of a paragraph is
 * quoting it).
 */
import type { Word } from './words.ts';

export type AlignOp =
  /** The same word (case, accents and punctuation aside). */
  | { op: 'same'; quote: Word; passage: Word }
  /** The same word in another form ("says" / "said"). */
  | { op: 'form'; quote: Word; passage: Word }
  /** One word in place of another. */
  | { op: 'changed'; quote: Word; passage: Word }
  /** A word only the member's version has. */
  | { op: 'added'; quote: Word }
  /** A word of the passage the member's version leaves out. */
  | { op: 'dropped'; passage: Word };

export interface Alignment {
  /** Lower is closer; comparable between passages aligned with the same quote. */
  cost: number;
  ops: AlignOp[];
}

// A changed word costs a little less than adding it, so "18,000" against "20,000" reads as a change even
// at the edge of the quoted stretch, where adding would cost nothing on the passage's side; a function
// word matters half as much as a content word.
const gapCost = (word: Word) => (word.kind === 'function' ? 0.5 : 1);
// Leaving out a run of the passage costs most to begin and little per word (an affine gap): a quote
// that skips a clause is the passage with a clause dropped, not the passage's first half plus words
// of its own. Scattered single matches never pay for the gaps between them.
const DROP_OPEN = 1.5;
const dropCost = (word: Word) => (word.kind === 'function' ? 0.1 : 0.2);

function changeCost(a: Word, b: Word): number {
  if (a.norm === b.norm) return 0;
  if (a.stem === b.stem && a.kind !== 'number' && a.kind !== 'negation') return 0.25;
  return 0.45 * (gapCost(a) + gapCost(b));
}

const DIAGONAL = 1;
const UP = 2; // a quote word added
const DROPPING = 3; // in a run of dropped passage words
const OPEN = 1; // (in a run) its first word
const EXTEND = 2; // (in a run) a later word

/** Aligns every word of `quote` with the stretch of `passage` that fits it best. */
export function align(quote: readonly Word[], passage: readonly Word[]): Alignment {
  const n = quote.length;
  const m = passage.length;
  const width = m + 1;
  // best: the cheapest alignment of quote[0, i) ending at passage word j; dropping: the cheapest that
  // ends with passage word j dropped. Before the first quote word, passage words are free.
  const best = new Float64Array((n + 1) * width);
  const dropping = new Float64Array((n + 1) * width).fill(Number.POSITIVE_INFINITY);
  const move = new Uint8Array((n + 1) * width);
  const dropMove = new Uint8Array((n + 1) * width);
  for (let i = 1; i <= n; i++) {
    const q = quote[i - 1]!;
    const row = i * width;
    const above = (i - 1) * width;
    best[row] = best[above]! + gapCost(q);
    move[row] = UP;
    for (let j = 1; j <= m; j++) {
      const p = passage[j - 1]!;
      const open = best[row + j - 1]! + DROP_OPEN + dropCost(p);
      const extend = dropping[row + j - 1]! + dropCost(p);
      dropping[row + j] = Math.min(open, extend);
      dropMove[row + j] = extend < open ? EXTEND : OPEN;
      let cost = best[above + j - 1]! + changeCost(q, p);
      let from = DIAGONAL;
      const up = best[above + j]! + gapCost(q);
      if (up < cost) {
        cost = up;
        from = UP;
      }
      if (dropping[row + j]! < cost) {
        cost = dropping[row + j]!;
        from = DROPPING;
      }
      best[row + j] = cost;
      move[row + j] = from;
    }
  }
  let end = 0;
  for (let j = 1; j <= m; j++) if (best[n * width + j]! < best[n * width + end]!) end = j;
  const ops: AlignOp[] = [];
  let i = n;
  let j = end;
  let inRun = false;
  while (i > 0) {
    if (inRun || move[i * width + j] === DROPPING) {
      ops.push({ op: 'dropped', passage: passage[j - 1]! });
      inRun = dropMove[i * width + j] === EXTEND;
      j--;
    } else if (move[i * width + j] === DIAGONAL) {
      const q = quote[i - 1]!;
      const p = passage[j - 1]!;
      const op = q.norm === p.norm ? 'same' : changeCost(q, p) <= 0.25 ? 'form' : 'changed';
      ops.push({ op, quote: q, passage: p });
      i--;
      j--;
    } else {
      ops.push({ op: 'added', quote: quote[i - 1]! });
      i--;
    }
  }
  ops.reverse();
  // Dropped words before the first aligned one are outside the quoted stretch.
  while (ops[0]?.op === 'dropped') ops.shift();
  return { cost: best[n * width + end]!, ops };
}
