import { join } from 'node:path';
import type { Article, Corpus } from '../../src/corpus/article.ts';
import { loadCorpus, makeCorpus } from '../../src/corpus/load-corpus.ts';

/** One corpus size of the benchmark. */
export interface BenchCorpus {
  /** Short name shown in tables: `newsqa`, `50k`, `full`. */
  name: string;
  /** What the corpus holds, for people reading the report. */
  description: string;
  corpus: Corpus;
  articleCount: number;
  passageCount: number;
}

/** Passage count the middle size grows to, by adding distractor articles in file order. */
export const MIDDLE_SIZE_PASSAGES = 50_000;

export function countPassages(articles: readonly Article[]): number {
  return articles.reduce((sum, article) => sum + article.passages.length, 0);
}

/**
 * The shortest prefix of `articles` holding at least `passages` passages (all of them when there are
 * fewer). Taking prefixes in file order keeps every run's corpus identical.
 */
export function prefixWithPassages(articles: readonly Article[], passages: number): Article[] {
  let total = 0;
  let end = 0;
  while (end < articles.length && total < passages) {
    total += articles[end]!.passages.length;
    end += 1;
  }
  return articles.slice(0, end);
}

/**
 * The benchmark's three corpora, smallest first, from `dataDir` (the layout of `../shared/data`):
 * NewsQA alone (about 10,000 passages); NewsQA plus BBC, then Reuters, up to about 50,000 passages;
 * and NewsQA + BBC + Reuters in full. Every size holds all NewsQA articles so hit@5 stays comparable
 * and the rest act as distractors.
 */
export async function assembleBenchCorpora(dataDir: string): Promise<BenchCorpus[]> {
  const [newsqa, bbc, reuters] = await Promise.all([
    loadCorpus(join(dataDir, 'newsqa', 'articles.jsonl')),
    loadCorpus(join(dataDir, 'bbc', 'bbc.jsonl')),
    loadCorpus(join(dataDir, 'reuters', 'reuters21578.jsonl')),
  ]);
  const distractors = [...bbc.articles, ...reuters.articles];
  const middleDistractors = prefixWithPassages(
    distractors,
    MIDDLE_SIZE_PASSAGES - countPassages(newsqa.articles),
  );
  const sizes: { name: string; description: string; articles: Article[] }[] = [
    { name: 'newsqa', description: 'NewsQA articles only', articles: newsqa.articles },
    {
      name: '50k',
      description: `NewsQA + the first ${middleDistractors.length} BBC/Reuters articles`,
      articles: [...newsqa.articles, ...middleDistractors],
    },
    { name: 'full', description: 'NewsQA + BBC + Reuters', articles: [...newsqa.articles, ...distractors] },
  ];
  return sizes.map(({ name, description, articles }) => ({
    name,
    description,
    corpus: makeCorpus(articles),
    articleCount: articles.length,
    passageCount: countPassages(articles),
  }));
}
