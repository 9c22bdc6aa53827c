import { loadCorpus } from './corpus/load-corpus.ts';
import type { TimeSlicer } from './event-loop.ts';
import type { EngineSlot } from './lifecycle/reloader.ts';
import { Engine } from './search/engine.ts';
import type { SearchEngine } from './search/search-engine.ts';

/**
 * Holds the engine currently serving questions. Readers take `library.engine` once per request; a reload
 * builds a whole new engine and swaps the reference, so a question never sees half a corpus. Reloading
 * and editing are the corpus lifecycle's (`CorpusLifecycle`), which start-up assembles around a library.
 */
export class Library implements EngineSlot {
  private current: SearchEngine;
  private swappedAt: Date;
  readonly #suggestionSlicer: (() => TimeSlicer) | undefined;

  /** `suggestionSlicer`: how each engine's autocomplete index build yields (default: 8 ms slices). */
  constructor(engine: SearchEngine, options: { suggestionSlicer?: () => TimeSlicer } = {}) {
    this.current = engine;
    this.swappedAt = new Date();
    this.#suggestionSlicer = options.suggestionSlicer;
    void engine.prepareSuggestions(this.#suggestionSlicer?.());
  }

  /** Loads, validates and indexes the corpus at `corpusPath`. Throws `CorpusError` if it is invalid. */
  static async open(corpusPath: string): Promise<Library> {
    return new Library(await Engine.buildAsync(await loadCorpus(corpusPath)));
  }

  get engine(): SearchEngine {
    return this.current;
  }

  /** When the serving engine was put in place. */
  get loadedAt(): Date {
    return this.swappedAt;
  }

  /**
   * Puts a fully built engine in place of the current one, and starts its autocomplete index's sliced
   * build: until it is done the engine answers autocomplete by a scan, with the same suggestions.
   */
  swap(engine: SearchEngine): void {
    this.current = engine;
    this.swappedAt = new Date();
    void engine.prepareSuggestions(this.#suggestionSlicer?.());
  }
}
