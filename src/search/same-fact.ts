import { analyze } from './analyze.ts';

/** Weighted share of the smaller quote's terms that the other quote also has. */
const SAME_FACT_OVERLAP = 0.6;
/** Below this many shared terms two quotes are too short to call the same report. */
const SAME_FACT_MIN_SHARED = 4;

/** The terms of a quote, for comparing reports. */
export function termSet(text: string): Set<string> {
  return new Set(analyze(text));
}

/**
 * Whether two quotes report the same fact: most of the rarer words of the shorter one appear in the
 * other (wire copy and quoted statements reused by several outlets). `weight` gives a term's rarity.
 */
export function sameFact(
  a: ReadonlySet<string>,
  b: ReadonlySet<string>,
  weight: (term: string) => number,
): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  let sharedWeight = 0;
  let smallWeight = 0;
  for (const term of small) {
    const w = weight(term);
    smallWeight += w;
    if (large.has(term)) {
      shared++;
      sharedWeight += w;
    }
  }
  return shared >= SAME_FACT_MIN_SHARED && sharedWeight >= SAME_FACT_OVERLAP * smallWeight;
}
