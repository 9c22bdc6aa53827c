import { DiscordAPIError, DiscordjsErrorCodes } from 'discord.js';
import { ConfigError } from '../config.ts';

/**
 * Discord refusing DISCORD_TOKEN (the gateway's login, or a REST call answered 401) as a ConfigError:
 * one plain line and what to do, printed without a stack like any bad setting. Undefined otherwise.
 */
export function tokenRefused(error: unknown): ConfigError | undefined {
  const refused =
    (error instanceof Error && 'code' in error && error.code === DiscordjsErrorCodes.TokenInvalid) ||
    (error instanceof DiscordAPIError && error.status === 401);
  if (!refused) return undefined;
  return new ConfigError(
    'Discord refused DISCORD_TOKEN (an invalid token)\n' +
      'hint: reset the token in the Discord Developer Portal (your application > Bot > Reset Token) and set ' +
      'DISCORD_TOKEN in .env to it; the application id and the public key are not the token',
  );
}
