import { commands as allCommands } from '../../commands/index.ts';
import type { Community } from '../community/community.ts';
import type { Config } from '../config.ts';
import type { AnyCommand } from './command.ts';
import type { DispatchContext } from './dispatch.ts';
import type { LibraryView } from './library-view.ts';
import { createLogger, type Logger } from './logger.ts';
import { RateLimiter } from './rate-limiter.ts';
import { CommandRegistry } from './registry.ts';

/**
 * The context every transport passes to `dispatchInteraction`: the library, the config, the
 * registered commands and one rate limiter per process.
 */
export function createDispatchContext(options: {
  library: LibraryView;
  config: Config;
  /** The community database; omit to store nothing. */
  community?: Community;
  /** @default a JSON-lines logger on stderr at `config.LOG_LEVEL` */
  logger?: Logger;
  /** @default every command in `commands/index.ts` */
  commands?: readonly AnyCommand[];
  /** @default Date.now */
  now?: () => number;
  /** @default 2000 */
  deferAfterMs?: number;
}): DispatchContext {
  const now = options.now ?? Date.now;
  return {
    library: options.library,
    config: options.config,
    logger: options.logger ?? createLogger(options.config.LOG_LEVEL),
    startedAt: new Date(now()),
    now: () => new Date(now()),
    commands: new CommandRegistry(options.commands ?? allCommands),
    rateLimiter: new RateLimiter({
      limit: options.config.RATE_LIMIT_QUESTIONS,
      windowMs: options.config.RATE_LIMIT_WINDOW_SECONDS * 1000,
      now,
    }),
    ...(options.community === undefined ? {} : { community: options.community }),
    ...(options.deferAfterMs === undefined ? {} : { deferAfterMs: options.deferAfterMs }),
  };
}
