import { describe, expect, it } from 'vitest';
import { answerFeatures, type RankedResult } from '../../src/search/answer-features.ts';
import {
  CONFIDENCE_FEATURES,
  type ConfidenceFeature,
  type Features,
} from '../../src/search/ranking-model.ts';

const first = Object.fromEntries(
  CONFIDENCE_FEATURES.map((name) => [name, 0.5]),
) as Features<ConfidenceFeature>;
const result = (article: string, score: number): RankedResult => ({
  score,
  article,
  articleRelevance: 1,
  passageRelevance: 0.8,
});

describe('answerFeatures', () => {
  it('reads how far the first result stands above the next and above another article', () => {
    const features = answerFeatures(first, 0.5, [
      result('a', 5),
      result('a', 4.5),
      result('b', 3.9),
      result('c', 1),
    ]);
    expect(features.coverageLogit).toBeCloseTo(0);
    expect(features.secondGap).toBeCloseTo(0.5);
    expect(features.otherArticleGap).toBeCloseTo(1.1);
    expect(features.articles).toBeCloseTo(3 / 5);
    expect(features.sameArticle).toBeCloseTo(2 / 3);
    expect(features).toMatchObject({ article: 1, passage: 0.8, specificity: 0.5 });
  });

  it('caps the gaps, and gives a lone result the widest', () => {
    const features = answerFeatures(first, 0.9, [result('a', 9)]);
    expect(features).toMatchObject({ secondGap: 3, otherArticleGap: 3, articles: 1 / 5, sameArticle: 1 / 3 });
  });
});
