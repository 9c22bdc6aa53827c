import type Database from 'better-sqlite3';

/** A member's request to hear when a question without coverage gets an answer. */
export interface Watch {
  id: number;
  userId: string;
  guildId: string | null;
  /** Where the question was asked, and where the answer is posted. */
  channelId: string;
  question: string;
  createdAt: Date;
  expiresAt: Date;
}

/** What `add` did. */
export type AddWatchResult =
  | { status: 'added'; watch: Watch }
  | { status: 'already-watching'; watch: Watch }
  | { status: 'limit-reached'; limit: number };

/** How long a watch lasts, and how many one member may hold. */
export interface WatchRules {
  /** @default 30 days */
  lifetimeMs?: number;
  /** @default 10 */
  perMember?: number;
}

export const WATCH_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
export const WATCHES_PER_MEMBER = 10;
/** A claimed watch whose post neither succeeded nor failed within this (a crashed process) is free again. */
export const CLAIM_TIMEOUT_MS = 10 * 60 * 1000;
/** Posts that fail this many times (a deleted channel, lost permissions) end the watch. */
export const MAX_FAILED_POSTS = 3;

/** A `watches` row as both stores return it. */
export interface WatchRow {
  id: number;
  user_id: string;
  guild_id: string | null;
  channel_id: string;
  question: string;
  created_at: number;
  expires_at: number;
}

/**
 * Watched questions. A watch is posted once even with several shards or replicas checking after the
 * same reload: a process must `claim` it (one UPDATE that only one of them wins) before posting, and
 * `finish`es it after.
 */
export class WatchList {
  readonly #db: Database.Database;
  readonly lifetimeMs: number;
  readonly perMember: number;

  constructor(db: Database.Database, rules: WatchRules = {}) {
    this.#db = db;
    this.lifetimeMs = rules.lifetimeMs ?? WATCH_LIFETIME_MS;
    this.perMember = rules.perMember ?? WATCHES_PER_MEMBER;
  }

  /** Adds a watch unless the member already watches that question there or holds the most allowed. */
  add(watch: {
    userId: string;
    guildId: string | null;
    channelId: string;
    question: string;
    at: Date;
  }): AddWatchResult {
    return this.#db
      .transaction((): AddWatchResult => {
        const now = watch.at.getTime();
        const existing = this.#db
          .prepare<[string, string, string, number], WatchRow>(
            'SELECT * FROM watches WHERE user_id = ? AND channel_id = ? AND question = ? AND expires_at > ?',
          )
          .get(watch.userId, watch.channelId, watch.question, now);
        if (existing) return { status: 'already-watching', watch: watchFromRow(existing) };
        const held =
          this.#db
            .prepare<[string, number], { n: number }>(
              'SELECT COUNT(*) AS n FROM watches WHERE user_id = ? AND expires_at > ?',
            )
            .get(watch.userId, now)?.n ?? 0;
        if (held >= this.perMember) return { status: 'limit-reached', limit: this.perMember };
        // An expired watch of the same question may still be there until the daily clean-up.
        this.#db
          .prepare('DELETE FROM watches WHERE user_id = ? AND channel_id = ? AND question = ?')
          .run(watch.userId, watch.channelId, watch.question);
        const id = Number(
          this.#db
            .prepare(
              'INSERT INTO watches (user_id, guild_id, channel_id, question, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
            )
            .run(watch.userId, watch.guildId, watch.channelId, watch.question, now, now + this.lifetimeMs)
            .lastInsertRowid,
        );
        const added = this.#db.prepare<[number], WatchRow>('SELECT * FROM watches WHERE id = ?').get(id);
        if (!added) throw new Error('WatchList: a watch just inserted is missing');
        return { status: 'added', watch: watchFromRow(added) };
      })
      .immediate();
  }

  /** A member's watches that have not expired, oldest first. */
  of(userId: string, now: Date): Watch[] {
    return this.#db
      .prepare<[string, number], WatchRow>(
        'SELECT * FROM watches WHERE user_id = ? AND expires_at > ? ORDER BY created_at, id',
      )
      .all(userId, now.getTime())
      .map(watchFromRow);
  }

  /** Cancels one of the member's own watches; false if there was none with that id (or not theirs). */
  cancel(id: number, userId: string): boolean {
    return this.#db.prepare('DELETE FROM watches WHERE id = ? AND user_id = ?').run(id, userId).changes === 1;
  }

  /** Watches to ask again: not expired, and not being posted by another process. */
  due(now: Date): Watch[] {
    const at = now.getTime();
    return this.#db
      .prepare<[number, number], WatchRow>(
        'SELECT * FROM watches WHERE expires_at > ? AND (claimed_at IS NULL OR claimed_at < ?) ORDER BY created_at, id',
      )
      .all(at, at - CLAIM_TIMEOUT_MS)
      .map(watchFromRow);
  }

  /** Takes a watch for posting; true for exactly one of the processes that try. */
  claim(id: number, now: Date): boolean {
    const at = now.getTime();
    return (
      this.#db
        .prepare('UPDATE watches SET claimed_at = ? WHERE id = ? AND (claimed_at IS NULL OR claimed_at < ?)')
        .run(at, id, at - CLAIM_TIMEOUT_MS).changes === 1
    );
  }

  /** The answer was posted: the watch ends. */
  finish(id: number): void {
    this.#db.prepare('DELETE FROM watches WHERE id = ?').run(id);
  }

  /** The post failed: free the watch for the next reload, or end it after repeated failures. Returns whether it is kept. */
  release(id: number): boolean {
    return this.#db
      .transaction(() => {
        this.#db
          .prepare('UPDATE watches SET claimed_at = NULL, failed_posts = failed_posts + 1 WHERE id = ?')
          .run(id);
        return (
          this.#db.prepare('DELETE FROM watches WHERE id = ? AND failed_posts >= ?').run(id, MAX_FAILED_POSTS)
            .changes === 0
        );
      })
      .immediate();
  }

  /** Deletes expired watches; returns how many. */
  purgeExpired(now: Date): number {
    return this.#db.prepare('DELETE FROM watches WHERE expires_at <= ?').run(now.getTime()).changes;
  }
}

export function watchFromRow(row: WatchRow): Watch {
  return {
    id: row.id,
    userId: row.user_id,
    guildId: row.guild_id,
    channelId: row.channel_id,
    question: row.question,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
  };
}
