import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/interactions/rate-limiter.ts';

describe('RateLimiter', () => {
  it('allows the limit within a window, then says how long to wait, then allows again as old questions expire', () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 2, windowMs: 10_000, now: () => now });
    expect(limiter.take('a')).toBe(0);
    now = 4000;
    expect(limiter.take('a')).toBe(0);
    now = 5000;
    expect(limiter.take('a')).toBe(5000);
    expect(limiter.take('b')).toBe(0);
    now = 10_000;
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(4000);
  });

  it('keeps memory bounded by forgetting users who stopped asking', () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000, now: () => now });
    for (let user = 0; user < 10_001; user += 1) limiter.take(`user-${user}`);
    expect(limiter.trackedUsers).toBe(10_001);
    now = 5000;
    limiter.take('late');
    expect(limiter.trackedUsers).toBe(1);
  });
});
