import { describe, expect, it } from 'vitest';
import { allotSlot, OVERHEAD_PASSAGES, QUERY_SHARE_OF_SLOT } from '../../../bench/lib/time-budget.ts';

const request = {
  remainingSeconds: 500,
  passages: 10_000,
  remainingPassages: 40_000,
  remainingMeasurements: 2,
  maxQuerySeconds: 100,
  minQuerySeconds: 3,
};

describe('allotSlot', () => {
  it('gives a measurement its share of the time left by passages plus overhead, part of it for queries', () => {
    const share = (500 * (10_000 + OVERHEAD_PASSAGES)) / (40_000 + 2 * OVERHEAD_PASSAGES);
    expect(allotSlot(request).querySeconds).toBeCloseTo(share * QUERY_SHARE_OF_SLOT);
    expect(allotSlot(request).measurePersistence).toBe(true);
  });

  it('gives a larger corpus more time than a smaller one', () => {
    expect(allotSlot({ ...request, passages: 30_000 }).querySeconds).toBeGreaterThan(
      allotSlot(request).querySeconds,
    );
  });

  it('never gives more query time than the configured budget', () => {
    expect(allotSlot({ ...request, remainingSeconds: 100_000 }).querySeconds).toBe(100);
  });

  it('still gives the minimum query time when the run is out of time', () => {
    expect(allotSlot({ ...request, remainingSeconds: -5 }).querySeconds).toBe(3);
  });

  it('skips saving and loading indexes in the last half minute', () => {
    expect(allotSlot({ ...request, remainingSeconds: 29 }).measurePersistence).toBe(false);
  });
});
