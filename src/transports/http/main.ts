import { startCommunity } from '../../community/start-community.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { CorpusError } from '../../corpus/load-corpus.ts';
import { createDispatchContext } from '../../interactions/context.ts';
import { createLogger } from '../../interactions/logger.ts';
import { openLibrary, startLifecycle } from '../../lifecycle/start-lifecycle.ts';
import { restPoster } from '../rest-poster.ts';
import { createInteractionServer } from './server.ts';

/**
 * `npm run start:http`: the HTTP interactions endpoint on HTTP_PORT, verifying requests against
 * DISCORD_PUBLIC_KEY. Stateless, so any number of replicas can sit behind one load balancer.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.DISCORD_PUBLIC_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  DISCORD_PUBLIC_KEY: required by the HTTP endpoint (the developer portal shows it as 64 hex characters)',
    );
  }
  const logger = createLogger(config.LOG_LEVEL);
  // Restores the index from INDEX_CACHE_DIR when it matches the corpus; refuses an invalid corpus.
  const library = await openLibrary({ config, logger });
  // Answers to watched questions are posted outside any interaction: REST with the bot token.
  const records = startCommunity({
    config,
    logger,
    ...(config.DISCORD_TOKEN
      ? { poster: restPoster({ apiBase: config.DISCORD_API_BASE, token: config.DISCORD_TOKEN }) }
      : {}),
    onReloaded: (listener) => library.lifecycle?.onReloaded(listener) ?? (() => undefined),
  });
  const server = createInteractionServer({
    publicKey: config.DISCORD_PUBLIC_KEY,
    library,
    apiBase: config.DISCORD_API_BASE,
    ...(config.DISCORD_APPLICATION_ID ? { applicationId: config.DISCORD_APPLICATION_ID } : {}),
    context: createDispatchContext({
      library,
      config,
      logger,
      ...(records.community ? { community: records.community } : {}),
    }),
  });
  process.on('unhandledRejection', (error) => logger.error('unhandled rejection', { error }));
  // SIGHUP and WATCH_CORPUS reloads and index persistence, as under `npm start`. Each replica reloads
  // its own copy: signal every replica, or let each watch the shared corpus folder.
  const lifecycle = await startLifecycle({ library, config, logger });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.HTTP_PORT, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.HTTP_PORT;
  logger.info('HTTP interactions endpoint listening', {
    url: `http://0.0.0.0:${port}/interactions`,
    corpus: library.engine.version,
    articles: library.engine.articles().length,
  });

  const stop = (signal: NodeJS.Signals): void => {
    logger.info('shutting down', { signal });
    lifecycle.stop();
    records.stop();
    // Finish the requests in flight (a deferred answer's webhook call included), take no new ones.
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof CorpusError) {
    process.stderr.write(`newsdesk: ${error.message}\n`);
  } else {
    process.stderr.write(
      `newsdesk: could not start the HTTP endpoint: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
