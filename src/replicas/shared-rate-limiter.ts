import type { QuestionLimiter, RateLimiter } from '../interactions/rate-limiter.ts';
import type { RedisLink } from './redis-link.ts';

/**
 * The sliding window of `RateLimiter`, kept in Redis so every replica counts the same member's
 * questions together: one sorted set per member of the times of their questions in the window, read,
 * trimmed and added to in one script (atomic, on Redis's clock, so replicas' clocks do not matter).
 * Returns 0 when the question is allowed, else the milliseconds until the oldest leaves the window.
 */
const TAKE = `
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + window - ms)
end
redis.call('ZADD', KEYS[1], ms, ms .. ':' .. ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return 0
`;

/**
 * Per-member rate limits across replicas (REDIS_URL): a member spread over N replicas gets the limit
 * once, not N times. While Redis is down or slow (250 ms), each replica counts on its own again with
 * `fallback`, as on one host; Redis takes over again once it answers.
 */
export class SharedRateLimiter implements QuestionLimiter {
  readonly #redis: RedisLink;
  readonly #fallback: RateLimiter;
  #serial = 0;

  constructor(redis: RedisLink, fallback: RateLimiter) {
    this.#redis = redis;
    this.#fallback = fallback;
  }

  async take(key: string): Promise<number> {
    this.#serial += 1;
    try {
      const wait = await this.#redis.run((redis) =>
        redis.eval(
          TAKE,
          1,
          `newsdesk:rate:${key}`,
          this.#fallback.limit,
          this.#fallback.windowMs,
          `${process.pid}:${this.#serial}:${Math.random().toString(36).slice(2, 8)}`,
        ),
      );
      return Number(wait);
    } catch {
      return this.#fallback.take(key);
    }
  }
}
