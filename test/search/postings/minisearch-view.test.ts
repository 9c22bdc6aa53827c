import MiniSearch, { type Options, type SearchOptions } from 'minisearch';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Corpus } from '../../../src/corpus/article.ts';
import { loadCorpus, makeCorpus } from '../../../src/corpus/load-corpus.ts';
import { analyze } from '../../../src/search/analyze.ts';
import { indexViews } from '../../../src/search/postings/minisearch-view.ts';
import { PostingBuilder } from '../../../src/search/postings/posting-builder.ts';
import { decodePostings, encodePostings } from '../../../src/search/postings/posting-codec.ts';
import type { PostingStore } from '../../../src/search/postings/posting-store.ts';
import { sharedData } from '../../support/shared-data.ts';

interface Doc {
  id: string;
  text: string;
  title?: string;
  context?: string;
}

const split = (text: string) => (text === '' ? [] : text.split(' '));
const PASSAGES: Options<Doc> = {
  fields: ['text', 'context'],
  storeFields: [],
  tokenize: split,
  processTerm: (t) => t,
};
const ARTICLES: Options<Doc> = { ...PASSAGES, fields: ['text', 'title'] };

/** The indexes as the engine filled them before postings: MiniSearch's own `add`, of joined terms. */
function addedIndexes(corpus: Corpus) {
  const passageIndex = new MiniSearch<Doc>(PASSAGES);
  const articleIndex = new MiniSearch<Doc>(ARTICLES);
  for (const article of corpus.articles) {
    const texts = article.passages.map((passage) => analyze(passage.text).join(' '));
    for (const [i, passage] of article.passages.entries()) {
      const context = `${texts[i - 1] ?? ''} ${texts[i + 1] ?? ''}`.trim();
      passageIndex.add({ id: passage.id, text: texts[i]!, context });
    }
    articleIndex.add({ id: article.id, text: texts.join(' '), title: analyze(article.title).join(' ') });
  }
  return { passageIndex, articleIndex };
}

function storeOf(corpus: Corpus): PostingStore {
  const builder = new PostingBuilder();
  for (const article of corpus.articles) {
    builder.add(
      analyze(article.title),
      article.passages.map((passage) => analyze(passage.text)),
    );
  }
  return builder.finish();
}

function views(corpus: Corpus, store: PostingStore, derivedBudget?: number) {
  const ids = {
    passages: corpus.articles.flatMap((article) => article.passages.map((passage) => passage.id)),
    articles: corpus.articles.map((article) => article.id),
  };
  return indexViews(store, ids, { passages: PASSAGES, articles: ARTICLES, derivedBudget });
}

/** Questions made of the corpus's own words: a few terms of every twentieth passage, one misspelt. */
function questions(corpus: Corpus): string[] {
  const asked: string[] = [];
  for (const [i, passage] of corpus.articles.flatMap((article) => article.passages).entries()) {
    if (i % 20 !== 0) continue;
    const terms = analyze(passage.text);
    const picked = [terms[1], terms[4], terms[9], terms.at(-1)].filter((term) => term !== undefined);
    const misspelt =
      picked[0] && picked[0].length >= 5 ? `${picked[0].slice(0, -2)}x${picked[0].slice(-1)}` : '';
    asked.push([...picked, misspelt].join(' ').trim());
  }
  return asked.filter((question) => question !== '');
}

const SEARCH: SearchOptions = {
  combineWith: 'OR',
  fuzzy: (term) => (term.length >= 5 ? 1 : false),
  weights: { fuzzy: 0.45, prefix: 0 },
  boost: { title: 2, context: 0.3 },
  tokenize: split,
  processTerm: (t) => t,
};

describe('MiniSearch over stored postings', { tags: ['shared-data'] }, () => {
  let corpus: Corpus;
  beforeAll(async () => {
    // The seed articles and a slice of BBC: single-passage articles, empty headlines' terms, neighbours.
    const seed = await loadCorpus('corpus');
    const bbc = await loadCorpus(sharedData('bbc'));
    corpus = makeCorpus([...seed.articles, ...bbc.articles.slice(0, 250)]);
  });

  it('scores every question as MiniSearch filled by add() does (to 9 decimals), before and after storing', {
    timeout: 120_000,
  }, () => {
    const added = addedIndexes(corpus);
    const store = storeOf(corpus);
    const stored = decodePostings(
      Buffer.concat(encodePostings(store)),
      corpus.articles.map((article) => article.passages.length),
    );
    const asked = questions(corpus);
    expect(asked.length).toBeGreaterThan(50);
    for (const candidate of [views(corpus, store), views(corpus, stored)]) {
      for (const question of asked) {
        for (const kind of ['passageIndex', 'articleIndex'] as const) {
          const expected = added[kind].search(question, SEARCH);
          const actual = candidate[kind].search(question, SEARCH);
          // Equal but for the last bits (misspellings' matches are summed in another order), which may
          // swap two hits of equal score.
          const byId = new Map(actual.map((hit) => [hit.id, hit]));
          expect(actual.length).toBe(expected.length);
          for (const hit of expected) {
            expect(byId.get(hit.id)?.score).toBeCloseTo(hit.score, 9);
            expect(byId.get(hit.id)?.match).toEqual(hit.match);
          }
        }
      }
    }
  });

  it('lets go of the derived postings of the terms searched least recently past its budget, and scores the same', {
    timeout: 120_000,
  }, () => {
    const store = storeOf(corpus);
    const unbounded = views(corpus, store, Number.POSITIVE_INFINITY);
    const bounded = views(corpus, store, 16 * 1024);
    const asked = questions(corpus);
    // Twice: the second time, most terms' derived postings were let go and are made again.
    for (const question of [...asked, ...asked]) {
      for (const kind of ['passageIndex', 'articleIndex'] as const) {
        expect(bounded[kind].search(question, SEARCH)).toEqual(unbounded[kind].search(question, SEARCH));
      }
    }
    expect(unbounded.derivedBytes()).toBeGreaterThan(150 * 1024);
    // Two indexes of 16 KB each, and the one term just searched may be larger than a budget.
    expect(bounded.derivedBytes()).toBeLessThan(unbounded.derivedBytes() / 4);
  });
});
