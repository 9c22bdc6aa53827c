import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Config } from '../config.ts';
import { ChannelSettingsStore } from './channel-settings.ts';
import { CitedPassages, FOLLOW_DAYS } from './cited-passages.ts';
import { CommunityStore } from './community-store.ts';
import { openDatabase } from './database.ts';
import { DigestList } from './digests.ts';
import type { RecordStore } from './record-store.ts';
import { WatchList, type WatchRules } from './watch-list.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The database's file name inside DATA_DIR. */
export const DATABASE_FILE = 'newsdesk.sqlite';

/**
 * What the community did, in one SQLite file: the records, the watches, and how long records are kept.
 * The default `RecordStore`; its methods answer at once, on the calling thread.
 */
export class Community implements RecordStore {
  readonly kind = 'sqlite';
  readonly records: CommunityStore;
  readonly watches: WatchList;
  /** What posted answers cited, followed for FOLLOW_DAYS so a reload that corrects it can be told. */
  readonly citations: CitedPassages;
  /** Channel settings and answer channels (`/settings`); never deleted by retention. */
  readonly settings: ChannelSettingsStore;
  /** Scheduled digests (`/digest`) and articles' arrivals; never deleted by retention. */
  readonly digests: DigestList;
  /** RECORD_QUESTIONS: false stores no question text (counts, citations and votes still are). */
  readonly recordQuestions: boolean;
  /** RECORD_DAYS: answers, votes and questions without coverage older than this are deleted daily. */
  readonly recordDays: number;
  readonly file: string;
  readonly location: string;
  readonly #db: Database.Database;

  constructor(
    db: Database.Database,
    options: { file: string; recordQuestions: boolean; recordDays: number; watchRules?: WatchRules },
  ) {
    this.#db = db;
    this.file = options.file;
    this.location = options.file;
    this.records = new CommunityStore(db);
    this.watches = new WatchList(db, options.watchRules);
    this.citations = new CitedPassages(db);
    this.settings = new ChannelSettingsStore(db);
    this.digests = new DigestList(db);
    this.recordQuestions = options.recordQuestions;
    this.recordDays = options.recordDays;
  }

  /** Opens (or creates) the database at `file`; throws `CommunityDatabaseError` if it cannot be used. */
  static open(options: {
    file: string;
    recordQuestions?: boolean;
    recordDays?: number;
    watchRules?: WatchRules;
    /** See `openDatabase`; a serving bot passes `SERVING_BUSY_TIMEOUT_MS`. @default 5000 */
    busyTimeoutMs?: number;
  }) {
    const busy = options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs };
    return new Community(openDatabase(options.file, busy), {
      file: options.file,
      recordQuestions: options.recordQuestions ?? true,
      recordDays: options.recordDays ?? 90,
      ...(options.watchRules ? { watchRules: options.watchRules } : {}),
    });
  }

  /** The database file DATA_DIR names, or undefined when DATA_DIR is empty (nothing is stored). */
  static fileFor(config: Pick<Config, 'DATA_DIR'>): string | undefined {
    return config.DATA_DIR === '' ? undefined : join(config.DATA_DIR, DATABASE_FILE);
  }

  /** Deletes records older than RECORD_DAYS, expired watches and citations no longer followed. */
  enforceRetention(now: Date): { answers: number; unanswered: number; watches: number; cited: number } {
    const before = new Date(now.getTime() - this.recordDays * DAY_MS);
    return {
      ...this.records.purgeBefore(before),
      watches: this.watches.purgeExpired(now),
      cited: this.citations.purgeBefore(new Date(now.getTime() - FOLLOW_DAYS * DAY_MS)),
    };
  }

  close(): void {
    this.#db.close();
  }
}
