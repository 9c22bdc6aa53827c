import { bootstrap, runMain } from './bootstrap.ts';
import { startProgress } from './cli/start-progress.ts';
import { loadConfig } from './config.ts';
import { createLogger } from './logging/logger.ts';
import { stopOnSignals } from './stop-deadline.ts';
import { runConsole } from './transports/console/console.ts';
import { consolePoster } from './transports/console/console-poster.ts';
import { startGatewayBot } from './transports/gateway/gateway-bot.ts';
import { restChannels } from './transports/rest-channels.ts';
import { restPoster } from './transports/rest-poster.ts';
import { restThreads } from './transports/rest-threads.ts';

/**
 * `npm start`: with DISCORD_TOKEN, the bot on Discord's gateway; without it, the local console on
 * the bundled corpus. A bad setting or an invalid corpus stops start-up with a message saying what to fix.
 */
runMain('could not start', async () => {
  const config = loadConfig();
  const interactive = !config.DISCORD_TOKEN;
  // At the console, info lines would interleave with answers; only warnings and errors go to stderr.
  const logger = createLogger(interactive && config.LOG_LEVEL !== 'debug' ? 'warn' : config.LOG_LEVEL);
  // At the console, where the log line is hidden, reading and indexing show as they go on stderr; its
  // one user, the operator, has no rate limit.
  const progress = interactive ? startProgress({ label: 'newsdesk' }) : undefined;
  const app = await bootstrap({
    config,
    logger,
    progress,
    rateLimited: !interactive,
    // At the console, the log line of a reload by SIGHUP is hidden: one plain line says how it went.
    ...(interactive ? { announce: (line: string) => process.stderr.write(`newsdesk: ${line}\n`) } : {}),
    poster: config.DISCORD_TOKEN
      ? restPoster({ apiBase: config.DISCORD_API_BASE, token: config.DISCORD_TOKEN })
      : consolePoster(process.stdout),
    ...(config.DISCORD_TOKEN
      ? {
          threads: restThreads({ apiBase: config.DISCORD_API_BASE, token: config.DISCORD_TOKEN }),
          channels: restChannels({ apiBase: config.DISCORD_API_BASE, token: config.DISCORD_TOKEN }),
        }
      : {}),
  });

  if (!config.DISCORD_TOKEN) {
    // A stop signal ends the console as /quit does: the line being answered finishes (or the deadline
    // passes), then everything stops and the pid file is removed. Listened for before the lifecycle
    // writes the pid file: a signal sent as soon as the file appears found no listener and killed the
    // process, the pid file left behind.
    const stopping = new AbortController();
    stopOnSignals(logger, () => stopping.abort());
    const running = await app.startLifecycle();
    await runConsole({ ctx: app.ctx, input: process.stdin, output: process.stdout, signal: stopping.signal });
    running.stop();
    await app.records.stop();
    await app.replicas?.close();
    return 0;
  }

  const bot = await startGatewayBot({
    token: config.DISCORD_TOKEN,
    apiBase: config.DISCORD_API_BASE,
    ctx: app.ctx,
  });
  // Listened for before the lifecycle writes the pid file, as at the console.
  const signalled = new Promise<void>((resolve) => stopOnSignals(logger, () => resolve()));
  // The ShardingManager runs this file per shard: the client tells the lifecycle it is one.
  const running = await app.startLifecycle(bot.client);
  await signalled;
  running.stop();
  await bot.stop();
  await app.records.stop();
  await app.replicas?.close();
  return 0;
});
