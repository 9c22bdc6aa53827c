import MiniSearch from 'minisearch';
import type { Corpus } from '../../src/corpus/article.ts';
import type { BenchIndex, EngineAdapter, PeerDocument } from './engine-adapter.ts';
import { peerDocuments, toRetrieved } from './engine-adapter.ts';

interface MiniSearchDocument {
  id: string;
  title: string;
  text: string;
}

// Default options apart from the fields to index, which MiniSearch requires.
const options = { fields: ['title', 'text'] };

function wrap(miniSearch: MiniSearch<MiniSearchDocument>, documents: PeerDocument[]): BenchIndex {
  const byId = new Map(documents.map((document) => [document.passage.id, document]));
  return {
    search: (question, limit) =>
      miniSearch
        .search(question)
        .slice(0, limit)
        .map((result) => toRetrieved(byId.get(result.id as string)!)),
    serialize: () => JSON.stringify(miniSearch),
  };
}

/** MiniSearch 7 with default options: OR of terms, BM25+, no prefix or fuzzy matching, no stemming. */
export const miniSearchDefaults: EngineAdapter = {
  name: 'minisearch',
  packageName: 'minisearch',
  configuration: "defaults (fields ['title', 'text'])",
  build(corpus: Corpus) {
    const documents = peerDocuments(corpus);
    const miniSearch = new MiniSearch<MiniSearchDocument>(options);
    miniSearch.addAll(documents.map(({ passage, title }) => ({ id: passage.id, title, text: passage.text })));
    return wrap(miniSearch, documents);
  },
  load(corpus: Corpus, serialized: string) {
    return wrap(MiniSearch.loadJSON<MiniSearchDocument>(serialized, options), peerDocuments(corpus));
  },
};
