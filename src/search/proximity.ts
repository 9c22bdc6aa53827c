import type { Token } from './analyze.ts';

/** Words in the window that `densestWindow` slides over a passage: about one sentence. */
const WINDOW_WORDS = 20;

export interface TermLayout {
  /**
   * How close together the matched terms stand, from 0 (one term, or far apart) to 1 (all adjacent): the
   * distinct terms found, less one, over the width of the narrowest window holding them all.
   */
  proximity: number;
  /** The most question-term weight any window of about a sentence holds, over the question's total. */
  densestWindow: number;
}

/**
 * Where in a passage, given as its tokens, the matched terms stand. `weights` maps each matched indexed
 * term to its weight. `withProximity` false leaves `proximity` 0 (a model that weighs it 0).
 */
export function termLayout(
  passage: readonly Token[],
  weights: ReadonlyMap<string, number>,
  totalWeight: number,
  withProximity = true,
): TermLayout {
  const tokens = passage.filter((token) => weights.has(token.term));
  const distinct = new Set(tokens.map((token) => token.term)).size;
  return {
    proximity:
      !withProximity || distinct < 2
        ? 0
        : (distinct - 1) / Math.max(narrowestCover(tokens, distinct), distinct - 1),
    densestWindow: totalWeight > 0 ? densest(tokens, weights) / totalWeight : 0,
  };
}

type Positioned = { term: string; position: number };

function narrowestCover(tokens: readonly Positioned[], distinct: number): number {
  const counts = new Map<string, number>();
  let inWindow = 0;
  let best = Number.POSITIVE_INFINITY;
  let left = 0;
  for (const token of tokens) {
    const count = counts.get(token.term) ?? 0;
    if (count === 0) inWindow++;
    counts.set(token.term, count + 1);
    while (inWindow === distinct) {
      const first = tokens[left]!;
      best = Math.min(best, token.position - first.position);
      const leftCount = counts.get(first.term)! - 1;
      counts.set(first.term, leftCount);
      if (leftCount === 0) inWindow--;
      left++;
    }
  }
  return best;
}

function densest(tokens: readonly Positioned[], weights: ReadonlyMap<string, number>): number {
  const counts = new Map<string, number>();
  let sum = 0;
  let best = 0;
  let left = 0;
  for (const token of tokens) {
    const count = counts.get(token.term) ?? 0;
    if (count === 0) sum += weights.get(token.term) ?? 0;
    counts.set(token.term, count + 1);
    while (token.position - tokens[left]!.position >= WINDOW_WORDS) {
      const first = tokens[left]!;
      const leftCount = counts.get(first.term)! - 1;
      counts.set(first.term, leftCount);
      if (leftCount === 0) sum -= weights.get(first.term) ?? 0;
      left++;
    }
    best = Math.max(best, sum);
  }
  return best;
}
