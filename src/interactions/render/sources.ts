import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  ButtonStyle,
  ComponentType,
} from 'discord.js';
import type { Article } from '../../corpus/article.ts';
import { sourceLabel } from '../../corpus/citation.ts';
import type { Period } from '../../search/period.ts';
import type { ReplyPayload } from '../incoming.ts';
import { code } from './citation.ts';
import { escapeText, stripZeroWidth } from './escape.ts';
import { Limits } from './limits.ts';
import { customIds } from './query-state.ts';
import { fitText } from './truncate.ts';

/** Articles listed per page of `/sources`. */
export const SOURCES_PER_PAGE = 10;

/** How a `/sources` listing is ordered and narrowed; kept in its footer for the page buttons. */
export interface SourcesView extends Period {
  order?: 'newest' | 'oldest';
}

const VIEW_LINES = { order: 'Order: ', since: 'Since: ', until: 'Until: ' } as const;

/** The view a `/sources` page was rendered with, read back from its footer. */
export function readSourcesView(embeds: readonly APIEmbed[]): SourcesView {
  const lines = stripZeroWidth(embeds.at(-1)?.footer?.text ?? '').split('\n');
  const value = (prefix: string) => lines.find((line) => line.startsWith(prefix))?.slice(prefix.length);
  const order = value(VIEW_LINES.order);
  const since = value(VIEW_LINES.since);
  const until = value(VIEW_LINES.until);
  return {
    ...(order === 'newest' || order === 'oldest' ? { order } : {}),
    ...(since ? { since } : {}),
    ...(until ? { until } : {}),
  };
}

/** Previous / Next under page `current` (0-based) of `pages`; none for a single page. */
export function pageButtons(
  current: number,
  pages: number,
  customId: (page: number) => string,
): APIActionRowComponent<APIComponentInMessageActionRow>[] {
  if (pages <= 1) return [];
  const button = (label: string, target: number, disabled: boolean): APIButtonComponent => ({
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    label,
    custom_id: customId(target),
    disabled,
  });
  return [
    {
      type: ComponentType.ActionRow,
      components: [
        button('Previous', current - 1, current === 0),
        button('Next', current + 1, current >= pages - 1),
      ],
    },
  ];
}

/** One page (0-based) of the articles in the corpus, with Previous / Next buttons. */
export function renderSources(
  articles: readonly Article[],
  page: number,
  query: string,
  totalInCorpus: number,
  view: SourcesView = {},
): ReplyPayload {
  const pages = Math.max(1, Math.ceil(articles.length / SOURCES_PER_PAGE));
  const current = Math.min(Math.max(0, page), pages - 1);
  const shown = articles.slice(current * SOURCES_PER_PAGE, (current + 1) * SOURCES_PER_PAGE);
  const perLine = Math.floor((Limits.embedDescription - 100) / SOURCES_PER_PAGE);
  const lines = shown.map((article, index) => {
    const rank = current * SOURCES_PER_PAGE + index + 1;
    const paragraphs = new Set(article.passages.map((passage) => passage.paragraph)).size;
    const meta = sourceLabel(article);
    const tail = ` — ${escapeText(meta)} · ${paragraphs} paragraph${paragraphs === 1 ? '' : 's'} · ${code(article.id)}`;
    const title = fitText(article.title, Math.max(40, perLine - tail.length - 10), { render: escapeText });
    return `${rank}. **${title}**${tail.length < perLine - 40 ? tail : ` · ${code(fitText(article.id, 60))}`}`;
  });
  const period = [view.since ? `from ${view.since}` : '', view.until ? `until ${view.until}` : '']
    .filter(Boolean)
    .join(' ');
  const heading =
    query || period
      ? `Sources${query ? ` matching “${fitText(query, 80, { render: escapeText })}”` : ''}${period ? ` published ${escapeText(period)}` : ''}: ${articles.length} of ${totalInCorpus}`
      : `Sources: ${totalInCorpus} article${totalInCorpus === 1 ? '' : 's'}`;
  const embed: APIEmbed = {
    title: fitText(heading, Limits.embedTitle),
    description: lines.length > 0 ? lines.join('\n') : 'No article matches; try fewer words.',
    footer: {
      text: [
        `Page ${current + 1} of ${pages} · /cite <article>#<paragraph> quotes a paragraph`,
        ...(Object.keys(VIEW_LINES) as (keyof SourcesView)[]).flatMap((key) =>
          view[key] ? [`${VIEW_LINES[key]}${view[key]}`] : [],
        ),
      ].join('\n'),
    },
    color: 0x5865f2,
  };
  return {
    embeds: [embed],
    components: pageButtons(current, pages, (target) => customIds.sourcesPage(target, query)),
  };
}
