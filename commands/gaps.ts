import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import { gapsChart } from '../src/chart/gaps-chart.ts';
import { buildGapsReport, type GapsReport } from '../src/community/gaps-report.ts';
import { withChart } from '../src/interactions/chart-attachment.ts';
import type { Command, CommandContext } from '../src/interactions/command.ts';
import { staleButton, UserError } from '../src/interactions/errors.ts';
import { writing } from '../src/interactions/feedback.ts';
import { renderGapsPage } from '../src/interactions/render/gaps.ts';

const MAX_DAYS = 3650;
const GapsOptions = z.object({ days: z.number().int().min(1).max(MAX_DAYS).default(30) });

/**
 * `/gaps` (moderators, private): what members asked that the coverage did not answer, grouped by what
 * it is about, and the answers most often voted not helpful. The same report as `npm run gaps`.
 */
export default {
  data: new SlashCommandBuilder()
    .setName('gaps')
    .setDescription('Moderators: questions the archive could not answer, and answers voted not helpful')
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild)
    .addIntegerOption((o) =>
      o
        .setName('days')
        .setDescription('How far back to look (default 30)')
        .setMinValue(1)
        .setMaxValue(MAX_DAYS),
    ),
  options: GapsOptions,
  access: 'moderators',
  isPrivate: () => true,
  async execute(ctx, options, interaction) {
    const where = inGuild(interaction);
    return gapsPage(
      ctx,
      await writing(ctx, (store) => buildGapsReport(store, { now: ctx.now(), days: options.days, ...where })),
      0,
    );
  },
  buttons: {
    /** `gaps:page:<page>:<days>`: another page, recomputed from the database. */
    'gaps:page': {
      access: 'moderators',
      async execute(ctx, [page = '', days = ''], interaction) {
        const parsed = z
          .object({
            page: z.coerce.number().int().min(0).max(1000),
            days: z.coerce.number().int().min(1).max(MAX_DAYS),
          })
          .safeParse({ page, days });
        if (!parsed.success) throw staleButton('run /gaps again');
        const where = inGuild(interaction);
        const report = await writing(ctx, (store) =>
          buildGapsReport(store, { now: ctx.now(), days: parsed.data.days, ...where }),
        );
        return { update: await gapsPage(ctx, report, parsed.data.page) };
      },
    },
  },
} satisfies Command<typeof GapsOptions>;

/** One page of the report, with the chart of its questions per week (the same on every page). */
function gapsPage(ctx: CommandContext, report: GapsReport, page: number) {
  return withChart(
    renderGapsPage(report, page),
    gapsChart(report),
    ctx,
    'No chart: no question went without coverage in these days, so there is nothing to draw.',
  );
}

/** A server's moderators see their own server's questions only (the database serves every server). */
function inGuild(interaction: { guildId: string | null }): { guildId: string } {
  if (!interaction.guildId) throw new UserError('not-in-guild', '/gaps works in a server only.');
  return { guildId: interaction.guildId };
}
