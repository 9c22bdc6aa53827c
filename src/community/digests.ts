import type Database from 'better-sqlite3';

/** A digest as moderators set it up with `/digest add`. */
export interface Digest {
  id: number;
  guildId: string;
  /** Where it is posted. */
  channelId: string;
  every: 'day' | 'week';
  /** 0 Sunday … 6 Saturday (weekly digests). */
  weekday: number;
  /** Minutes after local midnight. */
  atMinutes: number;
  timeZone: string;
  /** Only new articles with every word of it; null: every new article. */
  topic: string | null;
  /** Only these outlets' new articles; empty: every outlet. */
  outlets: string[];
  createdBy: string;
  createdAt: Date;
  /** The scheduled instant of the last period claimed (sent, or found empty); null before the first. */
  lastPeriod: number | null;
}

/** What `/digest add` stores. */
export type NewDigest = Omit<Digest, 'id' | 'lastPeriod'>;

/** At most this many digests per server: enough for a few channels, and a `/digest list` that fits. */
export const DIGESTS_PER_GUILD = 10;
/** A digest whose post fails this many times in a row skips that period (a deleted channel, lost permissions). */
export const MAX_FAILED_DIGEST_POSTS = 3;

/** A `digests` row as both stores return it. */
export interface DigestRow {
  id: number | string;
  guild_id: string;
  channel_id: string;
  every: string;
  weekday: number;
  at_minutes: number;
  time_zone: string;
  topic: string | null;
  outlets: string;
  created_by: string;
  created_at: number | string;
  last_period: number | string | null;
}

/** What `add` did. */
export type AddDigestResult =
  | { status: 'added'; digest: Digest }
  | { status: 'limit-reached'; limit: number };

/**
 * Scheduled digests and the arrival time of every article, in the SQLite file. A period is sent once
 * across shards, replicas and restarts: a process must `claim` it, one UPDATE that moves the digest's
 * last period from what it read to the new one, which only one of them wins. Articles' arrivals are
 * kept for good (never by retention): an arrival forgotten would make an old article new again.
 */
export class DigestList {
  readonly #db: Database.Database;

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** Adds a digest unless the guild already has the most allowed. */
  add(digest: NewDigest): AddDigestResult {
    return this.#db
      .transaction((): AddDigestResult => {
        const held =
          this.#db
            .prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM digests WHERE guild_id = ?')
            .get(digest.guildId)?.n ?? 0;
        if (held >= DIGESTS_PER_GUILD) return { status: 'limit-reached', limit: DIGESTS_PER_GUILD };
        const row = this.#db
          .prepare<unknown[], DigestRow>(
            `INSERT INTO digests (guild_id, channel_id, every, weekday, at_minutes, time_zone, topic, outlets, created_by, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
          )
          .get(...digestValues(digest));
        if (!row) throw new Error('DigestList: a digest just inserted is missing');
        return { status: 'added', digest: digestFromRow(row) };
      })
      .immediate();
  }

  /** The guild's digests, oldest first. */
  of(guildId: string): Digest[] {
    return this.#db
      .prepare<[string], DigestRow>('SELECT * FROM digests WHERE guild_id = ? ORDER BY id')
      .all(guildId)
      .map(digestFromRow);
  }

  /** Every digest, for the scheduler. */
  all(): Digest[] {
    return this.#db.prepare<[], DigestRow>('SELECT * FROM digests ORDER BY id').all().map(digestFromRow);
  }

  /** One digest by id; undefined once removed. */
  get(id: number): Digest | undefined {
    const row = this.#db.prepare<[number], DigestRow>('SELECT * FROM digests WHERE id = ?').get(id);
    return row ? digestFromRow(row) : undefined;
  }

  /** Removes one of the guild's digests; false if it has none with that id. */
  remove(guildId: string, id: number): boolean {
    return (
      this.#db.prepare('DELETE FROM digests WHERE id = ? AND guild_id = ?').run(id, guildId).changes === 1
    );
  }

  /**
   * Takes the period ending at `period` for sending: true for exactly one of the processes that read
   * `previous` as the digest's last period and try.
   */
  claim(id: number, previous: number | null, period: number): boolean {
    return (
      this.#db
        .prepare(
          'UPDATE digests SET last_period = ? WHERE id = ? AND last_period IS ? AND (? IS NULL OR ? > ?)',
        )
        .run(period, id, previous, previous, period, previous).changes === 1
    );
  }

  /**
   * The post failed: the period is given back (sent at the next check), unless it failed
   * `MAX_FAILED_DIGEST_POSTS` times in a row, when it stays claimed and the next period is tried.
   * Returns whether it was given back.
   */
  release(id: number, previous: number | null, period: number): boolean {
    return this.#db
      .transaction(() => {
        this.#db.prepare('UPDATE digests SET failed_posts = failed_posts + 1 WHERE id = ?').run(id);
        const given = this.#db
          .prepare('UPDATE digests SET last_period = ? WHERE id = ? AND last_period = ? AND failed_posts < ?')
          .run(previous, id, period, MAX_FAILED_DIGEST_POSTS).changes;
        if (given === 0) this.#db.prepare('UPDATE digests SET failed_posts = 0 WHERE id = ?').run(id);
        return given === 1;
      })
      .immediate();
  }

  /** The period's post went out: failures are counted afresh. */
  sent(id: number): void {
    this.#db.prepare('UPDATE digests SET failed_posts = 0 WHERE id = ?').run(id);
  }

  /** Records the articles' arrival at `at`, for those not recorded before; returns how many were new. */
  recordArrivals(articleIds: readonly string[], at: Date): number {
    const insert = this.#db.prepare(
      'INSERT INTO article_arrivals (article_id, arrived_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
    );
    return this.#db
      .transaction(() => {
        let added = 0;
        for (const id of articleIds) added += insert.run(id, at.getTime()).changes;
        return added;
      })
      .immediate();
  }

  /** The articles that arrived after `after` and at or before `until` (ms), first arrived first. */
  arrivedBetween(after: number, until: number): string[] {
    return this.#db
      .prepare<[number, number], { article_id: string }>(
        'SELECT article_id FROM article_arrivals WHERE arrived_at > ? AND arrived_at <= ? ORDER BY arrived_at, article_id',
      )
      .all(after, until)
      .map((row) => row.article_id);
  }
}

/** The values of an INSERT, in the column order both stores use. */
export function digestValues(digest: NewDigest): unknown[] {
  return [
    digest.guildId,
    digest.channelId,
    digest.every,
    digest.weekday,
    digest.atMinutes,
    digest.timeZone,
    digest.topic,
    JSON.stringify(digest.outlets),
    digest.createdBy,
    digest.createdAt.getTime(),
  ];
}

export function digestFromRow(row: DigestRow): Digest {
  const outlets: unknown = JSON.parse(row.outlets);
  return {
    id: Number(row.id),
    guildId: row.guild_id,
    channelId: row.channel_id,
    every: row.every === 'week' ? 'week' : 'day',
    weekday: Number(row.weekday),
    atMinutes: Number(row.at_minutes),
    timeZone: row.time_zone,
    topic: row.topic,
    outlets: Array.isArray(outlets) ? outlets.filter((o): o is string => typeof o === 'string') : [],
    createdBy: row.created_by,
    createdAt: new Date(Number(row.created_at)),
    lastPeriod: row.last_period === null ? null : Number(row.last_period),
  };
}
