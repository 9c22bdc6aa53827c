import type { APIEmbed } from 'discord.js';
import type { BarChart } from '../chart/bar-chart.ts';
import type { ChartRenderer } from '../chart/chart-renderer.ts';
import { describeChart } from '../chart/describe-chart.ts';
import type { Logger } from '../logging/logger.ts';
import type { ReplyPayload } from './incoming.ts';

/** What attaching a chart needs from the command's context. */
export interface ChartContext {
  charts?: ChartRenderer;
  logger: Logger;
}

/**
 * `payload` with `chart` drawn and attached: the PNG uploaded as `<name>.png`, its alt text the chart
 * in words, shown as the image of the payload's first embed. Without a chart (`undefined`: nothing to
 * draw) the reply says so in `nothingToDraw` and keeps no attachment (an edited message loses the one it
 * had); a chart that cannot be drawn is logged and the reply goes out without it, saying so. Never
 * throws: the text reply is the answer, the picture only shows it.
 */
export async function withChart(
  payload: ReplyPayload,
  chart: BarChart | undefined,
  ctx: ChartContext,
  nothingToDraw: string,
): Promise<ReplyPayload> {
  if (!chart) return { ...note(payload, nothingToDraw), attachments: [] };
  if (!ctx.charts) return payload;
  let png: Uint8Array;
  try {
    png = await ctx.charts.render(chart);
  } catch (error) {
    ctx.logger.warn('chart not drawn', { chart: chart.name, error });
    return { ...note(payload, 'The chart could not be drawn this time.'), attachments: [] };
  }
  const filename = `${chart.name}.png`;
  const description = describeChart(chart);
  const [first, ...rest] = payload.embeds ?? [];
  const image: APIEmbed = { ...first, image: { url: `attachment://${filename}` } };
  return {
    ...payload,
    embeds: [image, ...rest],
    attachments: [{ id: '0', filename, description }],
    files: [{ name: filename, data: png, description }],
  };
}

/** The reply with one more line at the end of its text. */
function note(payload: ReplyPayload, line: string): ReplyPayload {
  return { ...payload, content: payload.content ? `${payload.content}\n${line}` : line };
}
