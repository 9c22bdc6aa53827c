import { tokenize } from './analyze.ts';

/**
 * How close together the matched terms stand in a passage, from 0 (one term, or far apart) to 1 (all
 * adjacent): the distinct terms found, less one, over the width of the narrowest window holding them all.
 */
export function proximity(text: string, matched: ReadonlySet<string>): number {
  if (matched.size < 2) return 0;
  const tokens = tokenize(text).filter((token) => matched.has(token.term));
  const distinct = new Set(tokens.map((token) => token.term)).size;
  if (distinct < 2) return 0;
  // Narrowest window holding every distinct matched term: two pointers over the matched tokens.
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
  return (distinct - 1) / Math.max(best, distinct - 1);
}
