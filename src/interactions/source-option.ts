import type { Article } from '../corpus/article.ts';
import { publisherKey } from '../search/outlets.ts';
import { UserError } from './errors.ts';
import type { AutocompleteChoice } from './incoming.ts';
import type { EngineView } from './library-view.ts';
import { escapeText } from './render/escape.ts';
import { fitText } from './render/truncate.ts';

/** What `/ask source:` and the channel's outlets limit an answer to: one article, or some outlets. */
export interface SourceScope {
  article?: Article;
  /** Empty: every outlet. */
  outlets: readonly string[];
}

/**
 * `/ask source:` read as an article id (what autocomplete sends for an article), else as an outlet's
 * name (case and accents aside: "harbour gazette" is the Harbour Gazette). In a channel limited to some
 * outlets (`/settings outlets`), a source outside them is refused rather than quietly widened.
 */
export function resolveSource(
  engine: Pick<EngineView, 'article' | 'outlet'>,
  written: string | undefined,
  channelOutlets: readonly string[],
): SourceScope {
  if (written === undefined) return { outlets: channelOutlets };
  const allowed = new Set(channelOutlets.map(publisherKey));
  const refuseOutside = (what: string) => {
    throw new UserError(
      'outside-channel-outlets',
      `This channel answers only from ${channelOutlets.map(escapeText).join(', ')}; ${what}. Leave \`source\` out, or ask in another channel.`,
    );
  };
  const article = engine.article(written.trim());
  if (article) {
    if (allowed.size > 0 && !allowed.has(publisherKey(article.publisher ?? '')))
      refuseOutside(
        `*${fitText(article.title, 200, { render: escapeText })}* is ${article.publisher ? `from ${escapeText(article.publisher)}` : 'from no named outlet'}`,
      );
    return { article, outlets: [] };
  }
  const outlet = engine.outlet(written);
  if (outlet) {
    if (allowed.size > 0 && !allowed.has(publisherKey(outlet.name)))
      refuseOutside(`${escapeText(outlet.name)} is not one of them`);
    return { outlets: [outlet.name] };
  }
  throw new UserError(
    'unknown-source',
    `“${fitText(written.trim(), 100, { render: escapeText })}” is neither an article nor an outlet in the archive (an article may have been removed by a reload). Pick one from the list as you type, or leave it out.`,
  );
}

/** Autocomplete for `source`: the outlets matching what is typed first, then the articles. */
export function sourceChoices(
  engine: Pick<EngineView, 'suggestOutlets' | 'suggestArticles'>,
  typed: string,
  limit: number,
): AutocompleteChoice[] {
  const outlets = engine.suggestOutlets(typed, Math.min(5, limit)).map((outlet) => ({
    name: `Outlet: ${outlet.name} (${outlet.articles} article${outlet.articles === 1 ? '' : 's'})`,
    value: outlet.name,
  }));
  const articles = engine.suggestArticles(typed, limit - outlets.length).map((article) => ({
    name: article.publisher ? `${article.title} (${article.publisher})` : article.title,
    value: article.id,
  }));
  return [...outlets, ...articles];
}
