import { loadCorpus } from './corpus/load-corpus.ts';
import { Engine } from './search/engine.ts';

export interface LibraryOptions {
  /** Where the corpus is read from on reload: a folder of articles or a `.jsonl` file. */
  corpusPath?: string;
}

/**
 * Holds the engine currently serving questions. Readers take `library.engine` once per request; a reload
 * builds a whole new engine and swaps the reference, so a question never sees half a corpus.
 */
export class Library {
  readonly corpusPath: string | undefined;
  private current: Engine;
  private swappedAt: Date;

  constructor(engine: Engine, options: LibraryOptions = {}) {
    this.current = engine;
    this.swappedAt = new Date();
    this.corpusPath = options.corpusPath;
  }

  /** Loads, validates and indexes the corpus at `corpusPath`. Throws `CorpusError` if it is invalid. */
  static async open(corpusPath: string): Promise<Library> {
    const corpus = await loadCorpus(corpusPath);
    return new Library(await Engine.buildAsync(corpus), { corpusPath });
  }

  get engine(): Engine {
    return this.current;
  }

  /** When the serving engine was put in place. */
  get loadedAt(): Date {
    return this.swappedAt;
  }

  /** Puts a fully built engine in place of the current one. */
  swap(engine: Engine): void {
    this.current = engine;
    this.swappedAt = new Date();
  }
}
