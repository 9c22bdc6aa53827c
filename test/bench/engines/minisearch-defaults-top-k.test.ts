// @module-tag shared-data (reads ../shared: skipped in a clone without it, run in CI)
import MiniSearch from 'minisearch';
import { beforeAll, describe, expect, it } from 'vitest';
import { peerDocuments } from '../../../bench/engines/engine-adapter.ts';
import { buildMiniSearchDefaultsTopK } from '../../../bench/engines/minisearch-defaults-top-k.ts';
import { evalCorpus } from '../../../bench/eval/corpora.ts';
import { runQuestions } from '../../../bench/eval/runs.ts';
import type { Article, Corpus } from '../../../src/corpus/article.ts';

// The eval reports this index's results as "MiniSearch defaults", so they must be MiniSearch's own:
// the same passages in the same order, ties included, for real questions over real passages.
function miniSearchOf(corpus: Corpus): MiniSearch {
  const miniSearch = new MiniSearch({ fields: ['title', 'text'] });
  miniSearch.addAll(
    peerDocuments(corpus).map(({ passage, title }) => ({ id: passage.id, title, text: passage.text })),
  );
  return miniSearch;
}

function expectSameFirstResults(corpus: Corpus, questions: readonly string[], limit: number): void {
  const miniSearch = miniSearchOf(corpus);
  const topK = buildMiniSearchDefaultsTopK(corpus);
  const differing = questions.filter((question) => {
    const expected = miniSearch
      .search(question)
      .slice(0, limit)
      .map((result) => result.id as string);
    return JSON.stringify(topK.ids(question, limit)) !== JSON.stringify(expected);
  });
  expect(differing).toEqual([]);
}

describe('MiniSearch defaults, first results only', () => {
  let newsqa: Corpus;
  let questions: string[];

  beforeAll(async () => {
    newsqa = await evalCorpus('newsqa');
    const sample = async (run: 'newsqa' | 'off-topic' | 'bbc-reuters', count: number) =>
      (await runQuestions(run)).slice(0, count).map((question) => question.question);
    questions = [
      ...(await sample('newsqa', 80)),
      ...(await sample('off-topic', 40)),
      ...(await sample('bbc-reuters', 40)),
    ];
  }, 120_000);

  it('gives the first 5 and the first 20 results MiniSearch gives, over the NewsQA passages', () => {
    expectSameFirstResults(newsqa, questions, 5);
    expectSameFirstResults(newsqa, questions.slice(0, 40), 20);
  }, 120_000);

  it('orders passages of equal score as MiniSearch does (re-published articles repeat passages)', async () => {
    const seed = await evalCorpus('seed');
    const copies: Article[] = seed.articles.flatMap((article) => [
      article,
      {
        ...article,
        id: `${article.id}-copy`,
        passages: article.passages.map((passage) => ({
          ...passage,
          id: passage.id.replace(article.id, `${article.id}-copy`),
          articleId: `${article.id}-copy`,
        })),
      },
    ]);
    const seedQuestions = (await runQuestions('seed')).map((question) => question.question);
    expectSameFirstResults(
      { articles: copies, version: 'copies' },
      [...seedQuestions, 'the the mayor', '', '!!!'],
      6,
    );
  });

  it('returns nothing when asked for no results or when no question word is indexed', async () => {
    const topK = buildMiniSearchDefaultsTopK(await evalCorpus('seed'));
    expect(topK.ids('mayor', 0)).toEqual([]);
    expect(topK.ids('zzyzx qwxv', 5)).toEqual([]);
  });
});
