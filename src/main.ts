import { startCommunity } from './community/start-community.ts';
import { ConfigError, loadConfig } from './config.ts';
import { CorpusError } from './corpus/load-corpus.ts';
import { createDispatchContext } from './interactions/context.ts';
import { createLogger } from './interactions/logger.ts';
import { openLibrary, startLifecycle } from './lifecycle/start-lifecycle.ts';
import { runConsole } from './transports/console/console.ts';
import { consolePoster } from './transports/console/console-poster.ts';
import { startGatewayBot } from './transports/gateway/gateway-bot.ts';
import { restPoster } from './transports/rest-poster.ts';

/**
 * `npm start`: with DISCORD_TOKEN, the bot on Discord's gateway; without it, the local console on
 * the bundled corpus. A bad setting or an invalid corpus stops start-up with a message saying what to fix.
 */
async function main(): Promise<number> {
  const config = loadConfig();
  const interactive = !config.DISCORD_TOKEN;
  // At the console, info lines would interleave with answers; only warnings and errors go to stderr.
  const logger = createLogger(interactive && config.LOG_LEVEL !== 'debug' ? 'warn' : config.LOG_LEVEL);
  // Restores the index from INDEX_CACHE_DIR when it matches the corpus; refuses an invalid corpus.
  const library = await openLibrary({ config, logger });
  // Votes, questions without coverage and watched questions (DATA_DIR); answers go on without it.
  const records = startCommunity({
    config,
    logger,
    poster: config.DISCORD_TOKEN
      ? restPoster({ apiBase: config.DISCORD_API_BASE, token: config.DISCORD_TOKEN })
      : consolePoster(process.stdout),
    onReloaded: (listener) => library.lifecycle?.onReloaded(listener) ?? (() => undefined),
  });
  const ctx = createDispatchContext({
    library,
    config,
    logger,
    ...(records.community ? { community: records.community } : {}),
  });

  if (!config.DISCORD_TOKEN) {
    const lifecycle = await startLifecycle({ library, config, logger });
    await runConsole({ ctx, input: process.stdin, output: process.stdout });
    lifecycle.stop();
    records.stop();
    return 0;
  }

  process.on('unhandledRejection', (error) => logger.error('unhandled rejection', { error }));
  const bot = await startGatewayBot({ token: config.DISCORD_TOKEN, apiBase: config.DISCORD_API_BASE, ctx });
  // SIGHUP and WATCH_CORPUS reloads, index persistence, the audit channel, and (under the
  // ShardingManager, which runs this file per shard) corpus changes reaching every shard.
  const lifecycle = await startLifecycle({ library, config, logger, client: bot.client });
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      logger.info('shutting down', { signal });
      lifecycle.stop();
      void bot.stop().then(() => {
        records.stop();
        resolve();
      });
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof CorpusError) {
      process.stderr.write(`newsdesk: ${error.message}\n`);
    } else {
      process.stderr.write(
        `newsdesk: could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    }
    process.exit(1);
  },
);
