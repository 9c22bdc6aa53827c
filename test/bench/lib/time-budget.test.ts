import { describe, expect, it } from 'vitest';
import { allotSlot, QUERY_SHARE_OF_SLOT } from '../../../bench/lib/time-budget.ts';

const request = {
  remainingSeconds: 500,
  passages: 100,
  remainingPassages: 1000,
  maxQuerySeconds: 20,
  minQuerySeconds: 3,
};

describe('allotSlot', () => {
  it('gives a measurement its passages’ share of the time left, part of it for queries', () => {
    expect(allotSlot(request)).toEqual({ querySeconds: 50 * QUERY_SHARE_OF_SLOT, measurePersistence: true });
  });

  it('never gives more query time than the configured budget', () => {
    expect(allotSlot({ ...request, remainingSeconds: 10_000 }).querySeconds).toBe(20);
  });

  it('still gives the minimum query time when the run is out of time', () => {
    expect(allotSlot({ ...request, remainingSeconds: -5 }).querySeconds).toBe(3);
  });

  it('skips saving and loading indexes in the last half minute', () => {
    expect(allotSlot({ ...request, remainingSeconds: 29 }).measurePersistence).toBe(false);
  });
});
