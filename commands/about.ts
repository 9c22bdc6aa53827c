import { SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import type { Command } from '../src/interactions/command.ts';
import { renderAbout } from '../src/interactions/render/status.ts';

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
    });
  },
} satisfies Command<typeof AboutOptions>;
