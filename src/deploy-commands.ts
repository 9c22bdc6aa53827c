import { pathToFileURL } from 'node:url';
import { REST, Routes } from 'discord.js';
import { commands as allCommands } from '../commands/index.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import type { AnyCommand } from './interactions/command.ts';
import { tokenRefused } from './transports/token-refused.ts';

/**
 * Registers every command with Discord: to `DISCORD_GUILD_ID` when set (instant; for development) or
 * globally (may take up to an hour to appear). Replaces the whole set, so a removed command disappears
 * too. Returns what Discord registered.
 */
export async function deployCommands(
  config: Config,
  commands: readonly AnyCommand[] = allCommands,
): Promise<{ scope: string; registered: { name: string }[] }> {
  if (!config.DISCORD_TOKEN || !config.DISCORD_APPLICATION_ID) {
    throw new ConfigError(
      'Invalid configuration:\n  DISCORD_TOKEN and DISCORD_APPLICATION_ID are both required to register commands',
    );
  }
  const rest = new REST({ api: config.DISCORD_API_BASE }).setToken(config.DISCORD_TOKEN);
  const body = commands.map((command) => command.data.toJSON());
  const route = config.DISCORD_GUILD_ID
    ? Routes.applicationGuildCommands(config.DISCORD_APPLICATION_ID, config.DISCORD_GUILD_ID)
    : Routes.applicationCommands(config.DISCORD_APPLICATION_ID);
  const registered = (await rest.put(route, { body })) as { name: string }[];
  return { scope: config.DISCORD_GUILD_ID ? `to guild ${config.DISCORD_GUILD_ID}` : 'globally', registered };
}

// `npm run deploy-commands`
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // loadConfig inside the promise: a bad setting is a message, not an uncaught stack.
  Promise.resolve()
    .then(() => deployCommands(loadConfig()))
    .then(
      ({ scope, registered }) => {
        process.stdout.write(
          `Registered ${registered.length} commands ${scope}: ${registered.map((c) => c.name).join(', ')}\n`,
        );
      },
      (error: unknown) => {
        const plain = tokenRefused(error) ?? error;
        process.stderr.write(`deploy-commands: ${plain instanceof Error ? plain.message : String(plain)}\n`);
        process.exit(1);
      },
    );
}
