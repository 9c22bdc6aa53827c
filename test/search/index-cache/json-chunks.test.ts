import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyYielding, writeJsonYielding } from '../../../src/search/index-cache/json-chunks.ts';

describe('stringifyYielding', () => {
  it('produces exactly what JSON.stringify produces, for any JSON value', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        expect(await stringifyYielding(value)).toBe(JSON.stringify(value));
      }),
    );
  });

  it('walks large containers piece by piece and hands the output over in chunks', async () => {
    const big = { index: Array.from({ length: 60_000 }, (_, i) => [`term${i}`, { 0: { [i]: 1 } }]) };
    const chunks: string[] = [];
    await writeJsonYielding(big, async (chunk) => void chunks.push(chunk));
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(JSON.stringify(big));
  });
});
