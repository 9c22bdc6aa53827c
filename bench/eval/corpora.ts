import type { Article, Corpus } from '../../src/corpus/article.ts';
import { loadCorpus, makeCorpus } from '../../src/corpus/load-corpus.ts';

/**
 * The corpora the evaluation asks questions of: the bundled seed articles (`corpus/`), the NewsQA
 * articles alone, and NewsQA + BBC + Reuters together (about 24,000 articles, 121,000 passages).
 */
export type CorpusName = 'seed' | 'newsqa' | 'full';

const SHARED = new URL('../../../shared/data/', import.meta.url);

export const SOURCES = {
  seed: new URL('../../corpus/', import.meta.url).pathname,
  newsqa: new URL('newsqa/articles.jsonl', SHARED).pathname,
  newsqaQuestions: new URL('newsqa/questions.jsonl', SHARED).pathname,
  bbc: new URL('bbc/bbc.jsonl', SHARED).pathname,
  reuters: new URL('reuters/reuters21578.jsonl', SHARED).pathname,
} as const;

const loaded = new Map<string, Promise<Corpus>>();

/** Loads a corpus file or folder once per process; later calls share the same articles. */
function loadOnce(path: string): Promise<Corpus> {
  let corpus = loaded.get(path);
  if (corpus === undefined) {
    corpus = loadCorpus(path);
    loaded.set(path, corpus);
  }
  return corpus;
}

const assembled = new Map<CorpusName, Promise<Corpus>>();

/**
 * One of the evaluation's corpora, loaded once per process. `full` holds NewsQA first, then BBC, then
 * Reuters, in file order, as the `full` size of `npm run bench` does.
 */
export function evalCorpus(name: CorpusName): Promise<Corpus> {
  let corpus = assembled.get(name);
  if (corpus === undefined) {
    corpus = assemble(name);
    assembled.set(name, corpus);
  }
  return corpus;
}

async function assemble(name: CorpusName): Promise<Corpus> {
  if (name === 'seed') return loadOnce(SOURCES.seed);
  if (name === 'newsqa') return loadOnce(SOURCES.newsqa);
  const parts = await Promise.all([SOURCES.newsqa, SOURCES.bbc, SOURCES.reuters].map(loadOnce));
  const articles: Article[] = parts.flatMap((part) => part.articles);
  return makeCorpus(articles);
}
