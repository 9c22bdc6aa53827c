import type { Corpus } from '../../src/corpus/article.ts';
import type { SerializedEngine } from '../../src/search/engine.ts';
import { Engine } from '../../src/search/engine.ts';
import type { BenchIndex, EngineAdapter } from './engine-adapter.ts';

function wrap(engine: Engine): BenchIndex {
  return {
    search: (question, limit) => engine.answer(question, { limit }).results,
    serialize: () => JSON.stringify(engine.toJSON()),
  };
}

/** This project's engine, as the bot runs it: `Engine.build(corpus)` and `engine.answer(question, { limit })`. */
export const newsdesk: EngineAdapter = {
  name: 'newsdesk',
  packageName: 'minisearch',
  configuration:
    'this project: Engine.build(corpus), engine.answer(question, { limit: 5 }) (tuned MiniSearch, src/search)',
  build: (corpus: Corpus) => wrap(Engine.build(corpus)),
  load: (corpus: Corpus, serialized: string) =>
    wrap(Engine.fromJSON(corpus, JSON.parse(serialized) as SerializedEngine)),
};
