import {
  ChannelType,
  InteractionContextType,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type SlashCommandChannelOption,
  type SlashCommandStringOption,
} from 'discord.js';
import { z } from 'zod';
import type { ChannelSettingsChange } from '../src/community/channel-settings.ts';
import type { RecordStore } from '../src/community/record-store.ts';
import type { Command, CommandContext } from '../src/interactions/command.ts';
import { UserError } from '../src/interactions/errors.ts';
import { writing } from '../src/interactions/feedback.ts';
import type { ChatInputIncoming, MessageContextMenuIncoming } from '../src/interactions/incoming.ts';
import { escapeText } from '../src/interactions/render/escape.ts';
import { channelList, channelMention, renderChannelSettings } from '../src/interactions/render/settings.ts';
import { fitText } from '../src/interactions/render/truncate.ts';

/** At most this many answer channels per server, and outlets per channel: enough, and a reply that fits. */
export const MAX_ANSWER_CHANNELS = 25;
export const MAX_OUTLETS = 25;

/** The channels an answer channel or a channel's settings may be: those members type in. */
const TEXT_CHANNELS = [
  ChannelType.GuildText,
  ChannelType.GuildAnnouncement,
  ChannelType.GuildForum,
  ChannelType.GuildVoice,
] as const;

const channelId = z.string().regex(/^\d{17,20}$/);
const Options = z.object({
  subcommandGroup: z.enum(['channels', 'outlets']).optional(),
  subcommand: z.enum(['show', 'thread-mode', 'visibility', 'reset', 'add', 'remove', 'everywhere', 'all']),
  channel: channelId.optional(),
  on: z.boolean().optional(),
  answers: z.enum(['public', 'private']).optional(),
  outlet: z.string().trim().min(1).max(100).optional(),
});
type Options = z.infer<typeof Options>;

const channelOption = (description: string) => (o: SlashCommandChannelOption) =>
  o
    .setName('channel')
    .setDescription(description)
    .addChannelTypes(...TEXT_CHANNELS);
const outletOption = (description: string) => (o: SlashCommandStringOption) =>
  o.setName('outlet').setDescription(description).setRequired(true).setAutocomplete(true).setMaxLength(100);
const THIS_CHANNEL = 'The channel (default: this one)';

/**
 * `/settings`: where the bot answers and how, per channel (moderators). Stored with the community
 * records, so every shard and replica reads the same; replies are private.
 */
export default {
  data: new SlashCommandBuilder()
    .setName('settings')
    .setDescription('Where the bot answers, and how, channel by channel (moderators)')
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((sub) =>
      sub
        .setName('show')
        .setDescription("A channel's settings, and where the bot answers")
        .addChannelOption(channelOption(THIS_CHANNEL)),
    )
    .addSubcommand((sub) =>
      sub
        .setName('thread-mode')
        .setDescription('Whether an answer opens a thread for follow-up questions')
        .addBooleanOption((o) => o.setName('on').setDescription('On or off').setRequired(true))
        .addChannelOption(channelOption(THIS_CHANNEL)),
    )
    .addSubcommand((sub) =>
      sub
        .setName('visibility')
        .setDescription('Whether answers are public or private by default (/ask private: still chooses)')
        .addStringOption((o) =>
          o
            .setName('answers')
            .setDescription('Public (everyone sees them) or private (only the asker)')
            .setRequired(true)
            .addChoices({ name: 'public', value: 'public' }, { name: 'private', value: 'private' }),
        )
        .addChannelOption(channelOption(THIS_CHANNEL)),
    )
    .addSubcommand((sub) =>
      sub
        .setName('reset')
        .setDescription('Back to the defaults: no thread mode, public answers, every outlet')
        .addChannelOption(channelOption(THIS_CHANNEL)),
    )
    .addSubcommandGroup((group) =>
      group
        .setName('channels')
        .setDescription('Where the bot answers: every channel, or only those listed')
        .addSubcommand((sub) =>
          sub
            .setName('add')
            .setDescription('Answer in this channel; once any is listed, only in those listed')
            .addChannelOption((o) => channelOption('The channel to answer in')(o).setRequired(true)),
        )
        .addSubcommand((sub) =>
          sub
            .setName('remove')
            .setDescription('Stop answering in a listed channel')
            .addChannelOption((o) => channelOption('The listed channel')(o).setRequired(true)),
        )
        .addSubcommand((sub) =>
          sub.setName('everywhere').setDescription('Answer in every channel again (clears the list)'),
        ),
    )
    .addSubcommandGroup((group) =>
      group
        .setName('outlets')
        .setDescription("The outlets a channel's answers come from")
        .addSubcommand((sub) =>
          sub
            .setName('add')
            .setDescription('Answer from this outlet; once any is set, only from those set')
            .addStringOption(outletOption('The outlet, as the archive names it'))
            .addChannelOption(channelOption(THIS_CHANNEL)),
        )
        .addSubcommand((sub) =>
          sub
            .setName('remove')
            .setDescription('Stop answering from this outlet')
            .addStringOption(outletOption('One of the channel’s outlets'))
            .addChannelOption(channelOption(THIS_CHANNEL)),
        )
        .addSubcommand((sub) =>
          sub
            .setName('all')
            .setDescription('Answer from every outlet again')
            .addChannelOption(channelOption(THIS_CHANNEL)),
        ),
    ),
  options: Options,
  access: 'moderators',
  isPrivate: () => true,
  async execute(ctx, options, interaction) {
    if (!ctx.community)
      throw new UserError(
        'no-records',
        'This bot stores no settings (no database is configured: set DATA_DIR or DATABASE_URL).',
      );
    const guildId = interaction.guildId;
    if (guildId === null)
      throw new UserError('not-in-guild', 'Settings are per server: use `/settings` in one.');
    const target = options.channel ?? interaction.parentChannelId ?? interaction.channelId ?? null;
    if (target === null)
      throw new UserError('no-channel', 'Name the channel: `/settings show channel:#news`.');
    const place = { guildId, channelId: target };
    const said = await change(ctx, options, place, interaction);
    const view = await writing(ctx, async (store) => ({
      settings: await store.settings.of(place),
      answerChannels: await store.settings.answerChannels(guildId),
    }));
    return renderChannelSettings(target, view, said);
  },
  autocomplete(ctx, focused, interaction) {
    if (focused.name !== 'outlet') return [];
    const engine = ctx.library.engine;
    const fromArchive = engine.suggestOutlets(focused.value, 25).map((outlet) => ({
      name: `${outlet.name} (${count(outlet.articles, 'article')})`,
      value: outlet.name,
    }));
    if (interaction.options.subcommand !== 'remove') return fromArchive;
    // Removing: the channel's own outlets, even one a reload took out of the archive.
    return ctx.community
      ? ctx.community
          .askOr([] as string[], async (store) =>
            interaction.guildId && (interaction.channelId || typeof interaction.options.channel === 'string')
              ? (
                  await store.settings.of({
                    guildId: interaction.guildId,
                    channelId: String(interaction.options.channel ?? interaction.channelId),
                  })
                ).outlets
              : [],
          )
          .then((outlets) =>
            outlets
              .filter((name) => name.toLowerCase().includes(focused.value.trim().toLowerCase()))
              .slice(0, 25)
              .map((name) => ({ name, value: name })),
          )
      : fromArchive;
  },
} satisfies Command<typeof Options>;

/** Makes the change the options ask for; returns what it did, in words (nothing for `show`). */
async function change(
  ctx: CommandContext,
  options: Options,
  place: { guildId: string; channelId: string },
  interaction: ChatInputIncoming | MessageContextMenuIncoming,
): Promise<string | undefined> {
  const here = channelMention(place.channelId);
  const set = (changed: ChannelSettingsChange) =>
    writing(ctx, (store) => store.settings.change(place, changed, ctx.now()));
  const by = interaction.userName ?? interaction.userId;
  const log = (what: string) =>
    ctx.logger.info('channel settings changed', { ...place, what, by: interaction.userId, name: by });
  switch (options.subcommandGroup) {
    case 'channels':
      return changeChannels(ctx, options, place, log);
    case 'outlets':
      return changeOutlets(ctx, options, place, set, log);
    default:
  }
  switch (options.subcommand) {
    case 'show':
      return undefined;
    case 'thread-mode': {
      const on = required(options.on, '`/settings thread-mode` needs `on`: true or false.');
      await set({ threadMode: on });
      log(`thread mode ${on ? 'on' : 'off'}`);
      return `Thread mode is now ${on ? 'on' : 'off'} in ${here}.`;
    }
    case 'visibility': {
      const answers = required(options.answers, '`/settings visibility` needs `answers`: public or private.');
      await set({ visibility: answers });
      log(`answers ${answers}`);
      return `Answers in ${here} are now ${answers} by default.`;
    }
    case 'reset': {
      const had = await writing(ctx, (store) => store.settings.reset(place));
      log('reset');
      return had
        ? `The settings of ${here} are back to the defaults.`
        : `${here} had no settings of its own; it keeps the defaults.`;
    }
    default:
      throw new UserError(
        'bad-option',
        `\`/settings ${options.subcommand}\` needs \`channels\` or \`outlets\` before it.`,
      );
  }
}

async function changeChannels(
  ctx: CommandContext,
  options: Options,
  place: { guildId: string; channelId: string },
  log: (what: string) => void,
): Promise<string> {
  const here = channelMention(place.channelId);
  if (options.subcommand === 'everywhere') {
    const cleared = await writing(ctx, (store) => store.settings.answerEverywhere(place.guildId));
    log('answer everywhere');
    return cleared === 0
      ? 'The bot already answers in every channel of this server.'
      : 'The bot now answers in every channel of this server again.';
  }
  if (options.subcommand !== 'add' && options.subcommand !== 'remove')
    throw new UserError('bad-option', '`/settings channels` takes `add`, `remove` or `everywhere`.');
  if (!options.channel)
    throw new UserError('bad-option', `\`/settings channels ${options.subcommand}\` needs \`channel\`.`);
  if (options.subcommand === 'add') {
    const outcome = await writing(ctx, async (store: RecordStore) => {
      const listed = await store.settings.answerChannels(place.guildId);
      if (listed.includes(place.channelId)) return { added: false, listed };
      if (listed.length >= MAX_ANSWER_CHANNELS) return { added: false, full: true, listed };
      await store.settings.addAnswerChannel(place, ctx.now());
      return { added: true, listed: [...listed, place.channelId] };
    });
    if ('full' in outcome)
      throw new UserError(
        'too-many-channels',
        `The bot answers in at most ${MAX_ANSWER_CHANNELS} listed channels; remove one first (\`/settings channels remove\`).`,
      );
    log('answer channel added');
    const others =
      outcome.listed.length === 1 ? ' Questions asked elsewhere get a private pointer here.' : '';
    return outcome.added
      ? `The bot now answers in ${here}; it answers only in ${channelList(outcome.listed)}.${others}`
      : `${here} is already an answer channel; the bot answers only in ${channelList(outcome.listed)}.`;
  }
  const removed = await writing(ctx, (store) => store.settings.removeAnswerChannel(place));
  const listed = await writing(ctx, (store) => store.settings.answerChannels(place.guildId));
  if (!removed)
    throw new UserError(
      'not-an-answer-channel',
      listed.length === 0
        ? `${here} is not listed: the bot answers in every channel of this server. \`/settings channels add\` lists one.`
        : `${here} is not listed; the bot answers only in ${channelList(listed)}.`,
    );
  log('answer channel removed');
  return listed.length === 0
    ? `${here} is no longer listed; no channel is, so the bot answers in every channel again.`
    : `The bot no longer answers in ${here}; it answers only in ${channelList(listed)}.`;
}

async function changeOutlets(
  ctx: CommandContext,
  options: Options,
  place: { guildId: string; channelId: string },
  set: (changed: ChannelSettingsChange) => Promise<unknown>,
  log: (what: string) => void,
): Promise<string> {
  const here = channelMention(place.channelId);
  if (options.subcommand === 'all') {
    await set({ outlets: [] });
    log('every outlet');
    return `Answers in ${here} now come from every outlet.`;
  }
  if (options.subcommand !== 'add' && options.subcommand !== 'remove')
    throw new UserError('bad-option', '`/settings outlets` takes `add`, `remove` or `all`.');
  const written = required(options.outlet, `\`/settings outlets ${options.subcommand}\` needs \`outlet\`.`);
  const current = (await writing(ctx, (store) => store.settings.of(place))).outlets;
  const key = written.toLowerCase();
  if (options.subcommand === 'remove') {
    const kept = current.filter((name) => name.toLowerCase() !== key);
    if (kept.length === current.length)
      throw new UserError(
        'unknown-outlet',
        current.length === 0
          ? `${here} draws from every outlet; there is none to remove.`
          : `“${escapeText(fitText(written, 100))}” is not one of ${here}’s outlets (${current.map(escapeText).join(', ')}).`,
      );
    await set({ outlets: kept });
    log('outlet removed');
    return kept.length === 0
      ? `Answers in ${here} now come from every outlet.`
      : `Answers in ${here} now come only from ${kept.map(escapeText).join(', ')}.`;
  }
  const outlet = ctx.library.engine.outlet(written);
  if (!outlet) throw new UserError('unknown-outlet', unknownOutlet(ctx, written));
  if (current.some((name) => name.toLowerCase() === outlet.name.toLowerCase()))
    return `${escapeText(outlet.name)} is already one of ${here}’s outlets.`;
  if (current.length >= MAX_OUTLETS)
    throw new UserError(
      'too-many-outlets',
      `A channel draws from at most ${MAX_OUTLETS} outlets; remove one first.`,
    );
  const outlets = [...current, outlet.name];
  await set({ outlets });
  log('outlet added');
  return `Answers in ${here} now come only from ${outlets.map(escapeText).join(', ')}.`;
}

/** The refusal for an outlet the archive does not have, naming some it has. */
export function unknownOutlet(ctx: Pick<CommandContext, 'library'>, written: string): string {
  const known = ctx.library.engine.outlets();
  const some = known
    .slice(0, 8)
    .map((outlet) => escapeText(outlet.name))
    .join(', ');
  return known.length === 0
    ? `“${escapeText(fitText(written, 100))}” is not an outlet in the archive: no article in it names its publisher.`
    : `“${escapeText(fitText(written, 100))}” is not an outlet in the archive. Pick one from the list as you type (${some}${known.length > 8 ? ', …' : ''}).`;
}

function required<T>(value: T | undefined, message: string): T {
  if (value === undefined) throw new UserError('bad-option', message);
  return value;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
