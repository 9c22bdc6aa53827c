import { CorpusEditor } from '../corpus-editing/corpus-editor.ts';
import { CorpusStore } from '../corpus-editing/corpus-store.ts';
import type { CorpusAdministration } from '../interactions/library-view.ts';
import type { Logger } from '../logging/logger.ts';
import type { SearchEngine } from '../search/search-engine.ts';
import { AuditLog } from './audit-log.ts';
import {
  type EngineSlot,
  Reloader,
  type ReloaderOptions,
  type ReloadOutcome,
  type ReloadReport,
  type ReloadRequest,
} from './reloader.ts';

/** Called after every successful swap; `report.trigger` says what caused it. */
export type ReloadListener = (engine: SearchEngine, report: ReloadReport) => void | Promise<void>;

/** Options of {@link CorpusLifecycle}. */
export interface CorpusLifecycleOptions {
  /** CORPUS_PATH: a folder of articles (needed for `/corpus`), or one `.jsonl` file (reload only). */
  corpusPath: string;
  /** @default a new AuditLog writing JSON lines to stderr */
  audit?: AuditLog;
  /** Articles indexed between two yields; see `ReloaderOptions.sliceSize`. */
  sliceSize?: number;
  /** @default MAX_ARTICLE_BYTES (512 KiB) */
  maxArticleBytes?: number;
  /** Where the audit entries (unless `audit` is given) and warnings go. @default a logger on stderr */
  logger?: Logger;
  /** Reads and validates the corpus; tests slow it down. @default loadCorpus */
  load?: ReloaderOptions['load'];
  /** Indexes a reloaded corpus; see `ReloaderOptions.index`. @default on this thread, in slices */
  index?: ReloaderOptions['index'];
}

/**
 * Everything that changes the corpus of one `Library` while it serves: reloads (from `/reload`, SIGHUP,
 * the folder watch, other shards) and moderators' edits, with an audit entry for each. Listeners hear
 * of every swap, to persist the new index or tell other shards. Start-up assembles one around the
 * library and hands it to the commands as their `corpus` capability.
 */
export class CorpusLifecycle implements CorpusAdministration {
  readonly audit: AuditLog;
  readonly reloader: Reloader;
  readonly editor: CorpusEditor;
  readonly store: CorpusStore;
  readonly #listeners = new Set<ReloadListener>();

  constructor(slot: EngineSlot, options: CorpusLifecycleOptions) {
    this.audit = options.audit ?? new AuditLog({ logger: options.logger });
    this.reloader = new Reloader({
      corpusPath: options.corpusPath,
      slot,
      audit: this.audit,
      sliceSize: options.sliceSize,
      logger: options.logger,
      load: options.load,
      index: options.index,
      onReloaded: (engine, report) => this.#notify(engine, report),
    });
    this.store = new CorpusStore({
      folder: options.corpusPath,
      maxBytes: options.maxArticleBytes,
    });
    this.editor = new CorpusEditor({ store: this.store, reloader: this.reloader, slot, audit: this.audit });
  }

  /** See `Reloader.reload`: never overlaps, never swaps in a corpus that failed validation. */
  reload(request?: ReloadRequest): Promise<ReloadOutcome> {
    return this.reloader.reload(request);
  }

  /** The largest article file `/corpus add` accepts, in bytes. */
  get maxArticleBytes(): number {
    return this.store.maxBytes;
  }

  /** Hears of every successful swap. Returns a function that stops listening. */
  onReloaded(listener: ReloadListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async #notify(engine: SearchEngine, report: ReloadReport): Promise<void> {
    await Promise.all([...this.#listeners].map(async (listener) => listener(engine, report)));
  }
}
