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

// A changed word costs less than adding one and dropping another, so "18,000" against "20,000" reads
// as a change; a function word matters half as much as a content word.
const gapCost = (word: Word) => (word.kind === 'function' ? 0.5 : 1);

function changeCost(a: Word, b: Word): number {
  if (a.norm === b.norm) return 0;
  if (a.stem === b.stem && a.kind !== 'number' && a.kind !== 'negation') return 0.25;
  if (a.kind === 'function' && b.kind === 'function') return 0.6;
  return 0.5 * (gapCost(a) + gapCost(b)) + 0.4;
}

const DIAGONAL = 1;
const UP = 2; // a quote word added
const LEFT = 3; // a passage word dropped

/** Aligns every word of `quote` with the stretch of `passage` that fits it best. */
export function align(quote: readonly Word[], passage: readonly Word[]): Alignment {
  const n = quote.length;
  const m = passage.length;
  const width = m + 1;
  const cost = new Float64Array((n + 1) * width);
  const move = new Uint8Array((n + 1) * width);
  for (let i = 1; i <= n; i++) {
    const q = quote[i - 1]!;
    cost[i * width] = cost[(i - 1) * width]! + gapCost(q);
    move[i * width] = UP;
    for (let j = 1; j <= m; j++) {
      const p = passage[j - 1]!;
      let best = cost[(i - 1) * width + j - 1]! + changeCost(q, p);
      let from = DIAGONAL;
      const up = cost[(i - 1) * width + j]! + gapCost(q);
      if (up < best) {
        best = up;
        from = UP;
      }
      const left = cost[i * width + j - 1]! + gapCost(p);
      if (left < best) {
        best = left;
        from = LEFT;
      }
      cost[i * width + j] = best;
      move[i * width + j] = from;
    }
  }
  let end = 0;
  for (let j = 1; j <= m; j++) if (cost[n * width + j]! < cost[n * width + end]!) end = j;
  const ops: AlignOp[] = [];
  let i = n;
  let j = end;
  while (i > 0) {
    const from = move[i * width + j];
    if (from === DIAGONAL) {
      const q = quote[i - 1]!;
      const p = passage[j - 1]!;
      const op = q.norm === p.norm ? 'same' : changeCost(q, p) <= 0.25 ? 'form' : 'changed';
      ops.push({ op, quote: q, passage: p });
      i--;
      j--;
    } else if (from === LEFT) {
      ops.push({ op: 'dropped', passage: passage[j - 1]! });
      j--;
    } else {
      ops.push({ op: 'added', quote: quote[i - 1]! });
      i--;
    }
  }
  ops.reverse();
  // Dropped words before the first aligned one are outside the quoted stretch.
  while (ops[0]?.op === 'dropped') ops.shift();
  return { cost: cost[n * width + end]!, ops };
}
