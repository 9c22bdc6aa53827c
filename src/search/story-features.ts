import type { Article } from '../corpus/article.ts';
import type { Candidate } from './passage-features.ts';
import type { Features } from './ranking-model.ts';

/**
 * What the story model (`story-model.ts`) knows of one article a question's candidates come from:
 * whether it holds the answer, read from all its candidates in the re-ranked pool, not from its best
 * passage alone. Each feature is about 0..1, the score gaps -2..0.
 */
export const STORY_FEATURES = [
  /** Its best candidate's ranking score less the first candidate's, over 3 (at least -2). */
  'best',
  /** ...its second-best candidate's (-2 when it has one only). */
  'second',
  /** 1 / (1 + its place among the articles, by their best candidates). */
  'place',
  /** 1 / (1 + its best candidate's place among the candidates). */
  'bestRank',
  /** How many of the pool's candidates are its passages: log(1 + n) / log(41), at most 1. */
  'passages',
  /** Its BM25 score in the article index over the best article's (ranking feature `article`). */
  'article',
  /** 1 / (1 + its place in the article index), 0 when the index did not find it. */
  'articleRank',
  /** The most of the question's rarity-weighted terms one of its passages holds (ranking feature `coverage`). */
  'coverage',
  /** ...its passages and the article together hold (`articleCoverage`). */
  'articleCoverage',
  /** Its candidates' best confidence of answering (0 past the candidates judged). */
  'confidence',
] as const;
export type StoryFeature = (typeof STORY_FEATURES)[number];

/** One article a question's candidates come from, with its features. */
export interface StoryRow {
  article: Article;
  features: Features<StoryFeature>;
}

const GAP_SCALE = 3;
const GAP_FLOOR = -2;
const POOL_SCALE = Math.log(41);

/** Every article of the ranked `candidates` (best first) with its story features, in the order of its best candidate. */
export function storyRows(candidates: readonly Candidate[]): StoryRow[] {
  const top = candidates[0]?.score ?? 0;
  const gap = (score: number) => Math.max(GAP_FLOOR, (score - top) / GAP_SCALE);
  const byArticle = new Map<string, { ranks: number[]; candidates: Candidate[] }>();
  for (const [rank, candidate] of candidates.entries()) {
    const id = candidate.located.article.id;
    const entry = byArticle.get(id);
    if (entry === undefined) byArticle.set(id, { ranks: [rank], candidates: [candidate] });
    else {
      entry.ranks.push(rank);
      entry.candidates.push(candidate);
    }
  }
  const rows: StoryRow[] = [];
  for (const { ranks, candidates: own } of byArticle.values()) {
    const best = own[0]!;
    let coverage = 0;
    let articleCoverage = 0;
    let confidence = 0;
    for (const candidate of own) {
      coverage = Math.max(coverage, candidate.features.coverage);
      articleCoverage = Math.max(articleCoverage, candidate.features.articleCoverage);
      confidence = Math.max(confidence, candidate.confidence);
    }
    rows.push({
      article: best.located.article,
      features: {
        best: gap(best.score),
        second: own[1] === undefined ? GAP_FLOOR : gap(own[1].score),
        place: 1 / (1 + rows.length),
        bestRank: 1 / (1 + ranks[0]!),
        passages: Math.min(1, Math.log(1 + own.length) / POOL_SCALE),
        article: best.features.article,
        articleRank: best.articleRank === null ? 0 : 1 / (1 + best.articleRank),
        coverage,
        articleCoverage,
        confidence,
      },
    });
  }
  return rows;
}
