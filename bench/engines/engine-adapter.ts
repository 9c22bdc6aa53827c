import type { Corpus, Passage } from '../../src/corpus/article.ts';
import type { RetrievedPassage } from '../lib/newsqa.ts';

/** A built index as the benchmark drives it. */
export interface BenchIndex {
  /** The best `limit` passages for a natural-language question, best first. */
  search(question: string, limit: number): RetrievedPassage[] | Promise<RetrievedPassage[]>;
  /** The index as a string or bytes to store, when the engine can save its index. */
  serialize?(): string | Uint8Array | Promise<string | Uint8Array>;
}

/** One search engine under test, configured one way. */
export interface EngineAdapter {
  /** Key used on the command line and in the JSON report. */
  name: string;
  /** npm package whose version the report states. */
  packageName: string;
  /** How the engine is configured, in a sentence for the report. */
  configuration: string;
  build(corpus: Corpus): BenchIndex | Promise<BenchIndex>;
  /** Rebuilds an index from `serialize()` output, when supported. */
  load?(corpus: Corpus, serialized: string | Uint8Array): BenchIndex | Promise<BenchIndex>;
}

/** A passage as the peer engines index it: its text plus its article's title as a second field. */
export interface PeerDocument {
  passage: Passage;
  title: string;
}

/**
 * Every passage of the corpus in order, exactly as the project's chunker produced them, so all engines
 * index the same units.
 */
export function peerDocuments(corpus: Corpus): PeerDocument[] {
  return corpus.articles.flatMap((article) =>
    article.passages.map((passage) => ({ passage, title: article.title })),
  );
}

export function toRetrieved(document: PeerDocument): RetrievedPassage {
  return { article: document.passage.articleId, passage: document.passage.text };
}
