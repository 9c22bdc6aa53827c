import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { ShardingManager } from 'discord.js';
import { ConfigError, loadConfig } from '../../config.ts';
import { holdEarlySighup, takeEarlySighup } from '../../lifecycle/early-sighup.ts';
import { writePidFile } from '../../lifecycle/pid-file.ts';
import { createLogger } from '../../logging/logger.ts';
import { STOP_DEADLINE_MS, stopOnSignals } from '../../stop-deadline.ts';
import { tokenRefused } from '../token-refused.ts';
import { ManagerRelay } from './manager-relay.ts';

/** How much longer than a shard's own stop deadline the manager waits for its shards. */
const SHARD_STOP_MARGIN_MS = 2_000;

/** The per-shard entry: the ordinary gateway bot, which detects it runs as a shard. */
const SHARD_ENTRY = fileURLToPath(new URL('../../main.ts', import.meta.url));

/**
 * `npm run start:sharded`: runs the gateway bot under discord.js's ShardingManager, one process per
 * shard (SHARDS, default `auto`), each with its own read-only index. The manager relays corpus changes
 * so a reload or /corpus edit on one shard reloads every shard, and gathers shard versions for /about.
 */
async function main(): Promise<void> {
  // Spawning every shard takes seconds: a SIGHUP meanwhile would end the manager.
  holdEarlySighup();
  const config = loadConfig();
  if (!config.DISCORD_TOKEN)
    throw new ConfigError('Invalid configuration:\n  DISCORD_TOKEN: sharding needs a bot token');
  const logger = createLogger(config.LOG_LEVEL);
  const relay = new ManagerRelay();
  const manager = new ShardingManager(SHARD_ENTRY, {
    token: config.DISCORD_TOKEN,
    totalShards: config.SHARDS ?? 'auto',
    // Shards run TypeScript directly, as `npm start` does.
    execArgv: ['--import', 'tsx'],
  });
  manager.on('shardCreate', (shard) => {
    logger.info('shard started', { shard: shard.id });
    relay.attach({
      id: shard.id,
      send: (message) => shard.send(message),
      onMessage: (listener) => {
        shard.on('message', listener);
        return () => shard.off('message', listener);
      },
    });
  });
  await manager.spawn().catch((error: unknown) => {
    throw tokenRefused(error) ?? error;
  });
  // The process to signal for a reload of every shard (the shards do not write it).
  const removePidFile = config.PID_FILE ? await writePidFile(config.PID_FILE) : () => undefined;
  // Each shard stops itself within its own deadline; the manager waits for them a little longer, then
  // ends those still running and itself. Exits 0 once every shard has stopped in time.
  const shardProcesses = () => [...manager.shards.values()].flatMap((shard) => shard.process ?? []);
  stopOnSignals(
    logger,
    () => {
      manager.respawn = false;
      const running = shardProcesses().filter(
        (child) => child.exitCode === null && child.signalCode === null,
      );
      void Promise.all(
        running.map((child) => {
          const exited = once(child, 'exit');
          child.kill('SIGTERM');
          return exited;
        }),
      ).then(() => {
        removePidFile();
        process.exit(0);
      });
    },
    {
      deadlineMs: STOP_DEADLINE_MS + SHARD_STOP_MARGIN_MS,
      onForced: () => {
        for (const child of shardProcesses()) if (child.exitCode === null) child.kill('SIGKILL');
        removePidFile();
      },
    },
  );
  // SIGHUP to the manager reloads every shard (each reloads from the shared corpus folder).
  const reloadShards = () => {
    for (const shard of manager.shards.values()) shard.process?.kill('SIGHUP');
  };
  process.on('SIGHUP', reloadShards);
  if (takeEarlySighup()) reloadShards();
}

main().catch((error: unknown) => {
  process.stderr.write(`newsdesk: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
