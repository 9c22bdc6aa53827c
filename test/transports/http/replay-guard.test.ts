import { describe, expect, it } from 'vitest';
import { ReplayGuard } from '../../../src/transports/http/replay-guard.ts';

const now = 1_700_000_000_000;
const seconds = (ms: number): string => String(Math.floor(ms / 1000));

describe('ReplayGuard', () => {
  it('admits a fresh request once and refuses the same signature again', () => {
    const guard = new ReplayGuard();
    expect(guard.admit('aa', seconds(now), now)).toBeUndefined();
    expect(guard.admit('aa', seconds(now), now + 1000)).toBe('replayed');
    expect(guard.admit('AA', seconds(now), now + 1000)).toBe('replayed');
    expect(guard.admit('bb', seconds(now), now + 1000)).toBeUndefined();
  });

  it('refuses timestamps further than the tolerance in the past or the future', () => {
    const guard = new ReplayGuard({ toleranceSeconds: 300 });
    expect(guard.admit('a', seconds(now - 301_000), now)).toBe('stale');
    expect(guard.admit('b', seconds(now + 301_000), now)).toBe('stale');
    expect(guard.admit('c', seconds(now - 299_000), now)).toBeUndefined();
  });

  it('refuses timestamps that are not whole seconds', () => {
    const guard = new ReplayGuard();
    for (const timestamp of ['', 'abc', '1.5', '-1', `${seconds(now)} `]) {
      expect(guard.admit(`sig-${timestamp}`, timestamp, now)).toBe('stale');
    }
  });

  it('forgets a signature once its timestamp is stale, since staleness refuses it from then on', () => {
    const guard = new ReplayGuard({ toleranceSeconds: 10 });
    guard.admit('a', seconds(now), now);
    guard.admit('b', seconds(now + 20_000), now + 20_000);
    expect(guard.size).toBe(1);
    expect(guard.admit('a', seconds(now), now + 20_000)).toBe('stale');
  });

  it('never remembers more than maxEntries signatures', () => {
    const guard = new ReplayGuard({ maxEntries: 3 });
    for (const signature of ['a', 'b', 'c', 'd', 'e']) guard.admit(signature, seconds(now), now);
    expect(guard.size).toBe(3);
    expect(guard.admit('e', seconds(now), now)).toBe('replayed');
  });
});
