import { describe, expect, it } from 'vitest';
import { percentile, summarizeLatencies } from '../../../bench/lib/percentiles.ts';

describe('percentile', () => {
  it('picks an observed value by nearest rank, never interpolating', () => {
    const values = [5, 1, 4, 2, 3];
    expect(percentile(values, 50)).toBe(3);
    expect(percentile(values, 40)).toBe(2);
    expect(percentile(values, 41)).toBe(3);
    expect(percentile(values, 100)).toBe(5);
    expect(percentile(values, 0)).toBe(1);
  });

  it('puts p99 of 200 latencies on the second-slowest one', () => {
    const values = Array.from({ length: 200 }, (_, i) => i + 1);
    expect(percentile(values, 99)).toBe(198);
  });

  it('leaves the input order untouched', () => {
    const values = [3, 1, 2];
    percentile(values, 50);
    expect(values).toEqual([3, 1, 2]);
  });

  it('refuses an empty list and a percentile outside 0-100', () => {
    expect(() => percentile([], 50)).toThrow(/no values/);
    expect(() => percentile([1], 101)).toThrow(/0-100/);
    expect(() => percentile([1], Number.NaN)).toThrow(/0-100/);
  });
});

describe('summarizeLatencies', () => {
  it('reports percentiles, mean and back-to-back throughput', () => {
    const summary = summarizeLatencies([1, 2, 3, 4, 10]);
    expect(summary).toEqual({ count: 5, p50: 3, p90: 10, p99: 10, max: 10, mean: 4, perSecond: 250 });
  });
});
