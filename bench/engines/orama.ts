import type { RawData } from '@orama/orama';
import { create, insertMultiple, load, save, search } from '@orama/orama';
import type { Corpus } from '../../src/corpus/article.ts';
import type { BenchIndex, EngineAdapter, PeerDocument } from './engine-adapter.ts';
import { peerDocuments, toRetrieved } from './engine-adapter.ts';

const schema = { title: 'string', text: 'string' } as const;

// Orama's documented English stemmer (off by default); everything else as `create` sets it: BM25,
// any-term matching (threshold 1), no stop words.
function createDatabase() {
  return create({ schema, components: { tokenizer: { stemming: true } } });
}

type Database = ReturnType<typeof createDatabase>;

function wrap(database: Database, documents: PeerDocument[]): BenchIndex {
  const byId = new Map(documents.map((document) => [document.passage.id, document]));
  return {
    async search(question, limit) {
      const results = await search(database, { term: question, limit });
      return results.hits.map((hit) => toRetrieved(byId.get(hit.id)!));
    },
    serialize: () => JSON.stringify(save(database)),
  };
}

/** Orama 3 full-text search over title and text. */
export const orama: EngineAdapter = {
  name: 'orama',
  packageName: '@orama/orama',
  configuration: 'create({ schema: { title, text } }), English stemming on, search({ term, limit })',
  async build(corpus: Corpus) {
    const documents = peerDocuments(corpus);
    const database = createDatabase();
    await insertMultiple(
      database,
      documents.map(({ passage, title }) => ({ id: passage.id, title, text: passage.text })),
    );
    return wrap(database, documents);
  },
  load(corpus: Corpus, serialized: string) {
    const database = createDatabase();
    load(database, JSON.parse(serialized) as RawData);
    return wrap(database, peerDocuments(corpus));
  },
};
