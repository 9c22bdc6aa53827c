import { SlashCommandBuilder } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../src/config.ts';
import type { Command } from '../../src/interactions/command.ts';
import { APOLOGY, type DispatchContext } from '../../src/interactions/dispatch.ts';
import type { LibraryView } from '../../src/interactions/library-view.ts';
import { RateLimiter } from '../../src/interactions/rate-limiter.ts';
import { CommandRegistry } from '../../src/interactions/registry.ts';
import { memoryLogger } from '../../src/logging/logger.ts';
import { type GatewayBot, startGatewayBot } from '../../src/transports/gateway/gateway-bot.ts';
import { ids } from '../support/stand-in-discord/fixtures.ts';
import { chatInput } from '../support/stand-in-discord/interactions.ts';
import { StandInDiscord } from '../support/stand-in-discord/server.ts';

// A transport test: an echo command stands in for the real ones, which the e2e suites drive.
const echo = {
  data: new SlashCommandBuilder()
    .setName('echo')
    .setDescription('Echo')
    .addStringOption((o) => o.setName('text').setDescription('Text').setRequired(true)),
  options: z.object({ text: z.string() }),
  execute: (_ctx, options) => ({ content: `you said ${options.text}` }),
} satisfies Command<z.ZodObject<{ text: z.ZodString }>>;

// Reports what the transport read about the member, to check the discord.js adapter.
const whoami = {
  data: new SlashCommandBuilder().setName('whoami').setDescription('Who am I'),
  options: z.object({}),
  execute: (_ctx, _options, interaction) => ({
    content: JSON.stringify({
      roles: interaction.memberRoleIds,
      permissions: String(interaction.memberPermissions),
      guild: interaction.guildId,
    }),
  }),
} satisfies Command<z.ZodObject<Record<string, never>>>;

// Fails after the dispatcher has deferred it publicly.
const slowFailure = {
  data: new SlashCommandBuilder().setName('slow-failure').setDescription('Fails slowly'),
  options: z.object({}),
  execute: async () => {
    await new Promise((resolve) => setTimeout(resolve, 80));
    throw new Error('failed after deferring');
  },
} satisfies Command<z.ZodObject<Record<string, never>>>;

function context(): DispatchContext {
  return {
    library: {} as LibraryView,
    config: loadConfig({}),
    logger: memoryLogger(),
    startedAt: new Date(),
    now: () => new Date(),
    commands: new CommandRegistry([echo, whoami, slowFailure]),
    deferAfterMs: 20,
    rateLimiter: new RateLimiter({ limit: 5, windowMs: 30_000 }),
  };
}

describe('the gateway transport against the stand-in Discord', () => {
  let discord: StandInDiscord;
  let bot: GatewayBot;

  beforeAll(async () => {
    discord = await StandInDiscord.start();
    bot = await startGatewayBot({ token: discord.token, apiBase: discord.apiBase, ctx: context() });
  });

  afterAll(async () => {
    await bot?.stop();
    await discord?.close();
  });

  it('logs in with only the Guilds intent, JSON encoding and no compression', () => {
    expect(discord.identifies).toHaveLength(1);
    expect(discord.identifies[0]!.intents).toBe(1);
    expect(discord.gatewayQueries[0]).toBe('v=10&encoding=json');
    expect(bot.client.guilds.cache.has(ids.guild)).toBe(true);
  });

  it('answers a slash command through the interaction callback with no mentions allowed', async () => {
    const exchange = discord.interact(
      chatInput('echo', { text: '@everyone hi' }, { userId: '800000000000000001' }),
    );
    const final = await exchange.final();
    expect(final.type).toBe(4);
    expect(final.data.content).toBe('you said @everyone hi');
    expect(final.data.allowed_mentions).toEqual({ parse: [] });
  });

  it('answers a failure after a public deferral privately, removing the public "thinking" message', async () => {
    const exchange = discord.interact(chatInput('slow-failure', {}, { userId: '800000000000000001' }));
    await exchange.final({ timeoutMs: 1 }).catch(() => undefined);
    await vi.waitFor(() => expect(exchange.followups).toHaveLength(1));
    expect(exchange.callbacks).toEqual([{ type: 5, data: { flags: 0 } }]); // deferred publicly
    expect(exchange.followups[0]).toMatchObject({
      content: APOLOGY,
      flags: 64,
      allowed_mentions: { parse: [] },
    });
    await vi.waitFor(() =>
      expect(
        discord.requests.some(
          (request) => request.method === 'DELETE' && request.route.endsWith('/messages/@original'),
        ),
      ).toBe(true),
    );
  });

  it('refuses to start with a token Discord rejects', async () => {
    await expect(
      startGatewayBot({ token: 'not-the-token', apiBase: discord.apiBase, ctx: context() }),
    ).rejects.toThrow(/invalid token/i);
  });

  it('reads member roles and permissions from a cached guild (GuildMember) and an uncached one (raw member)', async () => {
    const sender = { userId: '800000000000000001', roles: [ids.moderatorRole], permissions: '1056' };
    const cached = await discord.interact(chatInput('whoami', {}, sender)).final();
    expect(JSON.parse(String(cached.data.content))).toEqual({
      roles: [ids.moderatorRole],
      permissions: '1056',
      guild: ids.guild,
    });

    const elsewhere = chatInput('whoami', {}, sender);
    elsewhere.guild_id = '299999999999999999';
    const uncached = await discord.interact(elsewhere).final();
    expect(JSON.parse(String(uncached.data.content))).toEqual({
      roles: [ids.moderatorRole],
      permissions: '1056',
      guild: '299999999999999999',
    });
  });
});
