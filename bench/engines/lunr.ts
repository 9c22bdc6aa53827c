import lunr from 'lunr';
import type { Corpus } from '../../src/corpus/article.ts';
import type { BenchIndex, EngineAdapter, PeerDocument } from './engine-adapter.ts';
import { peerDocuments, toRetrieved } from './engine-adapter.ts';

function wrap(index: lunr.Index, documents: PeerDocument[]): BenchIndex {
  const byId = new Map(documents.map((document) => [document.passage.id, document]));
  return {
    search(question, limit) {
      // lunr.Index#search parses its own query syntax (`field:`, `~2`, `^10`, `+`, `-`, `*`) and throws
      // on some questions; building the query from lunr's own tokenizer and trimmer gives the same OR
      // query over plain words for every question.
      const results = index.query((query) => {
        for (const token of lunr.tokenizer(question)) {
          const term = lunr.trimmer(token).toString();
          if (term !== '') query.term(term, {});
        }
      });
      return results.slice(0, limit).map((result) => toRetrieved(byId.get(result.ref)!));
    },
    serialize: () => JSON.stringify(index),
  };
}

/** lunr 2 with its defaults: English stemmer and stop words, BM25, OR of terms. */
export const lunrDefaults: EngineAdapter = {
  name: 'lunr',
  packageName: 'lunr',
  configuration: "defaults (stemmer, stop words; ref 'id', fields 'title', 'text')",
  build(corpus: Corpus) {
    const documents = peerDocuments(corpus);
    const index = lunr(function () {
      this.ref('id');
      this.field('title');
      this.field('text');
      for (const { passage, title } of documents) this.add({ id: passage.id, title, text: passage.text });
    });
    return wrap(index, documents);
  },
  load(corpus: Corpus, serialized: string) {
    return wrap(lunr.Index.load(JSON.parse(serialized)), peerDocuments(corpus));
  },
};
