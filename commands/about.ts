import { SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import { healthWarnings } from '../src/health.ts';
import type { Command, CommandContext } from '../src/interactions/command.ts';
import { type AboutFacts, renderAbout } from '../src/interactions/render/status.ts';

const AboutOptions = z.object({});

export default {
  data: new SlashCommandBuilder()
    .setName('about')
    .setDescription('What the archive holds: size, version, last reload, uptime'),
  options: AboutOptions,
  async execute(ctx) {
    const engine = ctx.library.engine;
    // Under the ShardingManager, ask every shard what it serves (shards that do not answer are left out).
    const shards = await ctx.peerStatuses?.();
    return renderAbout({
      articles: engine.articles().length,
      passages: engine.passageCount,
      version: engine.version,
      loadedAt: ctx.library.loadedAt,
      startedAt: ctx.startedAt,
      now: ctx.now(),
      ...(shards ? { shards } : {}),
      activity: await lastWeek(ctx),
      ...(ctx.health ? { warnings: healthWarnings(ctx.health()) } : {}),
    });
  },
} satisfies Command<typeof AboutOptions>;

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** Counts from the community database; a read that fails leaves /about answering without them. */
async function lastWeek(ctx: CommandContext): Promise<AboutFacts['activity']> {
  if (!ctx.community) return 'not recorded';
  try {
    const since = new Date(ctx.now().getTime() - WEEK_MS);
    return await ctx.community.ask((store) => store.records.countsSince(since));
  } catch (error) {
    ctx.logger.warn('/about: community counts unavailable', { error });
    return 'not recorded';
  }
}
