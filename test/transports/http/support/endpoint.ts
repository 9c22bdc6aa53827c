import type { Server } from 'node:http';
import { commands } from '../../../../commands/index.ts';
import { loadConfig } from '../../../../src/config.ts';
import type { AnyCommand } from '../../../../src/interactions/command.ts';
import { createDispatchContext } from '../../../../src/interactions/context.ts';
import type { Library } from '../../../../src/library.ts';
import { openLibrary } from '../../../../src/lifecycle/start-lifecycle.ts';
import { memoryLogger } from '../../../../src/logging/logger.ts';
import {
  createInteractionServer,
  type InteractionServerOptions,
} from '../../../../src/transports/http/server.ts';
import { close, listen } from './http-client.ts';
import { Signer } from './signer.ts';

export interface TestEndpoint {
  /** `http://127.0.0.1:<port>`. */
  base: string;
  /** `${base}/interactions`. */
  url: string;
  /** Stands in for Discord: its public key is the one the endpoint verifies against. */
  discord: Signer;
  library: Library;
  logger: ReturnType<typeof memoryLogger>;
  server: Server;
  close(): Promise<void>;
}

/**
 * The real endpoint on loopback, serving the bundled corpus with the bot's commands (or `commands`)
 * and a key pair made for the test. `env` overrides settings, read through the real config schema.
 */
export async function startEndpoint(
  options: {
    commands?: readonly AnyCommand[];
    env?: Record<string, string>;
    /** @default the bundled corpus */
    corpus?: string;
    /** The dispatcher's own deferral (see `DispatchContext.deferAfterMs`). @default 2000 */
    deferAfterMs?: number;
    server?: Partial<
      Pick<
        InteractionServerOptions,
        'maxBodyBytes' | 'acknowledgeAfterMs' | 'maxConnections' | 'maxUnverifiedBytes'
      >
    >;
  } = {},
): Promise<TestEndpoint> {
  const discord = new Signer();
  const config = loadConfig({
    DISCORD_PUBLIC_KEY: discord.publicKeyHex,
    INDEX_CACHE_DIR: '',
    ...options.env,
  });
  const logger = memoryLogger();
  // As `npm run start:http` opens it: the index on a worker thread unless `env` says INDEX_THREAD=main.
  // Its start-up line goes elsewhere: `logger` holds what the endpoint logs.
  const { library, lifecycle } = await openLibrary({
    config: { ...config, CORPUS_PATH: options.corpus ?? 'corpus' },
    logger: memoryLogger(),
  });
  const server = createInteractionServer({
    publicKey: config.DISCORD_PUBLIC_KEY ?? '',
    library,
    apiBase: config.DISCORD_API_BASE,
    ...options.server,
    context: createDispatchContext({
      library,
      corpus: lifecycle,
      config,
      logger,
      commands: options.commands ?? commands,
      ...(options.deferAfterMs === undefined ? {} : { deferAfterMs: options.deferAfterMs }),
    }),
  });
  const base = await listen(server);
  return {
    base,
    url: `${base}/interactions`,
    discord,
    library,
    logger,
    server,
    close: () => {
      library.engine.close();
      return close(server);
    },
  };
}
