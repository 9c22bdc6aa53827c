import type { ChannelSettingsStore } from './channel-settings.ts';
import type { CitedPassages } from './cited-passages.ts';
import type { CommunityStore } from './community-store.ts';
import type { DigestList } from './digests.ts';
import type { WatchList } from './watch-list.ts';

/**
 * A value now (SQLite answers on the calling thread) or later (PostgreSQL answers over the network).
 * Callers always `await` it, so either store serves them.
 */
export type Awaitable<T> = T | Promise<T>;

/**
 * The methods of a SQLite store, each answering now or later: the SQLite classes define what a kind of
 * record offers (their comments say what each method does), and every store provides the same.
 */
type AwaitableMethods<T> = {
  readonly [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Awaitable<R> : T[K];
};

/** Answers shown, votes on them and questions nothing answered (`CommunityStore`). */
export type AnswerRecords = AwaitableMethods<CommunityStore>;
/** Watched questions, with the claim that makes each post happen once across processes (`WatchList`). */
export type WatchRecords = AwaitableMethods<WatchList>;
/** The paragraphs posted answers cited, with the claim that makes each correction happen once (`CitedPassages`). */
export type CitationRecords = AwaitableMethods<CitedPassages>;
/** Each channel's settings and each guild's answer channels, set with `/settings` (`ChannelSettingsStore`). */
export type SettingsRecords = AwaitableMethods<ChannelSettingsStore>;
/** Scheduled digests, the claim that sends each period once, and when each article arrived (`DigestList`). */
export type DigestRecords = AwaitableMethods<DigestList>;

/**
 * Where the community's records live: one SQLite file (`Community`, the default) or PostgreSQL
 * (`PostgresCommunity`, with DATABASE_URL) that every replica shares. Both run the same migrations
 * (`MIGRATIONS`) and pass the same contract suite (`test/community/store-contract.ts`); a kind of
 * record is added to this interface, to both stores and to that suite together.
 */
export interface RecordStore {
  /** What the store is, for logs and `/healthz`: `sqlite` or `postgres`. */
  readonly kind: 'sqlite' | 'postgres';
  /** Where it is, for people: the file, or the server without its password. */
  readonly location: string;
  readonly records: AnswerRecords;
  readonly watches: WatchRecords;
  readonly citations: CitationRecords;
  readonly settings: SettingsRecords;
  readonly digests: DigestRecords;
  /** RECORD_QUESTIONS: false stores no question text (counts, citations and votes still are). */
  readonly recordQuestions: boolean;
  /** RECORD_DAYS: answers, votes and questions without coverage older than this are deleted daily. */
  readonly recordDays: number;
  enforceRetention(
    now: Date,
  ): Awaitable<{ answers: number; unanswered: number; watches: number; cited: number }>;
  close(): Awaitable<void>;
}
