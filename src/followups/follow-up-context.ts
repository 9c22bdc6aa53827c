import type { Article } from '../corpus/article.ts';
import { entitiesOf } from '../text/entities.ts';

/**
 * What a follow-up is asked after: the earlier question and the story its answer cited (the article of
 * its first result, and that result's paragraph when known). Small enough to travel in a message's
 * footer and a custom_id, so nothing is kept in memory.
 */
export interface EarlierExchange {
  question: string;
  /** Article id of the story the earlier answer cited first. */
  article: string;
  /** That answer's first citation (`article#paragraph`), when known. */
  citation?: string;
}

/** How a follow-up is searched: the question as sent to the engine, and the article it is limited to. */
export interface FollowUpSearch {
  question: string;
  /** Answer only from this article (the earlier story). */
  articleId?: string;
  /** Asked when the search above finds nothing: the story may not hold the answer, the archive may. */
  fallback?: FollowUpSearch;
}

/**
 * Ways of carrying the earlier story into a follow-up, as `npm run eval` measures them on the
 * follow-up set (docs/quality.md has the figures):
 * - `none`: the follow-up alone, as if there were no context;
 * - `expand`: the follow-up with the story's names (people, places, organisations) added, over the archive;
 * - `scope`: the follow-up answered within the earlier story's article;
 * - `scope-expand`: within the article, with the names added.
 * - `scope-chain`: within the article as asked; when that finds nothing, within it with the names added.
 * - `scope-alone`: within the article; when that finds nothing, the follow-up alone over the archive.
 * The other scoped ways fall back to `expand` over the archive when the article holds nothing for it.
 */
export type ContextMethod = 'none' | 'expand' | 'scope' | 'scope-expand' | 'scope-chain' | 'scope-alone';
export const CONTEXT_METHODS: readonly ContextMethod[] = [
  'none',
  'expand',
  'scope',
  'scope-expand',
  'scope-chain',
  'scope-alone',
];

/** The way the bot answers follow-ups: the best on the tuning half of the follow-up set. */
export const ADOPTED_METHOD: ContextMethod = 'scope';

/** At most this many names are added to a question: more would outweigh the follow-up's own words. */
const MAX_NAMES = 6;

/**
 * The search that answers `followUp` in the context of `earlier`, whose story is `story` (null when it
 * has left the archive: the follow-up is then asked as it is).
 */
export function followUpSearch(
  followUp: string,
  earlier: EarlierExchange,
  story: Article | null,
  method: ContextMethod = ADOPTED_METHOD,
): FollowUpSearch {
  const asked = followUp.trim();
  if (method === 'none' || story === null) return { question: asked };
  const expanded = { question: withNames(asked, storyNames(earlier, story)) };
  if (method === 'expand') return expanded;
  const withinExpanded = { question: expanded.question, articleId: story.id, fallback: expanded };
  if (method === 'scope-expand') return withinExpanded;
  if (method === 'scope-alone')
    return { question: asked, articleId: story.id, fallback: { question: asked } };
  return {
    question: asked,
    articleId: story.id,
    fallback: method === 'scope-chain' ? withinExpanded : expanded,
  };
}

/**
 * The names that say which story it is: those of the headline, the earlier question and the cited
 * paragraph, in that order, each once. A member writes "he", "they", "that strike"; these stand in.
 */
export function storyNames(earlier: EarlierExchange, story: Article): string[] {
  const cited =
    story.passages.find((passage) => passage.id === earlier.citation) ?? story.passages[0] ?? null;
  const texts = [story.title, earlier.question, cited?.text ?? ''];
  const seen = new Set<string>();
  const names: string[] = [];
  for (const text of texts) {
    for (const entity of entitiesOf(text)) {
      if (entity.kind !== 'name') continue;
      const key = entity.text.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      names.push(entity.text);
    }
  }
  return names.slice(0, MAX_NAMES);
}

/** The follow-up with the names it does not already hold added after it. */
function withNames(question: string, names: readonly string[]): string {
  const lower = question.toLowerCase();
  const missing = names.filter((name) => !lower.includes(name.toLowerCase()));
  return missing.length === 0 ? question : `${question} ${missing.join(' ')}`;
}
