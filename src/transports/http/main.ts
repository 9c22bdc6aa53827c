import { createServer, type Server } from 'node:http';
import { bootstrap, runMain } from '../../bootstrap.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { createLogger } from '../../logging/logger.ts';
import { stopOnSignals } from '../../stop-deadline.ts';
import { restChannels } from '../rest-channels.ts';
import { restPoster } from '../rest-poster.ts';
import { restThreads } from '../rest-threads.ts';
import { ReplayGuard } from './replay-guard.ts';
import { createInteractionServer } from './server.ts';

/**
 * `npm run start:http`: the HTTP interactions endpoint on HTTP_PORT, verifying requests against
 * DISCORD_PUBLIC_KEY. Stateless, so any number of replicas can sit behind one load balancer.
 */
runMain('could not start the HTTP endpoint', async () => {
  const config = loadConfig();
  if (!config.DISCORD_PUBLIC_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  DISCORD_PUBLIC_KEY: required by the HTTP endpoint (the developer portal shows it as 64 hex characters)',
    );
  }
  const logger = createLogger(config.LOG_LEVEL);
  // Answers to watched questions are posted outside any interaction: REST with the bot token.
  const app = await bootstrap({
    config,
    logger,
    ...(config.DISCORD_TOKEN
      ? {
          poster: restPoster({ apiBase: config.DISCORD_API_BASE, token: config.DISCORD_TOKEN }),
          threads: restThreads({ apiBase: config.DISCORD_API_BASE, token: config.DISCORD_TOKEN }),
          channels: restChannels({ apiBase: config.DISCORD_API_BASE, token: config.DISCORD_TOKEN }),
        }
      : {}),
  });
  // METRICS_PORT keeps /metrics off the public port: its own server, on METRICS_HOST (loopback).
  const metricsServer = config.METRICS_PORT === undefined ? undefined : createServer();
  const server = createInteractionServer({
    publicKey: config.DISCORD_PUBLIC_KEY,
    library: app.library,
    apiBase: config.DISCORD_API_BASE,
    ...(config.DISCORD_APPLICATION_ID ? { applicationId: config.DISCORD_APPLICATION_ID } : {}),
    context: app.ctx,
    // With REDIS_URL, a request replayed to another replica is refused too.
    ...(app.replicas ? { replayGuard: app.replicas.replayGuard(new ReplayGuard()) } : {}),
    health: app.health,
    maxConnectionsPerAddress: config.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
    ...(metricsServer ? { metricsServer } : {}),
  });
  // SIGHUP and WATCH_CORPUS reloads and index persistence, as under `npm start`. Each replica reloads
  // its own copy; with REDIS_URL, a reload on one is announced and every replica reloads.
  const running = await app.startLifecycle();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.HTTP_PORT, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.HTTP_PORT;
  const metricsUrl = metricsServer
    ? await listenForMetrics(metricsServer, config.METRICS_HOST, config.METRICS_PORT ?? 0)
    : `http://0.0.0.0:${port}/metrics`;
  logger.info('HTTP interactions endpoint listening', {
    url: `http://0.0.0.0:${port}/interactions`,
    metrics: metricsUrl,
    corpus: app.library.engine.version,
    articles: app.library.engine.articles().length,
  });

  stopOnSignals(logger, () => {
    running.stop();
    // Finish the requests in flight (a deferred answer's webhook call included), take no new ones,
    // then write the records still waiting for the database.
    server.close(
      () =>
        void app.records
          .stop()
          .then(() => app.replicas?.close())
          .finally(() => process.exit(0)),
    );
    server.closeIdleConnections();
    metricsServer?.close();
    metricsServer?.closeAllConnections();
  });
  // Serves until a signal stops it; no exit code here.
  return undefined;
});

/** Starts the metrics server; resolves to its `/metrics` URL. */
async function listenForMetrics(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`;
}
