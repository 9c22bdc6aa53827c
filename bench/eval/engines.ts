import type { Corpus } from '../../src/corpus/article.ts';
import { Engine } from '../../src/search/engine.ts';
import type { RankingModel } from '../../src/search/ranking-model.ts';
import type { RetrievalSettings } from '../../src/search/retrieval.ts';
import { lunrDefaults } from '../engines/lunr.ts';
import { buildMiniSearchDefaultsTopK } from '../engines/minisearch-defaults-top-k.ts';
import type { CorpusName } from './corpora.ts';
import type { SearchIndex } from './runs.ts';

/** An engine the evaluation compares, and the corpora it is run on. */
export interface EvalEngine {
  name: string;
  /** Corpora it is built on; lunr is left out of the 24k corpus, where it takes minutes to build. */
  corpora: readonly CorpusName[];
  build(corpus: Corpus): SearchIndex | Promise<SearchIndex>;
}

/** This project's engine as the bot asks it (results carry the quote), then the peers with defaults. */
export function evalEngines(retrieval: RetrievalSettings, model?: RankingModel): EvalEngine[] {
  // With and without the date layer is one engine asked two ways: built once per corpus.
  const built = new WeakMap<Corpus, Engine>();
  const engineFor = (corpus: Corpus) => {
    const engine = built.get(corpus) ?? Engine.build(corpus, { retrieval, ...(model ? { model } : {}) });
    built.set(corpus, engine);
    return engine;
  };
  return [
    {
      name: 'newsdesk',
      corpora: ['seed', 'newsqa', 'full'],
      build(corpus) {
        const engine = engineFor(corpus);
        const reply = (question: string, limit: number) => {
          const answer = engine.answer(question, { limit });
          const outOfPeriod = answer.time?.named?.found === false;
          return {
            results: answer.results.map((result) => (outOfPeriod ? { ...result, outOfPeriod } : result)),
            assurance: answer.assurance,
            ...(answer.stories ? { stories: answer.stories } : {}),
          };
        };
        return {
          reply,
          search: (question, limit) => reply(question, limit).results,
          within: (question, article, limit) =>
            engine.answer(question, { limit, articleId: article }).results,
          followUps: {
            article: (id) => engine.article(id),
            answer: (question, options) => engine.answer(question, options),
          },
        };
      },
    },
    {
      // The same engine without the date layer (time words in questions ignored), to show what it changes.
      name: 'newsdesk-no-dates',
      corpora: ['seed', 'newsqa', 'full'],
      build(corpus) {
        const engine = engineFor(corpus);
        return {
          search: (question, limit) => engine.answer(question, { limit, timeWords: false }).results,
        };
      },
    },
    // MiniSearch's default ranking computed into the first results only: the same results as
    // `MiniSearch.search` (checked by its test), for ~1/20 of the CPU time on the 24k corpus.
    { name: 'minisearch-defaults', corpora: ['seed', 'newsqa', 'full'], build: buildMiniSearchDefaultsTopK },
    { name: 'lunr-defaults', corpora: ['seed', 'newsqa'], build: lunrDefaults.build },
  ];
}
