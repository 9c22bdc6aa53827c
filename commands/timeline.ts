import { SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import { sinceOption, untilOption } from '../src/interactions/answer-question.ts';
import type { Command } from '../src/interactions/command.ts';
import { staleButton } from '../src/interactions/errors.ts';
import { readTimelineState } from '../src/interactions/render/query-state.ts';
import { showTimeline } from '../src/interactions/show-timeline.ts';

/** Longest topic accepted; it rides in the timeline's footer for the page buttons. */
export const MAX_TOPIC_LENGTH = 200;

const TimelineOptions = z.object({
  topic: z.string().trim().min(1, 'write a topic').max(MAX_TOPIC_LENGTH),
  since: z.string().trim().max(40).optional(),
  until: z.string().trim().max(40).optional(),
  private: z.boolean().default(false),
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
    .addBooleanOption((o) => o.setName('private').setDescription('Show the timeline only to you')),
  options: TimelineOptions,
  rateLimited: true,
  isPrivate: (options) => options.private,
  execute(ctx, options) {
    return showTimeline(
      ctx.library.engine,
      {
        topic: options.topic,
        page: 0,
        ...(options.since ? { since: options.since } : {}),
        ...(options.until ? { until: options.until } : {}),
      },
      ctx,
    );
  },
  buttons: {
    /** `timeline:page:<page>`: another page, replacing this one; topic and period come from the footer. */
    'timeline:page': {
      rateLimited: true,
      async execute(ctx, [page = ''], press) {
        const state = readTimelineState(press.message.embeds);
        const target = Number.parseInt(page, 10);
        if (!state || !Number.isInteger(target) || target < 0) throw staleButton('run /timeline');
        return { update: await showTimeline(ctx.library.engine, { ...state, page: target }, ctx) };
      },
    },
  },
} satisfies Command<typeof TimelineOptions>;
