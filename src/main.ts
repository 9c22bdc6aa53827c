import { bootstrap, runMain } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import { createLogger } from './logging/logger.ts';
import { enforceStopDeadline } from './stop-deadline.ts';
import { runConsole } from './transports/console/console.ts';
import { startGatewayBot } from './transports/gateway/gateway-bot.ts';

/**
 * `npm start`: with DISCORD_TOKEN, the bot on Discord's gateway; without it, the local console on
 * the bundled corpus. A bad setting or an invalid corpus stops start-up with a message saying what to fix.
 */
runMain('could not start', async () => {
  const config = loadConfig();
  const interactive = !config.DISCORD_TOKEN;
  // At the console, info lines would interleave with answers; only warnings and errors go to stderr.
  const logger = createLogger(interactive && config.LOG_LEVEL !== 'debug' ? 'warn' : config.LOG_LEVEL);
  const app = await bootstrap({ config, logger });

  if (!config.DISCORD_TOKEN) {
    const running = await app.startLifecycle();
    await runConsole({ ctx: app.ctx, input: process.stdin, output: process.stdout });
    running.stop();
    return 0;
  }

  const bot = await startGatewayBot({
    token: config.DISCORD_TOKEN,
    apiBase: config.DISCORD_API_BASE,
    ctx: app.ctx,
  });
  // The ShardingManager runs this file per shard: the client tells the lifecycle it is one.
  const running = await app.startLifecycle(bot.client);
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      logger.info('shutting down', { signal });
      enforceStopDeadline(signal, logger);
      running.stop();
      void bot.stop().then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
});
