import { bootstrap } from '../../src/bootstrap.ts';
import type { Community } from '../../src/community/community.ts';
import { loadConfig } from '../../src/config.ts';
import type { DigestScheduler } from '../../src/interactions/digests.ts';
import type { DispatchContext } from '../../src/interactions/dispatch.ts';
import type { LibraryView } from '../../src/interactions/library-view.ts';
import type { Library } from '../../src/library.ts';
import { memoryLogger } from '../../src/logging/logger.ts';
import { type GatewayBot, startGatewayBot } from '../../src/transports/gateway/gateway-bot.ts';
import { restChannels } from '../../src/transports/rest-channels.ts';
import { restPoster } from '../../src/transports/rest-poster.ts';
import { restThreads } from '../../src/transports/rest-threads.ts';
import { ids } from '../support/stand-in-discord/fixtures.ts';
import type { Sender } from '../support/stand-in-discord/interactions.ts';
import { StandInDiscord } from '../support/stand-in-discord/server.ts';

/** A plain member: View Channel only, no roles. */
export const member: Sender = { userId: '800000000000000001', roles: [ids.memberRole] };
/** Holds the configured moderator role. */
export const moderator: Sender = { userId: '800000000000000002', roles: [ids.moderatorRole] };
/** Has Manage Server (1 << 5) but no moderator role. */
export const serverManager: Sender = { userId: '800000000000000003', permissions: String(1024 | 32) };

export interface Harness {
  discord: StandInDiscord;
  bot: GatewayBot;
  library: Library;
  logger: ReturnType<typeof memoryLogger>;
  ctx: DispatchContext;
  /** The community database, when the test set DATA_DIR. */
  community: Community | undefined;
  /** What sends digests (`check()` runs one check now), when the test set DATA_DIR. */
  digests: DigestScheduler | undefined;
  stop(): Promise<void>;
}

/**
 * The real bot, started as `npm start` starts it (config from environment variables, `bootstrap()` with
 * the index on a worker thread, the discord.js gateway client, then the lifecycle given that client),
 * logged in to a fresh stand-in Discord.
 */
export async function startHarness(
  options: {
    corpusPath?: string;
    env?: Record<string, string>;
    /** Wraps the library the commands see, e.g. to inject a failure. */
    wrap?: (library: Library) => LibraryView;
    /** The clock of commands, digests and feeds (a test clock). @default Date.now */
    now?: () => number;
    /** A stand-in kept across restarts (what the bot posted is still there); left open by `stop`. @default a fresh one */
    discord?: StandInDiscord;
  } = {},
): Promise<Harness> {
  const discord = options.discord ?? (await StandInDiscord.start());
  const corpusPath = options.corpusPath ?? 'corpus';
  const config = loadConfig({
    DISCORD_TOKEN: discord.token,
    DISCORD_API_BASE: discord.apiBase,
    CORPUS_PATH: corpusPath,
    INDEX_CACHE_DIR: '',
    // Nothing is stored unless a test gives a DATA_DIR of its own.
    DATA_DIR: '',
    ...options.env,
  });
  const logger = memoryLogger();
  const app = await bootstrap({
    config,
    logger,
    poster: restPoster({ apiBase: config.DISCORD_API_BASE, token: discord.token }),
    threads: restThreads({ apiBase: config.DISCORD_API_BASE, token: discord.token }),
    channels: restChannels({ apiBase: config.DISCORD_API_BASE, token: discord.token }),
    ...(options.now ? { now: options.now } : {}),
  });
  // `logger` holds what the bot logs while it serves, not its start-up lines.
  logger.events.splice(0);
  const ctx: DispatchContext = options.wrap ? { ...app.ctx, library: options.wrap(app.library) } : app.ctx;
  const bot = await startGatewayBot({ token: discord.token, apiBase: config.DISCORD_API_BASE, ctx });
  const running = await app.startLifecycle(bot.client);
  return {
    discord,
    bot,
    library: app.library,
    logger,
    ctx,
    community: app.records.community,
    digests: app.digests,
    async stop() {
      running.stop();
      await bot.stop();
      app.records.stop();
      app.library.engine.close();
      if (options.discord === undefined) await discord.close();
    },
  };
}

/** Every embed's text, joined, for assertions on what a reader sees. */
export function textOf(data: Record<string, unknown>): string {
  const embeds = (data.embeds ?? []) as {
    title?: string;
    description?: string;
    footer?: { text: string };
    author?: { name: string };
    fields?: { name: string; value: string }[];
  }[];
  return [
    String(data.content ?? ''),
    ...embeds.flatMap((embed) => [
      embed.author?.name ?? '',
      embed.title ?? '',
      embed.description ?? '',
      ...(embed.fields ?? []).flatMap((field) => [field.name, field.value]),
      embed.footer?.text ?? '',
    ]),
  ].join('\n');
}

/** custom_ids of a payload's buttons, in order. */
export function customIdsOf(data: Record<string, unknown>): string[] {
  const rows = (data.components ?? []) as { components: { custom_id?: string }[] }[];
  return rows.flatMap((row) =>
    row.components.flatMap((component) => (component.custom_id ? [component.custom_id] : [])),
  );
}
