import type { Server } from 'node:http';
import { bootstrap } from '../../../../src/bootstrap.ts';
import { loadConfig } from '../../../../src/config.ts';
import type { AnyCommand } from '../../../../src/interactions/command.ts';
import type { Library } from '../../../../src/library.ts';
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
        | 'maxBodyBytes'
        | 'acknowledgeAfterMs'
        | 'maxConnections'
        | 'maxConnectionsPerAddress'
        | 'unfinishedRequestMs'
        | 'maxRequestsPerConnection'
        | 'maxUnverifiedBytes'
        | 'metricsServer'
      >
    >;
  } = {},
): Promise<TestEndpoint> {
  const discord = new Signer();
  const config = loadConfig({
    DISCORD_PUBLIC_KEY: discord.publicKeyHex,
    INDEX_CACHE_DIR: '',
    // Nothing is stored unless a test gives a DATA_DIR of its own.
    DATA_DIR: '',
    ...options.env,
    CORPUS_PATH: options.corpus ?? 'corpus',
  });
  const logger = memoryLogger();
  // As `npm run start:http` starts: the shared bootstrap (the index on a worker thread), the endpoint,
  // then the lifecycle.
  const app = await bootstrap({
    config,
    logger,
    commands: options.commands,
    deferAfterMs: options.deferAfterMs,
  });
  // `logger` holds what the endpoint logs while it serves, not its start-up lines.
  logger.events.splice(0);
  const server = createInteractionServer({
    publicKey: config.DISCORD_PUBLIC_KEY ?? '',
    library: app.library,
    apiBase: config.DISCORD_API_BASE,
    ...options.server,
    context: app.ctx,
  });
  const running = await app.startLifecycle();
  const base = await listen(server);
  return {
    base,
    url: `${base}/interactions`,
    discord,
    library: app.library,
    logger,
    server,
    close: () => {
      running.stop();
      app.records.stop();
      app.library.engine.close();
      return close(server);
    },
  };
}
