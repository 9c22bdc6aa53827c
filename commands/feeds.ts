import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import { describeFailure } from '../src/feeds/feed-poller.ts';
import type { Command, CommandContext } from '../src/interactions/command.ts';
import { UserError } from '../src/interactions/errors.ts';
import type { FeedsAdministration } from '../src/interactions/library-view.ts';
import { code } from '../src/interactions/render/citation.ts';
import { escapeText } from '../src/interactions/render/escape.ts';
import { renderFeedAdded, renderFeedList } from '../src/interactions/render/feeds.ts';

const Options = z.discriminatedUnion('subcommand', [
  z.object({ subcommand: z.literal('add'), url: z.string().trim().min(1).max(2000) }),
  z.object({ subcommand: z.literal('remove'), url: z.string().trim().min(1).max(2000) }),
  z.object({ subcommand: z.literal('list') }),
]);

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
    ),
  options: Options,
  access: 'moderators',
  isPrivate: () => true,
  async execute(ctx, options, interaction) {
    const feeds = requireFeeds(ctx);
    if (options.subcommand === 'list') return renderFeedList(feeds.list(), ctx.now());
    if (options.subcommand === 'remove') {
      if (!(await feeds.remove(options.url))) {
        throw new UserError('unknown-feed', `No followed feed has the link ${code(options.url)}.`);
      }
      return {
        content: `Stopped following ${escapeText(options.url)}. The articles it brought stay in the corpus.`,
      };
    }
    try {
      const added = await feeds.add(options.url, {
        id: interaction.userId,
        name: interaction.userName ?? interaction.userId,
      });
      void feeds.pollDue();
      return renderFeedAdded(added.record, added.items, ctx.config.FEED_POLL_MINUTES);
    } catch (error) {
      const reason = describeFailure(error);
      if (reason === undefined) throw error;
      throw new UserError('feed-refused', `The feed was not added: ${reason}`);
    }
  },
  autocomplete(ctx, focused) {
    const feeds = ctx.feeds;
    if (focused.name !== 'url' || feeds === undefined) return [];
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
