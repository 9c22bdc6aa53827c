import { ChannelType, InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import { checkFilter, FilterRefusedError, parseFilterWords } from '../src/feeds/feed-filter.ts';
import { describeFailure } from '../src/feeds/feed-poller.ts';
import type { Command, CommandContext } from '../src/interactions/command.ts';
import { UserError } from '../src/interactions/errors.ts';
import type { FeedsAdministration } from '../src/interactions/library-view.ts';
import { code } from '../src/interactions/render/citation.ts';
import { escapeText } from '../src/interactions/render/escape.ts';
import {
  renderAlertsChannel,
  renderFeedAdded,
  renderFeedFilter,
  renderFeedList,
} from '../src/interactions/render/feeds.ts';

const channelId = z.string().regex(/^\d{17,20}$/);
const url = z.string().trim().min(1).max(2000);
const Options = z.discriminatedUnion('subcommand', [
  z.object({
    subcommand: z.literal('add'),
    url,
    channel: channelId.optional(),
    thread: z.boolean().optional(),
  }),
  z.object({ subcommand: z.literal('remove'), url }),
  z.object({ subcommand: z.literal('list') }),
  z.object({
    subcommand: z.literal('filter'),
    url,
    include: z.string().max(1000).optional(),
    exclude: z.string().max(1000).optional(),
    clear: z.boolean().optional(),
  }),
  z.object({ subcommand: z.literal('alerts'), channel: channelId.optional(), off: z.boolean().optional() }),
]);

/** The channels feeds post articles in: text, announcement and forum channels. */
const POST_CHANNELS = [ChannelType.GuildText, ChannelType.GuildAnnouncement, ChannelType.GuildForum] as const;

/** `/feeds add|remove|list`: moderators choose the RSS, Atom and JSON feeds whose new items are added. */
export default {
  data: new SlashCommandBuilder()
    .setName('feeds')
    .setDescription('Follow news feeds: their new articles are added to the corpus (moderators)')
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((sub) =>
      sub
        .setName('add')
        .setDescription('Follow an RSS, Atom or JSON feed')
        .addStringOption((o) =>
          o.setName('url').setDescription('The feed link').setRequired(true).setMaxLength(2000),
        )
        .addChannelOption((o) =>
          o
            .setName('channel')
            .setDescription('Post each new article here (a forum channel: a post each)')
            .addChannelTypes(...POST_CHANNELS),
        )
        .addBooleanOption((o) =>
          o.setName('thread').setDescription('Open a thread on each article posted (text channels)'),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('remove')
        .setDescription('Stop following a feed (its articles stay)')
        .addStringOption((o) =>
          o
            .setName('url')
            .setDescription('The feed to stop following')
            .setRequired(true)
            .setAutocomplete(true)
            .setMaxLength(2000),
        ),
    )
    .addSubcommand((sub) =>
      sub.setName('list').setDescription('The feeds followed, their last poll and errors'),
    )
    .addSubcommand((sub) =>
      sub
        .setName('filter')
        .setDescription("Keep only a feed's items naming some words, or skip those naming others")
        .addStringOption((o) =>
          o
            .setName('url')
            .setDescription('The feed')
            .setRequired(true)
            .setAutocomplete(true)
            .setMaxLength(2000),
        )
        .addStringOption((o) =>
          o
            .setName('include')
            .setDescription('Keep items naming any of these words, separated by commas')
            .setMaxLength(1000),
        )
        .addStringOption((o) =>
          o
            .setName('exclude')
            .setDescription('Skip items naming any of these words, separated by commas')
            .setMaxLength(1000),
        )
        .addBooleanOption((o) => o.setName('clear').setDescription('Remove the filter: keep every item')),
    )
    .addSubcommand((sub) =>
      sub
        .setName('alerts')
        .setDescription('Where moderators hear that a feed fails or goes silent, and recovers')
        .addChannelOption((o) =>
          o
            .setName('channel')
            .setDescription("The moderators' channel")
            .addChannelTypes(ChannelType.GuildText, ChannelType.GuildAnnouncement),
        )
        .addBooleanOption((o) => o.setName('off').setDescription('Send no more alerts')),
    ),
  options: Options,
  access: 'moderators',
  isPrivate: () => true,
  async execute(ctx, options, interaction) {
    const feeds = requireFeeds(ctx);
    if (options.subcommand === 'list') return renderFeedList(feeds.list(), ctx.now(), feeds.settings());
    if (options.subcommand === 'filter') {
      const given = options.include !== undefined || options.exclude !== undefined;
      if (options.clear && given)
        throw new UserError(
          'bad-option',
          'Give `clear:True` alone, or words to `include` or `exclude`, not both.',
        );
      const current = feeds.list().find((feed) => feed.url === options.url);
      if (!current)
        throw new UserError('unknown-feed', `No followed feed has the link ${code(options.url)}.`);
      if (!options.clear && !given) return renderFeedFilter(current);
      let filter: { include: string[]; exclude: string[] } | undefined;
      try {
        filter = options.clear
          ? undefined
          : checkFilter({
              include: parseFilterWords(
                options.include ?? current.filter?.include.join(', ') ?? '',
                'include',
              ),
              exclude: parseFilterWords(
                options.exclude ?? current.filter?.exclude.join(', ') ?? '',
                'exclude',
              ),
            });
      } catch (error) {
        if (error instanceof FilterRefusedError) throw new UserError('bad-option', error.message);
        throw error;
      }
      if (filter && filter.include.length === 0 && filter.exclude.length === 0) filter = undefined;
      const changed = await feeds.setFilter(options.url, filter);
      if (!changed)
        throw new UserError('unknown-feed', `No followed feed has the link ${code(options.url)}.`);
      return renderFeedFilter(changed);
    }
    if (options.subcommand === 'alerts') {
      if (options.off && options.channel)
        throw new UserError('bad-option', 'Give a `channel` for the alerts, or `off:True`, not both.');
      if (options.off || options.channel) {
        try {
          await feeds.setAlertsChannel(options.off ? undefined : options.channel);
        } catch (error) {
          const reason = describeFailure(error);
          if (reason === undefined) throw error;
          throw new UserError('feed-refused', `The alerts channel was not set: ${reason}`);
        }
      }
      return renderAlertsChannel(feeds.settings(), ctx.config.FEED_SILENT_HOURS);
    }
    if (options.subcommand === 'remove') {
      if (!(await feeds.remove(options.url))) {
        throw new UserError('unknown-feed', `No followed feed has the link ${code(options.url)}.`);
      }
      return {
        content: `Stopped following ${escapeText(options.url)}. The articles it brought stay in the corpus.`,
      };
    }
    if (options.thread && !options.channel)
      throw new UserError(
        'bad-option',
        'Name the `channel` to post in: `thread` opens a thread on each post there.',
      );
    try {
      const added = await feeds.add(
        options.url,
        { id: interaction.userId, name: interaction.userName ?? interaction.userId },
        options.channel ? { post: { channelId: options.channel, thread: options.thread ?? false } } : {},
      );
      void feeds.pollDue();
      return renderFeedAdded(
        added.record,
        added.items,
        ctx.config.FEED_POLL_MINUTES,
        ctx.config.FEED_POSTS_PER_POLL,
      );
    } catch (error) {
      const reason = describeFailure(error);
      if (reason === undefined) throw error;
      throw new UserError('feed-refused', `The feed was not added: ${reason}`);
    }
  },
  autocomplete(ctx, focused) {
    const feeds = ctx.feeds;
    if (focused.name !== 'url' || feeds === undefined || focused.value.length > 2000) return [];
    const typed = focused.value.toLowerCase();
    return feeds
      .list()
      .filter((feed) => `${feed.title ?? ''} ${feed.url}`.toLowerCase().includes(typed))
      .slice(0, 25)
      .map((feed) => ({ name: `${feed.title ?? 'Feed'} (${feed.url})`.slice(0, 100), value: feed.url }));
  },
} satisfies Command<typeof Options>;

function requireFeeds(ctx: CommandContext): FeedsAdministration {
  const feeds = ctx.feeds;
  if (!feeds) {
    throw new UserError(
      'feeds-unavailable',
      'This bot follows no feeds: it was started without a corpus folder it can edit.',
    );
  }
  return feeds;
}
