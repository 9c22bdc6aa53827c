import type { Article, Corpus, Passage } from '../corpus/article.ts';
import { citedThroughArticle, passageCount } from '../corpus/shared-corpus.ts';
import { TimeSlicer } from '../event-loop.ts';

export interface Located {
  article: Article;
  passage: Passage;
}

/** Articles of more passages than this get a map of their own on their first lookup. */
const SCAN_LIMIT = 32;

/**
 * Passages by citation. A citation of the loader's form, `<article id>#<paragraph>[.<part>]`, is
 * found through its article rather than through a map of every passage: a hundred thousand map
 * entries cost a restored CLI call more time than its question. Citations of other forms are mapped.
 */
export class Citations {
  readonly #byArticleId: ReadonlyMap<string, Article>;
  readonly #irregular = new Map<string, Located>();
  readonly #large = new WeakMap<Article, Map<string, Passage>>();

  constructor(byArticleId: ReadonlyMap<string, Article>) {
    this.#byArticleId = byArticleId;
  }

  /** `replaced`: an article of the same id added before, which `article` hides from `byArticleId`. */
  add(article: Article, replaced?: Article): void {
    // Both are mapped in order, so that a citation they share names the later one's passage.
    if (replaced !== undefined) for (const passage of replaced.passages) this.#map(replaced, passage);
    // An article of a shared corpus knows without making its passages (the serving thread need not).
    else if (citedThroughArticle(article)) return;
    const hash = article.id.length;
    for (const passage of article.passages) {
      const { id } = passage;
      if (replaced === undefined && id.lastIndexOf('#') === hash && id.startsWith(article.id)) continue;
      this.#map(article, passage);
    }
  }

  #map(article: Article, passage: Passage): void {
    this.#irregular.set(passage.id, { article, passage });
  }

  get(citation: string): Located | undefined {
    const irregular = this.#irregular.get(citation);
    if (irregular !== undefined) return irregular;
    const article = this.#byArticleId.get(citation.slice(0, citation.lastIndexOf('#')));
    if (article === undefined) return undefined;
    const passage = this.#inArticle(article, citation);
    return passage === undefined ? undefined : { article, passage };
  }

  #inArticle(article: Article, citation: string): Passage | undefined {
    const { passages } = article;
    if (passages.length <= SCAN_LIMIT) return passages.find((passage) => passage.id === citation);
    let byId = this.#large.get(article);
    if (byId === undefined) {
      byId = new Map(passages.map((passage) => [passage.id, passage]));
      this.#large.set(article, byId);
    }
    return byId.get(citation);
  }
}

/** Finds articles by id and passages by citation. Filled one article at a time, so builds can yield. */
export class CorpusLookup {
  readonly byArticleId = new Map<string, Article>();
  readonly byCitation = new Citations(this.byArticleId);
  passageCount = 0;

  add(article: Article): void {
    const replaced = this.byArticleId.get(article.id);
    this.byArticleId.set(article.id, article);
    this.byCitation.add(article, replaced);
    this.passageCount += passageCount(article);
  }

  /** `of` in slices, yielding to the event loop: a large corpus has a hundred thousand passages. */
  static async ofAsync(corpus: Corpus): Promise<CorpusLookup> {
    const lookup = new CorpusLookup();
    const slicer = new TimeSlicer();
    for (const article of corpus.articles) {
      lookup.add(article);
      await slicer.pause();
    }
    return lookup;
  }

  /**
   * `of` for a corpus whose passage ids are all of the loader's form, `passageCounts[a]` passages in
   * article `a`: its passages are not read (each is found through its article when first asked for).
   */
  static ofCounted(corpus: Corpus, passageCounts: readonly number[]): CorpusLookup {
    const lookup = new CorpusLookup();
    for (const [a, article] of corpus.articles.entries()) {
      if (lookup.byArticleId.has(article.id)) {
        lookup.add(article);
        continue;
      }
      lookup.byArticleId.set(article.id, article);
      lookup.passageCount += passageCounts[a]!;
    }
    return lookup;
  }

  static of(corpus: Corpus): CorpusLookup {
    const lookup = new CorpusLookup();
    for (const article of corpus.articles) lookup.add(article);
    return lookup;
  }
}
