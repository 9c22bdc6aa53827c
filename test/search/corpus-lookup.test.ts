import { describe, expect, it } from 'vitest';
import type { Article } from '../../src/corpus/article.ts';
import { loadCorpus, makeCorpus } from '../../src/corpus/load-corpus.ts';
import { CorpusLookup } from '../../src/search/corpus-lookup.ts';
import { BUNDLED_CORPUS } from '../support/temp-corpus.ts';

function article(id: string, passageIds: readonly string[], title = id): Article {
  return {
    id,
    source: `${id}.md`,
    title,
    publisher: null,
    url: null,
    published: null,
    author: null,
    language: null,
    passages: passageIds.map((passageId, index) => ({
      id: passageId,
      articleId: id,
      paragraph: index + 1,
      index,
      text: `${title} ${passageId}`,
    })),
  };
}

describe('CorpusLookup', () => {
  it('finds every passage of a real corpus by its citation, and nothing by a citation it lacks', async () => {
    const corpus = await loadCorpus(BUNDLED_CORPUS);
    const lookup = CorpusLookup.of(corpus);
    for (const found of corpus.articles) {
      for (const passage of found.passages) {
        expect(lookup.byCitation.get(passage.id)).toStrictEqual({ article: found, passage });
      }
    }
    const first = corpus.articles[0]!;
    expect(lookup.byCitation.get(`${first.id}#9999`)).toBeUndefined();
    expect(lookup.byCitation.get('no-such-article#1')).toBeUndefined();
    expect(lookup.byCitation.get(first.id)).toBeUndefined();
  });

  it('finds passages whose ids are not of the loader’s form, in articles of hundreds of passages too', () => {
    const many = Array.from({ length: 300 }, (_, i) => `long#${i + 1}`);
    const corpus = makeCorpus([
      article('a#b', ['a#b#1', 'a#b#2']),
      article('odd', ['odd-1', 'other#7']),
      article('long', many),
    ]);
    const lookup = CorpusLookup.of(corpus);
    expect(lookup.byCitation.get('a#b#2')?.passage.text).toBe('a#b a#b#2');
    expect(lookup.byCitation.get('odd-1')?.article.id).toBe('odd');
    expect(lookup.byCitation.get('other#7')?.article.id).toBe('odd');
    expect(lookup.byCitation.get('long#250')?.passage.index).toBe(249);
    expect(lookup.byCitation.get('long#301')).toBeUndefined();
    expect(lookup.passageCount).toBe(304);
  });

  it('keeps what a map of every passage kept when two articles share an id: the later one’s passage wins', () => {
    const lookup = CorpusLookup.of(
      makeCorpus([article('d', ['d#1', 'd#2'], 'first'), article('d', ['d#2', 'd#3'], 'second')]),
    );
    expect(lookup.byCitation.get('d#1')?.article.title).toBe('first');
    expect(lookup.byCitation.get('d#2')?.article.title).toBe('second');
    expect(lookup.byCitation.get('d#3')?.article.title).toBe('second');
    expect(lookup.byArticleId.get('d')?.title).toBe('second');
  });
});
