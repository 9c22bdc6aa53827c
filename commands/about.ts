import { SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import { corpusChart } from '../src/chart/corpus-chart.ts';
import { healthWarnings } from '../src/health.ts';
import { channelOf } from '../src/interactions/answer-channels.ts';
import { withChart } from '../src/interactions/chart-attachment.ts';
import type { Command, CommandContext } from '../src/interactions/command.ts';
import type {
  ChatInputIncoming,
  MessageContextMenuIncoming,
  ReplyPayload,
} from '../src/interactions/incoming.ts';
import { settingsFields } from '../src/interactions/render/settings.ts';
import { type AboutFacts, renderAbout } from '../src/interactions/render/status.ts';

const AboutOptions = z.object({});

export default {
  data: new SlashCommandBuilder()
    .setName('about')
    .setDescription('What the archive holds: size, version, last reload, uptime'),
  options: AboutOptions,
  async execute(ctx, _options?: unknown, interaction?: ChatInputIncoming | MessageContextMenuIncoming) {
    const engine = ctx.library.engine;
    // Under the ShardingManager, ask every shard what it serves (shards that do not answer are left out).
    const shards = await ctx.peerStatuses?.();
    const about = renderAbout({
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
    const withSettings = interaction ? await withChannelSettings(ctx, interaction, about) : about;
    return withChart(withSettings, corpusChart(engine.articles()), ctx, NO_DATED_ARTICLE);
  },
} satisfies Command<typeof AboutOptions>;

/** In a server's channel with records kept, the channel's settings (`/settings`) under the facts. */
async function withChannelSettings(
  ctx: CommandContext,
  interaction: ChatInputIncoming | MessageContextMenuIncoming,
  about: ReplyPayload,
): Promise<ReplyPayload> {
  const channelId = interaction.parentChannelId ?? interaction.channelId;
  if (!ctx.community || interaction.guildId === null || !channelId) return about;
  const view = await channelOf(ctx, interaction);
  const [first, ...rest] = about.embeds ?? [];
  if (!first) return about;
  return {
    ...about,
    embeds: [{ ...first, fields: [...(first.fields ?? []), ...settingsFields(channelId, view)] }, ...rest],
  };
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const NO_DATED_ARTICLE = 'No chart of articles per month: no article is dated, so there is nothing to draw.';

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
