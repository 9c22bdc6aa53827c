import type { FeedPoller } from '../feeds/feed-poller.ts';
import type { SearchEngine } from '../search/search-engine.ts';
import type { ShardCoordinator } from '../transports/sharding/shard-coordinator.ts';
import { AuditLog } from './audit-log.ts';
import { CorpusEditor } from './corpus-editor.ts';
import { CorpusStore } from './corpus-store.ts';
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
  /** Where warnings go. @default stderr */
  writeLine?: (line: string) => void;
  /** Reads and validates the corpus; tests slow it down. @default loadCorpus */
  load?: ReloaderOptions['load'];
  /** Indexes a reloaded corpus; see `ReloaderOptions.index`. @default on this thread, in slices */
  index?: ReloaderOptions['index'];
  /** See `ReloaderOptions.retireAfterMs`. */
  retireAfterMs?: number;
}

/**
 * Everything that changes the corpus of one `Library` while it serves: reloads (from `/reload`, SIGHUP,
 * the folder watch, other shards) and moderators' edits, with an audit entry for each. Listeners hear
 * of every swap, to persist the new index or tell other shards.
 */
export class CorpusLifecycle {
  readonly audit: AuditLog;
  readonly reloader: Reloader;
  readonly editor: CorpusEditor;
  readonly store: CorpusStore;
  readonly #listeners = new Set<ReloadListener>();
  /** Set when running as a shard: asks every shard what it serves (for /about). */
  shards: ShardCoordinator | undefined;
  /** Set when feeds are followed (a corpus folder, and the first shard): `/feeds`. */
  feeds: FeedPoller | undefined;

  constructor(slot: EngineSlot, options: CorpusLifecycleOptions) {
    this.audit = options.audit ?? new AuditLog(options.writeLine ? { writeLine: options.writeLine } : {});
    this.reloader = new Reloader({
      corpusPath: options.corpusPath,
      slot,
      audit: this.audit,
      ...(options.sliceSize === undefined ? {} : { sliceSize: options.sliceSize }),
      ...(options.writeLine === undefined ? {} : { writeLine: options.writeLine }),
      ...(options.load === undefined ? {} : { load: options.load }),
      ...(options.index === undefined ? {} : { index: options.index }),
      ...(options.retireAfterMs === undefined ? {} : { retireAfterMs: options.retireAfterMs }),
      onReloaded: (engine, report) => this.#notify(engine, report),
    });
    this.store = new CorpusStore({
      folder: options.corpusPath,
      ...(options.maxArticleBytes === undefined ? {} : { maxBytes: options.maxArticleBytes }),
    });
    this.editor = new CorpusEditor({ store: this.store, reloader: this.reloader, slot, audit: this.audit });
  }

  /** See `Reloader.reload`: never overlaps, never swaps in a corpus that failed validation. */
  reload(request?: ReloadRequest): Promise<ReloadOutcome> {
    return this.reloader.reload(request);
  }

  /**
   * What each shard serves: every shard's status when running under the ShardingManager, otherwise
   * just this process's. For `/about`.
   */
  async corpusVersions(): Promise<{ shard: number; version: string; articles: number; passages: number }[]> {
    if (this.shards) return this.shards.statuses();
    const engine = this.reloader.servingEngine;
    return [
      {
        shard: 0,
        version: engine.version,
        articles: engine.corpus.articles.length,
        passages: engine.passageCount,
      },
    ];
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

/**
 * The lifecycle behind a command context's library, when it has one. Commands see the library through
 * the narrow `LibraryView`; the real `Library` carries a lifecycle when it knows its corpus path.
 */
export function lifecycleOf(library: object): CorpusLifecycle | undefined {
  const candidate = (library as { lifecycle?: unknown }).lifecycle;
  return candidate instanceof CorpusLifecycle ? candidate : undefined;
}
