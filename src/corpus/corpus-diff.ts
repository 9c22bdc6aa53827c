import { TimeSlicer } from '../event-loop.ts';
import type { Article, Corpus } from './article.ts';
import { samePassages } from './shared-corpus.ts';

/** Which articles a new corpus adds, removes and changes, by id. */
export interface CorpusDiff {
  added: string[];
  removed: string[];
  /** Same id, different text or metadata. */
  changed: string[];
}

/** Compares two corpora article by article (text and metadata), yielding to the event loop as it goes. */
export async function diffCorpora(before: Corpus, after: Corpus): Promise<CorpusDiff> {
  const diff: CorpusDiff = { added: [], removed: [], changed: [] };
  if (before.version === after.version) return diff;
  // Comparing texts costs their length (equal strings read apart are different objects): slice by time.
  const slicer = new TimeSlicer();
  const old = new Map<string, Article>();
  for (const article of before.articles) {
    old.set(article.id, article);
    await slicer.pause();
  }
  for (const article of after.articles) {
    const previous = old.get(article.id);
    if (previous === undefined) diff.added.push(article.id);
    else if (!sameArticle(previous, article)) diff.changed.push(article.id);
    old.delete(article.id);
    await slicer.pause();
  }
  diff.removed = [...old.keys()];
  return diff;
}

function sameArticle(a: Article, b: Article): boolean {
  return (
    a.title === b.title &&
    a.publisher === b.publisher &&
    a.url === b.url &&
    a.published === b.published &&
    a.author === b.author &&
    a.language === b.language &&
    samePassages(a, b)
  );
}
