import { SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import type { Article } from '../src/corpus/article.ts';
import type { Command } from '../src/interactions/command.ts';
import { UserError } from '../src/interactions/errors.ts';
import { renderSources } from '../src/interactions/render/sources.ts';

/** Longest `/sources` query; it rides in the page buttons' custom_ids, which hold 100 characters. */
const MAX_QUERY_LENGTH = 80;

const SourcesOptions = z.object({ query: z.string().trim().max(MAX_QUERY_LENGTH).default('') });

export default {
  data: new SlashCommandBuilder()
    .setName('sources')
    .setDescription('List the articles in the archive')
    .addStringOption((o) =>
      o
        .setName('query')
        .setDescription('Only articles whose title, publisher or id contains this')
        .setMaxLength(MAX_QUERY_LENGTH),
    ),
  options: SourcesOptions,
  execute(ctx, options) {
    const articles = ctx.library.engine.articles();
    return renderSources(matching(articles, options.query), 0, options.query, articles.length);
  },
  buttons: {
    /** `sources:page:<page>:<query>`: another page of the same listing, replacing this one. */
    'sources:page': {
      execute(ctx, [page = '', ...query]) {
        const target = Number.parseInt(page, 10);
        if (!Number.isInteger(target) || target < 0)
          throw new UserError('stale-button', 'This button no longer works; run /sources again.');
        const text = query.join(':').slice(0, MAX_QUERY_LENGTH);
        const articles = ctx.library.engine.articles();
        return { update: renderSources(matching(articles, text), target, text, articles.length) };
      },
    },
  },
} satisfies Command<typeof SourcesOptions>;

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
