import { ChannelType, InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import { uniqueOutlets } from '../src/community/channel-settings.ts';
import type { Digest } from '../src/community/digests.ts';
import {
  describeSchedule,
  knownTimeZone,
  nextOccurrence,
  parseTimeOfDay,
  WEEKDAYS,
  wallClockText,
} from '../src/digests/schedule.ts';
import type { Command, CommandContext } from '../src/interactions/command.ts';
import { digestPage, scheduleOf } from '../src/interactions/digests.ts';
import { UserError } from '../src/interactions/errors.ts';
import { available, writing } from '../src/interactions/feedback.ts';
import { renderDigestList } from '../src/interactions/render/digest.ts';
import { escapeText } from '../src/interactions/render/escape.ts';
import { ephemeral } from '../src/interactions/render/payload.ts';
import { channelMention } from '../src/interactions/render/settings.ts';
import { fitText } from '../src/interactions/render/truncate.ts';
import { analyze } from '../src/search/analyze.ts';
import { MAX_OUTLETS, unknownOutlet } from './settings.ts';

/** Channels a digest may be posted in: those that hold plain messages. */
const POSTABLE_CHANNELS = [ChannelType.GuildText, ChannelType.GuildAnnouncement] as const;

const Options = z.object({
  subcommand: z.enum(['add', 'list', 'remove']),
  channel: z
    .string()
    .regex(/^\d{17,20}$/)
    .optional(),
  every: z.enum(['day', 'week']).optional(),
  at: z.string().trim().max(20).optional(),
  day: z.enum(WEEKDAYS).optional(),
  topic: z.string().trim().max(100).optional(),
  outlets: z.string().trim().max(400).optional(),
  timezone: z.string().trim().max(64).optional(),
  id: z.number().int().min(1).optional(),
});
type Options = z.infer<typeof Options>;

/**
 * `/digest`: one message per day or week in a channel with the period's new coverage grouped by story
 * (moderators). Stored with the community records; sent once across shards, replicas and restarts
 * (`DigestScheduler`, src/interactions/digests.ts). Replies are private.
 */
export default {
  data: new SlashCommandBuilder()
    .setName('digest')
    .setDescription("A daily or weekly message with the period's new coverage, by story (moderators)")
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((sub) =>
      sub
        .setName('add')
        .setDescription('Post a digest of new coverage in a channel, every day or week at a time')
        .addChannelOption((o) =>
          o
            .setName('channel')
            .setDescription('Where the digest is posted')
            .setRequired(true)
            .addChannelTypes(...POSTABLE_CHANNELS),
        )
        .addStringOption((o) =>
          o
            .setName('every')
            .setDescription('How often')
            .setRequired(true)
            .addChoices({ name: 'day', value: 'day' }, { name: 'week', value: 'week' }),
        )
        .addStringOption((o) =>
          o
            .setName('at')
            .setDescription('The time of day, HH:MM on a 24-hour clock (18:30)')
            .setRequired(true)
            .setMaxLength(20),
        )
        .addStringOption((o) =>
          o
            .setName('day')
            .setDescription('For a weekly digest, the day it is sent (default: Monday)')
            .addChoices(...WEEKDAYS.map((day) => ({ name: day, value: day }))),
        )
        .addStringOption((o) =>
          o
            .setName('topic')
            .setDescription('Only articles with all these words (default: every article)')
            .setMaxLength(100),
        )
        .addStringOption((o) =>
          o
            .setName('outlets')
            .setDescription('Only these outlets, separated by commas (default: every outlet)')
            .setMaxLength(400)
            .setAutocomplete(true),
        )
        .addStringOption((o) =>
          o
            .setName('timezone')
            .setDescription("The time's zone, such as Europe/Paris (default: the bot's DIGEST_TIME_ZONE)")
            .setMaxLength(64),
        ),
    )
    .addSubcommand((sub) =>
      sub.setName('list').setDescription("This server's digests and when each is next sent"),
    )
    .addSubcommand((sub) =>
      sub
        .setName('remove')
        .setDescription('Stop a digest')
        .addIntegerOption((o) =>
          o
            .setName('id')
            .setDescription('The digest’s number, as /digest list shows it')
            .setRequired(true)
            .setMinValue(1),
        ),
    ),
  options: Options,
  access: 'moderators',
  isPrivate: () => true,
  async execute(ctx, options, interaction) {
    available(ctx);
    const guildId = interaction.guildId;
    if (guildId === null)
      throw new UserError('not-in-guild', 'Digests are per server: use `/digest` in one.');
    switch (options.subcommand) {
      case 'add': {
        const digest = await add(ctx, options, guildId, interaction.userId);
        ctx.logger.info('digest added', { guild: guildId, digest: digest.id, by: interaction.userId });
        const schedule = describeSchedule(scheduleOf(digest));
        return list(
          ctx,
          guildId,
          `Digest ${digest.id} set up: ${channelMention(digest.channelId)} gets the new coverage ${schedule}, next ${next(ctx, digest)}. A period with nothing new sends nothing.`,
        );
      }
      case 'remove': {
        const id = options.id;
        if (id === undefined)
          throw new UserError('bad-option', '`/digest remove` needs `id`: `/digest list` shows them.');
        const removed = await writing(ctx, (store) => store.digests.remove(guildId, id));
        if (!removed)
          throw new UserError(
            'unknown-digest',
            `This server has no digest ${id}; \`/digest list\` shows its digests.`,
          );
        ctx.logger.info('digest removed', { guild: guildId, digest: id, by: interaction.userId });
        return list(ctx, guildId, `Digest ${id} removed: nothing more is sent for it.`);
      }
      default:
        return list(ctx, guildId);
    }
  },
  autocomplete(ctx, focused) {
    if (focused.name !== 'outlets') return [];
    // The last name being typed, after the ones already chosen.
    const cut = focused.value.lastIndexOf(',');
    const before = cut < 0 ? '' : `${focused.value.slice(0, cut + 1).trim()} `;
    return ctx.library.engine
      .suggestOutlets(focused.value.slice(cut + 1).trim(), 25)
      .map((outlet) => `${before}${outlet.name}`)
      .filter((value) => value.length <= 100)
      .map((value) => ({ name: value, value }));
  },
  buttons: {
    'digest:more': {
      async execute(ctx, args) {
        const [id, after, until, offset] = [
          Number(args[0]),
          parseInt(args[1] ?? '', 36),
          parseInt(args[2] ?? '', 36),
          Number(args[3]),
        ];
        if (![id, after, until, offset].every(Number.isSafeInteger))
          throw new UserError('stale-button', 'This button no longer works; the next digest brings its own.');
        const page = await writing(ctx, async (store) => {
          const digest = await store.digests.get(id);
          if (!digest) return 'removed' as const;
          return digestPage({ store, engine: ctx.library.engine, digest, after, until, offset });
        });
        if (page === 'removed')
          throw new UserError(
            'unknown-digest',
            'This digest was removed, so its other stories are no longer listed.',
          );
        if (!page)
          throw new UserError(
            'no-more-results',
            'The rest of this digest’s stories are no longer in the archive (articles were removed since).',
          );
        return { reply: ephemeral(page) };
      },
    },
  },
} satisfies Command<typeof Options>;

/** Checks every option of `/digest add` and stores the digest; a mistake is refused in plain words. */
async function add(ctx: CommandContext, options: Options, guildId: string, userId: string): Promise<Digest> {
  if (!options.channel)
    throw new UserError('bad-option', '`/digest add` needs `channel`: where the digest is posted.');
  if (!options.every) throw new UserError('bad-option', '`/digest add` needs `every`: day or week.');
  const written = options.at ?? '';
  const atMinutes = parseTimeOfDay(written);
  if (atMinutes === undefined)
    throw new UserError(
      'bad-option',
      `“${escapeText(fitText(written, 20))}” is not a time of day: write it as HH:MM on a 24-hour clock, from 00:00 to 23:59 (18:30 for half past six in the evening).`,
    );
  if (options.every === 'day' && options.day)
    throw new UserError(
      'bad-option',
      '`day` is for weekly digests: leave it out with `every:day`, or choose `every:week`.',
    );
  const zoneWritten = options.timezone ?? ctx.config.DIGEST_TIME_ZONE;
  const timeZone = knownTimeZone(zoneWritten);
  if (!timeZone)
    throw new UserError(
      'bad-option',
      `“${escapeText(fitText(zoneWritten, 64))}” is not a time zone I know. Use a name from the IANA list, such as Europe/Paris, America/New_York, Asia/Tokyo or UTC.`,
    );
  const topic = options.topic ? options.topic : null;
  if (topic !== null && analyze(topic).length === 0)
    throw new UserError(
      'bad-option',
      `The topic “${escapeText(topic)}” has no words to look for (only common words like “the”); name what the articles are about, or leave it out.`,
    );
  const outlets = checkedOutlets(ctx, options.outlets);
  const result = await writing(ctx, (store) =>
    store.digests.add({
      guildId,
      channelId: options.channel as string,
      every: options.every as 'day' | 'week',
      weekday: options.every === 'week' ? WEEKDAYS.indexOf(options.day ?? 'monday') : 1,
      atMinutes,
      timeZone,
      topic,
      outlets,
      createdBy: userId,
      createdAt: ctx.now(),
    }),
  );
  if (result.status === 'limit-reached')
    throw new UserError(
      'too-many-digests',
      `A server has at most ${result.limit} digests; remove one first (\`/digest list\`, then \`/digest remove\`).`,
    );
  return result.digest;
}

/** The outlets named, each as the archive names it; an unknown one is refused. */
function checkedOutlets(ctx: CommandContext, written: string | undefined): string[] {
  if (!written) return [];
  const names = written
    .split(/[,;]/)
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  const outlets = uniqueOutlets(
    names.map((name) => {
      const outlet = ctx.library.engine.outlet(name);
      if (!outlet) throw new UserError('unknown-outlet', unknownOutlet(ctx, name));
      return outlet.name;
    }),
  );
  if (outlets.length > MAX_OUTLETS)
    throw new UserError('too-many-outlets', `A digest draws from at most ${MAX_OUTLETS} outlets.`);
  return outlets;
}

async function list(ctx: CommandContext, guildId: string, said?: string) {
  const digests = await writing(ctx, (store) => store.digests.of(guildId));
  return renderDigestList(
    digests.map((digest) => ({
      digest,
      schedule: describeSchedule(scheduleOf(digest)),
      next: next(ctx, digest),
    })),
    said,
  );
}

/** When the digest is next sent, as its zone's clocks show it. */
function next(ctx: CommandContext, digest: Digest): string {
  return wallClockText(digest.timeZone, nextOccurrence(scheduleOf(digest), ctx.now()));
}
