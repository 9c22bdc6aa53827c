import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { storiesOf } from '../../src/digests/stories.ts';
import { DATED_CORPUS } from '../support/temp-corpus.ts';

describe('a digest’s stories, over the dated fixtures', async () => {
  const { articles } = await loadCorpus(DATED_CORPUS);

  it('the three outlets’ reports of the terminal sale are one story, first; each strike event is its own', () => {
    const stories = storiesOf(articles);
    expect(stories[0]?.articles.map((a) => a.id).sort()).toEqual([
      'port-sale-courier',
      'port-sale-gazette',
      'port-sale-wire',
    ]);
    expect(stories[0]?.outlets).toHaveLength(3);
    // The first report leads: the earliest published.
    expect(stories[0]?.lead.id).toBe('port-sale-wire');
    const single = stories.slice(1).map((story) => story.articles.map((a) => a.id));
    expect(single.every((ids) => ids.length === 1)).toBe(true);
    expect(single.flat()).toContain('dock-strike-talks');
  });

  it('a topic takes the articles with all its words; outlets take theirs, named in any case', () => {
    const onSale = storiesOf(articles, { topic: 'Antwerp terminal' }).flatMap((s) =>
      s.articles.map((a) => a.id),
    );
    expect(onSale.sort()).toEqual(['port-sale-courier', 'port-sale-gazette', 'port-sale-wire']);
    const gazette = storiesOf(articles, { outlets: ['harbour gazette'] }).flatMap((s) => s.articles);
    expect(new Set(gazette.map((a) => a.publisher))).toEqual(new Set(['Harbour Gazette']));
    expect(storiesOf(articles, { topic: 'volcano' })).toEqual([]);
  });
});
