import type { OutletValue } from '../factcheck/outlets-differ.ts';

/**
 * "18,000 (The Telegraph, The Guardian) · 20,000 (BBC)": outlets giving the same value together, each
 * followed by its citation as `cite` writes it (Discord's inline code, the terminal's brackets).
 */
export function formatValues(values: readonly OutletValue[], cite?: (citation: string) => string): string {
  const byValue = new Map<string, OutletValue[]>();
  for (const value of values) byValue.set(value.value, [...(byValue.get(value.value) ?? []), value]);
  return [...byValue]
    .map(
      ([value, outlets]) =>
        `${value} (${outlets.map((o) => (cite ? `${o.outlet} ${cite(o.citation)}` : o.outlet)).join(', ')})`,
    )
    .join(' · ');
}
