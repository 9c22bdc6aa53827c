import { Redis } from 'ioredis';
import { redactedUrl } from '../config.ts';
import { type DependencyHealth, DependencyState } from '../health.ts';
import type { Logger } from '../logging/logger.ts';

/**
 * How long a command may take before the replica does without its answer, in milliseconds. Redis
 * answers a healthy replica in well under a millisecond on a local network; past this it is down or
 * drowning, and waiting would put its trouble on the member's answer.
 */
const COMMAND_TIMEOUT_MS = 250;

/**
 * The replica's connections to Redis (ioredis: one for commands, one for subscriptions), set up so
 * that Redis never holds an answer up: no offline queue (a command while disconnected fails at once),
 * a short command timeout, and reconnection forever in the background. Every outcome feeds `state`,
 * which `/healthz` reports.
 */
export class RedisLink {
  readonly commands: Redis;
  readonly subscriber: Redis;
  readonly state: DependencyState;
  readonly location: string;

  constructor(url: string, logger: Logger) {
    this.location = redactedUrl(url);
    this.state = new DependencyState({
      name: 'redis',
      kind: 'redis',
      logger,
      meanwhile:
        'answers go on; rate limits and the replay guard are this replica’s own, reloads are not announced, feeds are not polled',
    });
    const options = {
      enableOfflineQueue: false,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 2_000,
      maxRetriesPerRequest: 0,
      lazyConnect: false,
      retryStrategy: (attempt: number) => Math.min(100 * 2 ** Math.min(attempt, 5), 2_000),
    };
    this.commands = new Redis(url, { ...options, connectionName: 'newsdesk' });
    // Subscriptions are restored by ioredis after a reconnection; they need the offline queue.
    this.subscriber = new Redis(url, {
      ...options,
      enableOfflineQueue: true,
      connectionName: 'newsdesk-sub',
    });
    for (const client of [this.commands, this.subscriber]) {
      client.on('error', (error: Error) => this.state.failed(error));
    }
    this.commands.on('ready', () => this.state.succeeded());
  }

  /** Runs a command; its failure (or slowness) marks Redis degraded and rejects, its success restores it. */
  async run<T>(command: (redis: Redis) => Promise<T>): Promise<T> {
    try {
      const result = await command(this.commands);
      this.state.succeeded();
      return result;
    } catch (error) {
      this.state.failed(error);
      throw error;
    }
  }

  health(): DependencyHealth {
    return this.state.report();
  }

  async close(): Promise<void> {
    await Promise.all(
      [this.commands, this.subscriber].map((client) => client.quit().catch(() => client.disconnect())),
    );
  }
}
