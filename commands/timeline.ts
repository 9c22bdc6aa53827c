import { SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import { sinceOption, untilOption } from '../src/interactions/answer-question.ts';
import type { Command } from '../src/interactions/command.ts';
import { askerOf, withDismiss } from '../src/interactions/dismiss.ts';
import { staleButton } from '../src/interactions/errors.ts';
import { readTimelineState } from '../src/interactions/render/query-state.ts';
import { showTimeline } from '../src/interactions/show-timeline.ts';

/** Longest topic accepted; it rides in the timeline's footer for the page buttons. */
export const MAX_TOPIC_LENGTH = 200;

const TimelineOptions = z.object({
  topic: z.string().trim().min(1, 'write a topic').max(MAX_TOPIC_LENGTH),
  since: z.string().trim().max(40).optional(),
  until: z.string().trim().max(40).optional(),
  /** Absent: the channel's default (`/settings visibility`), public unless set. */
  private: z.boolean().optional(),
});

export default {
  data: new SlashCommandBuilder()
    .setName('timeline')
    .setDescription(
      'How a story was covered over time: one line per article, oldest (the first report) first',
    )
    .addStringOption((o) =>
      o
        .setName('topic')
        .setDescription('The story, in a few words')
        .setRequired(true)
        .setMaxLength(MAX_TOPIC_LENGTH),
    )
    .addStringOption(sinceOption)
    .addStringOption(untilOption)
    .addBooleanOption((o) =>
      o.setName('private').setDescription("Show the timeline only to you (default: the channel's setting)"),
    ),
  options: TimelineOptions,
  rateLimited: true,
  channelScoped: true,
  isPrivate: (options, channel) => options.private ?? channel?.settings.visibility === 'private',
  async execute(ctx, options, interaction) {
    const isPrivate = options.private ?? ctx.channel?.settings.visibility === 'private';
    const timeline = await showTimeline(
      ctx.library.engine,
      {
        topic: options.topic,
        page: 0,
        ...(options.since ? { since: options.since } : {}),
        ...(options.until ? { until: options.until } : {}),
      },
      ctx,
    );
    return isPrivate ? timeline : withDismiss(timeline, interaction.userId);
  },
  buttons: {
    /** `timeline:page:<page>`: another page, replacing this one; topic and period come from the footer. */
    'timeline:page': {
      rateLimited: true,
      async execute(ctx, [page = ''], press) {
        const state = readTimelineState(press.message.embeds);
        const target = Number.parseInt(page, 10);
        if (!state || !Number.isInteger(target) || target < 0) throw staleButton('run /timeline again');
        const shown = await showTimeline(ctx.library.engine, { ...state, page: target }, ctx);
        const asker = askerOf(press.message);
        return { update: asker ? withDismiss(shown, asker) : shown };
      },
    },
  },
} satisfies Command<typeof TimelineOptions>;
