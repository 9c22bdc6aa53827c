import type { Corpus } from '../../src/corpus/article.ts';
import { Engine } from '../../src/search/engine.ts';
import { decodePostings, encodePostings } from '../../src/search/postings/posting-codec.ts';
import type { BenchIndex, EngineAdapter } from './engine-adapter.ts';

function wrap(engine: Engine): BenchIndex {
  return {
    search: (question, limit) => engine.answer(question, { limit }).results,
    serialize: () => serializeEngine(engine),
  };
}

/** This project's engine, as the bot runs it: `Engine.build(corpus)` and `engine.answer(question, { limit })`. */
export const newsdesk: EngineAdapter = {
  name: 'newsdesk',
  packageName: 'minisearch',
  configuration:
    'this project: Engine.build(corpus), engine.answer(question, { limit: 5 }) (tuned MiniSearch, src/search)',
  build: (corpus: Corpus) => wrap(Engine.build(corpus)),
  load: (corpus: Corpus, serialized: string | Uint8Array) => wrap(restoreEngine(corpus, serialized)),
};

/** The engine from what an adapter's `serialize` wrote (the postings, as the index cache stores them). */
function restoreEngine(corpus: Corpus, serialized: string | Uint8Array): Engine {
  if (typeof serialized === 'string') throw new Error('newsdesk: a serialized index is bytes');
  const passageCounts = corpus.articles.map((article) => article.passages.length);
  return Engine.fromPostings(corpus, decodePostings(serialized, passageCounts));
}

/** What the index cache writes for an engine, without its envelope. */
function serializeEngine(engine: Engine): Buffer {
  return Buffer.concat(encodePostings(engine.postings));
}
