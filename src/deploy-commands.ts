import { REST, Routes } from 'discord.js';
import { commands } from '../commands/index.ts';
import { ConfigError, loadConfig } from './config.ts';

/**
 * `npm run deploy-commands`: registers every command with Discord, to DISCORD_GUILD_ID when set
 * (instant; for development) or globally (may take up to an hour to appear). Replaces the whole set,
 * so a removed command disappears too.
 */
async function deploy(): Promise<void> {
  const config = loadConfig();
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
  const scope = config.DISCORD_GUILD_ID ? `guild ${config.DISCORD_GUILD_ID}` : 'globally';
  process.stdout.write(
    `Registered ${registered.length} commands ${scope}: ${registered.map((c) => c.name).join(', ')}\n`,
  );
}

deploy().catch((error: unknown) => {
  process.stderr.write(`deploy-commands: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
