import type { Article, Corpus } from '../corpus/article.ts';
import { yieldToEventLoop } from '../event-loop.ts';

/** Which articles a new corpus adds, removes and changes, by id. */
export interface CorpusDiff {
  added: string[];
  removed: string[];
  /** Same id, different text or metadata. */
  changed: string[];
}

/** Articles compared between two yields, so diffing a large corpus never stalls the event loop. */
const SLICE = 2000;

/** Compares two corpora article by article (text and metadata), yielding to the event loop as it goes. */
export async function diffCorpora(before: Corpus, after: Corpus): Promise<CorpusDiff> {
  const diff: CorpusDiff = { added: [], removed: [], changed: [] };
  if (before.version === after.version) return diff;
  const old = new Map(before.articles.map((article) => [article.id, article]));
  let sinceYield = 0;
  for (const article of after.articles) {
    const previous = old.get(article.id);
    if (previous === undefined) diff.added.push(article.id);
    else if (!sameArticle(previous, article)) diff.changed.push(article.id);
    old.delete(article.id);
    if (++sinceYield === SLICE) {
      sinceYield = 0;
      await yieldToEventLoop();
    }
  }
  diff.removed = [...old.keys()];
  return diff;
}

function sameArticle(a: Article, b: Article): boolean {
  if (
    a.title !== b.title ||
    a.publisher !== b.publisher ||
    a.url !== b.url ||
    a.published !== b.published ||
    a.author !== b.author ||
    a.language !== b.language ||
    a.passages.length !== b.passages.length
  ) {
    return false;
  }
  return a.passages.every(
    (passage, i) => passage.text === b.passages[i]?.text && passage.id === b.passages[i]?.id,
  );
}
