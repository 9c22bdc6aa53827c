import { loadCorpus } from './corpus/load-corpus.ts';
import { CorpusLifecycle, type CorpusLifecycleOptions } from './lifecycle/corpus-lifecycle.ts';
import type { ReloadOutcome, ReloadRequest } from './lifecycle/reloader.ts';
import { Engine } from './search/engine.ts';
import type { SearchEngine } from './search/search-engine.ts';

export interface LibraryOptions {
  /** Where the corpus is read from on reload: a folder of articles or a `.jsonl` file. */
  corpusPath?: string;
  /** Audit log, slice size and so on for reloads and `/corpus` edits (see `src/lifecycle/`). */
  lifecycle?: Omit<CorpusLifecycleOptions, 'corpusPath'>;
}

/**
 * Holds the engine currently serving questions. Readers take `library.engine` once per request; a reload
 * builds a whole new engine and swaps the reference, so a question never sees half a corpus.
 */
export class Library {
  readonly corpusPath: string | undefined;
  private current: SearchEngine;
  private swappedAt: Date;
  /** Reloads and moderators' edits; absent without a `corpusPath` (nothing to reload from). */
  readonly lifecycle: CorpusLifecycle | undefined;

  constructor(engine: SearchEngine, options: LibraryOptions = {}) {
    this.current = engine;
    this.swappedAt = new Date();
    this.corpusPath = options.corpusPath;
    this.lifecycle =
      options.corpusPath === undefined
        ? undefined
        : new CorpusLifecycle(this, { ...options.lifecycle, corpusPath: options.corpusPath });
  }

  /** Loads, validates and indexes the corpus at `corpusPath`. Throws `CorpusError` if it is invalid. */
  static async open(corpusPath: string): Promise<Library> {
    const corpus = await loadCorpus(corpusPath);
    return new Library(await Engine.buildAsync(corpus), { corpusPath });
  }

  get engine(): SearchEngine {
    return this.current;
  }

  /** When the serving engine was put in place. */
  get loadedAt(): Date {
    return this.swappedAt;
  }

  /**
   * Re-reads the corpus, validates all of it, builds the new index without blocking the event loop,
   * and only then swaps it in. Never throws for a bad corpus and never overlaps another reload: the
   * outcome says `reloaded`, `refused` (with every problem), `failed` or `busy`.
   */
  reload(request?: ReloadRequest): Promise<ReloadOutcome> {
    if (this.lifecycle === undefined) {
      return Promise.resolve({
        status: 'failed',
        message: 'no corpus path to reload from',
        version: this.current.version,
        durationMs: 0,
      });
    }
    return this.lifecycle.reload(request);
  }

  /** Puts a fully built engine in place of the current one. */
  swap(engine: SearchEngine): void {
    this.current = engine;
    this.swappedAt = new Date();
  }
}
