import { describe, expect, it } from 'vitest';
import { seededShuffle } from '../../../bench/lib/shuffle.ts';

describe('seededShuffle', () => {
  const items = Array.from({ length: 50 }, (_, i) => i);

  it('gives the same order for the same seed', () => {
    expect(seededShuffle(items, 6)).toEqual(seededShuffle(items, 6));
  });

  it('keeps every item exactly once and leaves the input alone', () => {
    const shuffled = seededShuffle(items, 6);
    expect([...shuffled].sort((a, b) => a - b)).toEqual(items);
    expect(shuffled).not.toEqual(items);
    expect(items[0]).toBe(0);
  });

  it('orders differently under another seed', () => {
    expect(seededShuffle(items, 7)).not.toEqual(seededShuffle(items, 6));
  });
});
