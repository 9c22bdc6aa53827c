import type { Article } from '../corpus/article.ts';
import { analyze } from '../search/analyze.ts';
import { publisherKey } from '../search/outlets.ts';
import { sameFact, termSet } from '../search/same-fact.ts';

/** One new article of a digest, as it is shown. */
export interface DigestArticle {
  id: string;
  title: string;
  publisher: string | null;
  url: string | null;
  published: string | null;
  /** The first paragraph, verbatim. */
  lede: string;
}

/** New articles reporting one story: the first report leads, the others follow. */
export interface DigestStory {
  lead: DigestArticle;
  articles: DigestArticle[];
  /** The outlets that reported it, each once, in the order of `articles`. */
  outlets: string[];
}

/** Which new articles a digest takes: on a topic (every word of it), from some outlets; both optional. */
export interface StoryFilter {
  topic?: string | null;
  outlets?: readonly string[];
}

/** Paragraphs of an article compared to tell whether two articles report one story: the lede and the next. */
const COMPARED_PARAGRAPHS = 2;

/** Whether an article is one the digest takes. */
export function matchesFilter(article: Article, filter: StoryFilter): boolean {
  if (filter.outlets && filter.outlets.length > 0) {
    const wanted = new Set(filter.outlets.map(publisherKey));
    if (!article.publisher || !wanted.has(publisherKey(article.publisher))) return false;
  }
  const topic = filter.topic ? analyze(filter.topic) : [];
  if (topic.length === 0) return true;
  const words = termSet([article.title, ...article.passages.map((passage) => passage.text)].join('\n'));
  return topic.every((term) => words.has(term));
}

/**
 * The articles grouped by story, top stories first. Two articles are one story when their headline
 * and opening paragraphs report the same fact, by the test answers use to group outlets' reports
 * (`sameFact`, src/search/same-fact.ts), every word counted alike: a digest's handful of articles has
 * no rarity of its own to weigh words by. Grouping is transitive. A story reported by more outlets
 * comes first, then one with more articles, then the most recently arrived (`articles` in arrival order).
 */
export function storiesOf(articles: readonly Article[], filter: StoryFilter = {}): DigestStory[] {
  const taken = articles.filter((article) => matchesFilter(article, filter));
  const terms = taken.map((article) =>
    termSet([article.title, ...article.passages.slice(0, COMPARED_PARAGRAPHS).map((p) => p.text)].join('\n')),
  );
  const parent = taken.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  for (let i = 0; i < taken.length; i++) {
    for (let j = i + 1; j < taken.length; j++) {
      if (root(i) === root(j)) continue;
      if (sameFact(terms[i] as Set<string>, terms[j] as Set<string>, () => 1)) parent[root(j)] = root(i);
    }
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < taken.length; i++) {
    const key = root(i);
    groups.set(key, [...(groups.get(key) ?? []), i]);
  }
  const stories = [...groups.values()].map((members) => {
    // The first report leads: the earliest published, else the first to arrive.
    const ordered = [...members].sort((a, b) => {
      const pa = taken[a]?.published ?? '\uffff';
      const pb = taken[b]?.published ?? '\uffff';
      return pa < pb ? -1 : pa > pb ? 1 : a - b;
    });
    const shown = ordered.map((i) => digestArticle(taken[i] as Article));
    const outlets: string[] = [];
    for (const article of shown) {
      if (
        article.publisher &&
        !outlets.some((o) => publisherKey(o) === publisherKey(article.publisher ?? ''))
      )
        outlets.push(article.publisher);
    }
    return {
      story: { lead: shown[0] as DigestArticle, articles: shown, outlets },
      latest: Math.max(...members),
    };
  });
  stories.sort(
    (a, b) =>
      b.story.outlets.length - a.story.outlets.length ||
      b.story.articles.length - a.story.articles.length ||
      b.latest - a.latest,
  );
  return stories.map((entry) => entry.story);
}

function digestArticle(article: Article): DigestArticle {
  return {
    id: article.id,
    title: article.title,
    publisher: article.publisher,
    url: article.url,
    published: article.published,
    lede: article.passages[0]?.text ?? '',
  };
}
