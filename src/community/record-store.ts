import type { CitedPassage, FollowedPassage } from './cited-passages.ts';
import type {
  ActivityCounts,
  Place,
  StoredAnswer,
  UnansweredQuestion,
  UnhelpfulAnswer,
  VoteResult,
} from './community-store.ts';
import type { AddWatchResult, Watch } from './watch-list.ts';

/**
 * A value now (SQLite answers on the calling thread) or later (PostgreSQL answers over the network).
 * Callers always `await` it, so either store serves them.
 */
export type Awaitable<T> = T | Promise<T>;

/** Answers shown, votes on them and questions nothing answered. */
export interface AnswerRecords {
  recordAnswer(
    answer: Omit<StoredAnswer, 'id' | 'questionHash' | 'messageId'> & {
      questionHash?: string;
      messageId?: string | null;
    },
  ): Awaitable<number>;
  findAnswer(lookup: {
    messageId: string;
    questionHash: string;
    firstCitation: string;
    channelId: string | null;
  }): Awaitable<StoredAnswer | undefined>;
  answer(id: number): Awaitable<StoredAnswer | undefined>;
  recordUnanswered(
    question: Place & { question: string | null; askedAt: Date; corpusVersion: string },
  ): Awaitable<void>;
  vote(vote: { answerId: number; userId: string; helpful: boolean; at: Date }): Awaitable<VoteResult>;
  tally(answerId: number): Awaitable<{ helpful: number; notHelpful: number }>;
  unansweredSince(since: Date, guildId?: string): Awaitable<UnansweredQuestion[]>;
  unhelpfulSince(since: Date, limit: number, guildId?: string): Awaitable<UnhelpfulAnswer[]>;
  countsSince(since: Date): Awaitable<ActivityCounts>;
  purgeBefore(before: Date): Awaitable<{ answers: number; unanswered: number }>;
}

/** Watched questions, with the claim that makes each post happen once across processes. */
export interface WatchRecords {
  readonly lifetimeMs: number;
  readonly perMember: number;
  add(watch: {
    userId: string;
    guildId: string | null;
    channelId: string;
    question: string;
    at: Date;
  }): Awaitable<AddWatchResult>;
  of(userId: string, now: Date): Awaitable<Watch[]>;
  cancel(id: number, userId: string): Awaitable<boolean>;
  due(now: Date): Awaitable<Watch[]>;
  claim(id: number, now: Date): Awaitable<boolean>;
  finish(id: number): Awaitable<void>;
  release(id: number): Awaitable<boolean>;
  purgeExpired(now: Date): Awaitable<number>;
}

/** The paragraphs posted answers cited, with the claim that makes each correction happen once. */
export interface CitationRecords {
  follow(answer: {
    interactionId: string;
    messageId?: string;
    guildId: string | null;
    channelId: string;
    citedAt: Date;
    passages: readonly CitedPassage[];
  }): Awaitable<void>;
  awaitsMessage(interactionId: string): Awaitable<boolean>;
  attachMessage(interactionId: string, messageId: string): Awaitable<number>;
  isFollowed(messageId: string): Awaitable<boolean>;
  due(since: Date): Awaitable<FollowedPassage[]>;
  claim(messageId: string, citations: readonly string[], now: Date): Awaitable<string[]>;
  release(messageId: string, citations: readonly string[]): Awaitable<boolean>;
  purgeBefore(before: Date): Awaitable<number>;
}

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
  /** RECORD_QUESTIONS: false stores no question text (counts, citations and votes still are). */
  readonly recordQuestions: boolean;
  /** RECORD_DAYS: answers, votes and questions without coverage older than this are deleted daily. */
  readonly recordDays: number;
  enforceRetention(
    now: Date,
  ): Awaitable<{ answers: number; unanswered: number; watches: number; cited: number }>;
  close(): Awaitable<void>;
}
