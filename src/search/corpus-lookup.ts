import type { Article, Corpus, Passage } from '../corpus/article.ts';

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

  static of(corpus: Corpus): CorpusLookup {
    const lookup = new CorpusLookup();
    for (const article of corpus.articles) lookup.add(article);
    return lookup;
  }
}
