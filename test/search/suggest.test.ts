import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { Engine } from '../../src/search/engine.ts';

describe('autocomplete suggestions', () => {
  let engine: Engine;

  beforeAll(async () => {
    engine = Engine.build(await loadCorpus('corpus'));
  });

  it("/cite tete: an id prefix lists that article's passages first, in order", async () => {
    const citations = (await engine.suggestCitations('tete', 25)).map((entry) => entry.citation);
    const teteghem = engine.article('teteghem-mayor-threatened-with-gun')!.passages.map((p) => p.id);
    expect(citations.slice(0, teteghem.length)).toEqual(teteghem);
    expect(new Set(citations).size).toBe(citations.length);
  });

  it('a headline prefix, typed without case or accents, comes first too', async () => {
    const [first] = await engine.suggestCitations('FRENCH MAYOR SAYS', 5);
    expect(first?.citation).toBe('teteghem-mayor-threatened-with-gun#1');
  });

  it('words that start no id or headline still find the passages that hold them', async () => {
    const citations = (await engine.suggestCitations('Dhersin', 5)).map((entry) => entry.citation);
    expect(citations[0]).toMatch(/^teteghem-mayor-threatened-with-gun#/);
  });

  it('articles: an id or headline prefix ranks before a match inside a headline', () => {
    expect(engine.suggestArticles('calais-mayor', 3).map((article) => article.id)).toEqual([
      'calais-mayor-threatens-to-open-borders',
      'calais-mayor-renews-border-threat',
    ]);
    // "Britain" ends every headline: none starts with it, so all three match only inside.
    expect(engine.suggestArticles('britain', 3)).toHaveLength(3);
    expect(engine.suggestArticles('french', 3)[0]?.id).toBe('teteghem-mayor-threatened-with-gun');
  });
});
