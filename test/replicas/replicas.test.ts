// @module-tag several-hosts (starts real PostgreSQL and Redis servers: skipped where they are not installed, run in CI)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/interactions/rate-limiter.ts';
import { memoryLogger } from '../../src/logging/logger.ts';
import { Lease } from '../../src/replicas/lease.ts';
import { RedisLink } from '../../src/replicas/redis-link.ts';
import { SharedRateLimiter } from '../../src/replicas/shared-rate-limiter.ts';
import { SharedReplayGuard } from '../../src/replicas/shared-replay-guard.ts';
import { ReplayGuard } from '../../src/transports/http/replay-guard.ts';
import { serversInstalled, startRedis, type TestServer } from '../support/servers.ts';

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.skipIf(!serversInstalled())('GIVEN two replicas sharing a real Redis server', () => {
  let redis: TestServer;
  const links: RedisLink[] = [];
  const link = async () => {
    const next = new RedisLink(redis.url, memoryLogger());
    links.push(next);
    await until(() => next.commands.status === 'ready');
    return next;
  };
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const each of links) await each.close();
    await redis?.remove();
  });

  it('a member’s burst is limited across both as by one; with Redis down each counts alone, and Redis takes over again', async () => {
    const [a, b] = [await link(), await link()];
    const local = () => new RateLimiter({ limit: 3, windowMs: 60_000 });
    const limiters = [new SharedRateLimiter(a, local()), new SharedRateLimiter(b, local())];
    const waits: number[] = [];
    for (let i = 0; i < 6; i += 1) waits.push(await (limiters[i % 2] as SharedRateLimiter).take('ann'));
    expect(waits.slice(0, 3)).toEqual([0, 0, 0]);
    expect(waits.slice(3).every((wait) => wait > 50_000 && wait <= 60_000)).toBe(true);
    // Another member has a budget of their own.
    expect(await limiters[1]?.take('bob')).toBe(0);

    await redis.stop();
    const down = [];
    for (let i = 0; i < 4; i += 1) down.push(await (limiters[0] as SharedRateLimiter).take('carol'));
    // This replica's own limit, as on one host: three, then a wait.
    expect(down.slice(0, 3)).toEqual([0, 0, 0]);
    expect(down[3]).toBeGreaterThan(0);
    expect(a.health()).toMatchObject({ name: 'redis', status: 'degraded' });

    await redis.start();
    await until(() => a.commands.status === 'ready' && b.commands.status === 'ready', 15_000);
    expect(await limiters[0]?.take('dave')).toBe(0);
    expect(a.health().status).toBe('ok');
  }, 60_000);

  it('a request admitted by one replica is refused as a replay by the other', async () => {
    const [a, b] = [await link(), await link()];
    const guards = [new SharedReplayGuard(a, new ReplayGuard()), new SharedReplayGuard(b, new ReplayGuard())];
    const now = Date.now();
    const timestamp = String(Math.floor(now / 1000));
    const signature = 'ab'.repeat(64);
    expect(await guards[0]?.admit(signature, timestamp, now)).toBeUndefined();
    expect(await guards[1]?.admit(signature.toUpperCase(), timestamp, now)).toBe('replayed');
    expect(await guards[0]?.admit(signature, timestamp, now)).toBe('replayed');
    expect(await guards[1]?.admit('cd'.repeat(64), timestamp, now)).toBeUndefined();
    expect(await guards[1]?.admit('ef'.repeat(64), String(Math.floor(now / 1000) - 600), now)).toBe('stale');
    // Remembered only while fresh.
    expect(await a.commands.pttl(`newsdesk:seen:${signature}`)).toBeLessThanOrEqual(300_000);
  });

  it('one holds the lease at a time; when its holder loses Redis, the other takes over after the lease lapses, never both', async () => {
    const [a, b] = [await link(), await link()];
    const running = new Set<string>();
    let overlaps = 0;
    const lease = (name: string, on: RedisLink) =>
      new Lease({
        redis: on,
        name: 'test-feeds',
        logger: memoryLogger(),
        ttlMs: 900,
        start: () => {
          running.add(name);
          if (running.size > 1) overlaps += 1;
        },
        stop: () => running.delete(name),
      });
    const first = lease('a', a);
    await until(() => first.held);
    const second = lease('b', b);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect([first.held, second.held]).toEqual([true, false]);
    // The holder dies as far as Redis can tell: its connection is cut and stays cut.
    a.commands.disconnect();
    await until(() => second.held, 10_000);
    expect(first.held).toBe(false);
    expect(overlaps).toBe(0);
    expect([...running]).toEqual(['b']);
    await second.close();
    await first.close();
    expect(await b.commands.get('newsdesk:lease:test-feeds')).toBeNull();
  }, 30_000);
});
