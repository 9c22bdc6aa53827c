import { SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import type { Article } from '../src/corpus/article.ts';
import { publishedDay } from '../src/corpus/published-date.ts';
import { periodOf } from '../src/interactions/answer-question.ts';
import type { Command } from '../src/interactions/command.ts';
import { staleButton } from '../src/interactions/errors.ts';
import type { EngineView } from '../src/interactions/library-view.ts';
import { readSourcesView, renderSources, type SourcesView } from '../src/interactions/render/sources.ts';
import { inPeriod } from '../src/search/period.ts';

/** Longest `/sources` query; it rides in the page buttons' custom_ids, which hold 100 characters. */
const MAX_QUERY_LENGTH = 80;
/** Articles found by their text, at most: a hundred pages of ten. */
const MAX_TEXT_MATCHES = 1000;

const SourcesOptions = z.object({
  query: z.string().trim().max(MAX_QUERY_LENGTH).default(''),
  order: z.enum(['newest', 'oldest']).optional(),
  since: z.string().trim().max(40).optional(),
  until: z.string().trim().max(40).optional(),
  page: z.number().int().min(1).max(100_000).optional(),
});

export default {
  data: new SlashCommandBuilder()
    .setName('sources')
    .setDescription('List the articles in the archive')
    .addStringOption((o) =>
      o
        .setName('query')
        .setDescription(
          'Only articles whose title, publisher or id contains this, or whose text has these words',
        )
        .setMaxLength(MAX_QUERY_LENGTH),
    )
    .addStringOption((o) =>
      o
        .setName('order')
        .setDescription('By publication date (undated articles last)')
        .addChoices({ name: 'newest first', value: 'newest' }, { name: 'oldest first', value: 'oldest' }),
    )
    .addStringOption((o) =>
      o
        .setName('since')
        .setDescription('Published from: a year (2003), month (2015-08) or date')
        .setMaxLength(40),
    )
    .addStringOption((o) =>
      o
        .setName('until')
        .setDescription('Published until: a year (2003), month (2015-08) or date')
        .setMaxLength(40),
    )
    .addIntegerOption((o) => o.setName('page').setDescription('Jump to this page').setMinValue(1)),
  options: SourcesOptions,
  channelScoped: true,
  async execute(ctx, options) {
    const view: SourcesView = {
      ...(options.order ? { order: options.order } : {}),
      ...(options.since ? { since: options.since } : {}),
      ...(options.until ? { until: options.until } : {}),
    };
    const engine = ctx.library.engine;
    const page = (options.page ?? 1) - 1;
    const found = await listing(engine, options.query, view);
    return renderSources(found, page, options.query, engine.articles().length, view);
  },
  buttons: {
    /** `sources:page:<page>:<query>`: another page of the same listing, replacing this one. */
    'sources:page': {
      async execute(ctx, [page = '', ...query], press) {
        const target = Number.parseInt(page, 10);
        if (!Number.isInteger(target) || target < 0) throw staleButton('run /sources again');
        const text = query.join(':').slice(0, MAX_QUERY_LENGTH);
        const view = readSourcesView(press.message.embeds);
        const engine = ctx.library.engine;
        const found = await listing(engine, text, view);
        return { update: renderSources(found, target, text, engine.articles().length, view) };
      },
    },
  },
} satisfies Command<typeof SourcesOptions>;

/**
 * The articles `/sources` lists: those whose title, publisher or id holds the query, then those whose
 * text has all its words (most relevant first); in the period, in the order asked.
 */
async function listing(engine: EngineView, query: string, view: SourcesView): Promise<readonly Article[]> {
  const period = periodOf(view);
  const named = matching(engine.articles(), query);
  const listed = new Set(named.map((article) => article.id));
  const mentioning =
    query.trim() === ''
      ? []
      : (await engine.articlesMentioningAsync(query, MAX_TEXT_MATCHES)).filter(
          (article) => !listed.has(article.id),
        );
  const shown = [...named, ...mentioning].filter((article) => !period || inPeriod(article.published, period));
  if (!view.order) return shown;
  const sign = view.order === 'newest' ? -1 : 1;
  // Undated articles go last either way: their place in time is unknown.
  return [...shown].sort((a, b) =>
    a.published === null || b.published === null
      ? Number(a.published === null) - Number(b.published === null)
      : sign * publishedDay(a.published).localeCompare(publishedDay(b.published)),
  );
}

/** Case- and accent-insensitive substring match on title, publisher and id. */
function matching(articles: readonly Article[], query: string): readonly Article[] {
  const needle = fold(query.trim());
  if (needle === '') return articles;
  return articles.filter((article) =>
    [article.title, article.publisher ?? '', article.id].some((field) => fold(field).includes(needle)),
  );
}

function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}
