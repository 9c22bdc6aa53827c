import type { Article, Corpus, Passage } from '../corpus/article.ts';
import { TimeSlicer } from '../event-loop.ts';

export interface Located {
  article: Article;
  passage: Passage;
}

/** Finds articles by id and passages by citation. Filled one article at a time, so builds can yield. */
export class CorpusLookup {
  readonly byCitation = new Map<string, Located>();
  readonly byArticleId = new Map<string, Article>();
  passageCount = 0;

  add(article: Article): void {
    this.byArticleId.set(article.id, article);
    for (const passage of article.passages) this.byCitation.set(passage.id, { article, passage });
    this.passageCount += article.passages.length;
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

  static of(corpus: Corpus): CorpusLookup {
    const lookup = new CorpusLookup();
    for (const article of corpus.articles) lookup.add(article);
    return lookup;
  }
}
