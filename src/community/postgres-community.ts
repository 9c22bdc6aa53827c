import type pg from 'pg';
import { redactedUrl } from '../config.ts';
import {
  type ChannelPlace,
  type ChannelSettings,
  type ChannelSettingsChange,
  type ChannelSettingsRow,
  changeValues,
  settingsFromRow,
} from './channel-settings.ts';
import {
  type CitedPassage,
  FOLLOW_DAYS,
  type FollowedPassage,
  type FollowedRow,
  followedFromRow,
  MAX_FAILED_POSTS as MAX_FAILED_CORRECTIONS,
} from './cited-passages.ts';
import {
  type ActivityCounts,
  type AnswerRow,
  answerFromRow,
  type Place,
  questionHash,
  type StoredAnswer,
  type UnansweredQuestion,
  type UnhelpfulAnswer,
  type VoteResult,
} from './community-store.ts';
import {
  type AddDigestResult,
  DIGESTS_PER_GUILD,
  type Digest,
  type DigestRow,
  digestFromRow,
  digestValues,
  MAX_FAILED_DIGEST_POSTS,
  type NewDigest,
} from './digests.ts';
import { migratePostgres, openPool } from './postgres-database.ts';
import type {
  AnswerRecords,
  CitationRecords,
  DigestRecords,
  RecordStore,
  SettingsRecords,
  WatchRecords,
} from './record-store.ts';
import {
  type AddWatchResult,
  CLAIM_TIMEOUT_MS,
  MAX_FAILED_POSTS as MAX_FAILED_WATCH_POSTS,
  WATCH_LIFETIME_MS,
  WATCHES_PER_MEMBER,
  type Watch,
  type WatchRow,
  type WatchRules,
  watchFromRow,
} from './watch-list.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

type Query = <R extends pg.QueryResultRow>(sql: string, params?: unknown[]) => Promise<pg.QueryResult<R>>;

/**
 * The connection the stores below share: the pool, the schema brought up to date before the first
 * statement (and again after a failed attempt, so a server down at start-up is migrated once it is
 * back), and transactions.
 */
class Connection {
  readonly pool: pg.Pool;
  readonly location: string;
  #migrated: Promise<number> | undefined;

  constructor(pool: pg.Pool, location: string) {
    this.pool = pool;
    this.location = location;
  }

  /** Resolves once the schema is up to date; a failed attempt is tried again by the next caller. */
  ready(): Promise<number> {
    this.#migrated ??= migratePostgres(this.pool, this.location).catch((error: unknown) => {
      this.#migrated = undefined;
      throw error;
    });
    return this.#migrated;
  }

  readonly query: Query = async (sql, params) => {
    await this.ready();
    return this.pool.query(sql, params);
  };

  /** Runs `work` in one transaction on one connection; rolled back if it throws. */
  async transaction<T>(work: (query: Query) => Promise<T>): Promise<T> {
    await this.ready();
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work((sql, params) => client.query(sql, params));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

/** `CommunityStore` in PostgreSQL: the same statements, in its dialect. */
class PostgresAnswers implements AnswerRecords {
  readonly #db: Connection;

  constructor(db: Connection) {
    this.#db = db;
  }

  async recordAnswer(
    answer: Omit<StoredAnswer, 'id' | 'questionHash' | 'messageId'> & {
      questionHash?: string;
      messageId?: string | null;
    },
  ): Promise<number> {
    const result = await this.#db.query<{ id: number }>(
      `INSERT INTO answers (answered_at, guild_id, channel_id, message_id, question, question_hash, citations, first_citation, corpus_version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [
        answer.answeredAt.getTime(),
        answer.guildId,
        answer.channelId,
        answer.messageId ?? null,
        answer.question,
        answer.questionHash ?? questionHash(answer.question ?? ''),
        JSON.stringify(answer.citations),
        answer.citations[0] ?? '',
        answer.corpusVersion,
      ],
    );
    return Number(result.rows[0]?.id);
  }

  findAnswer(lookup: {
    messageId: string;
    questionHash: string;
    firstCitation: string;
    channelId: string | null;
  }): Promise<StoredAnswer | undefined> {
    return this.#db.transaction(async (query) => {
      const byMessage = await query<AnswerRow>(
        'SELECT * FROM answers WHERE message_id = $1 ORDER BY id DESC LIMIT 1',
        [lookup.messageId],
      );
      if (byMessage.rows[0]) return answerFromRow(byMessage.rows[0]);
      const byState = await query<AnswerRow>(
        `SELECT * FROM answers
         WHERE question_hash = $1 AND first_citation = $2 AND channel_id IS NOT DISTINCT FROM $3 AND message_id IS NULL
         ORDER BY answered_at DESC LIMIT 1 FOR UPDATE`,
        [lookup.questionHash, lookup.firstCitation, lookup.channelId],
      );
      const row = byState.rows[0];
      if (!row) return undefined;
      await query('UPDATE answers SET message_id = $1 WHERE id = $2', [lookup.messageId, row.id]);
      return answerFromRow({ ...row, message_id: lookup.messageId });
    });
  }

  async answer(id: number): Promise<StoredAnswer | undefined> {
    const row = (await this.#db.query<AnswerRow>('SELECT * FROM answers WHERE id = $1', [id])).rows[0];
    return row ? answerFromRow(row) : undefined;
  }

  async recordUnanswered(
    question: Place & { question: string | null; askedAt: Date; corpusVersion: string },
  ): Promise<void> {
    await this.#db.query(
      'INSERT INTO unanswered (asked_at, guild_id, channel_id, question, corpus_version) VALUES ($1, $2, $3, $4, $5)',
      [
        question.askedAt.getTime(),
        question.guildId,
        question.channelId,
        question.question,
        question.corpusVersion,
      ],
    );
  }

  async vote(vote: { answerId: number; userId: string; helpful: boolean; at: Date }): Promise<VoteResult> {
    // One statement: a new row (xmax 0), a changed one, or none when the vote is the same.
    const result = await this.#db.query<{ inserted: boolean }>(
      `INSERT INTO votes (answer_id, user_id, helpful, voted_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (answer_id, user_id) DO UPDATE SET helpful = excluded.helpful, voted_at = excluded.voted_at
       WHERE votes.helpful <> excluded.helpful
       RETURNING (xmax = 0) AS inserted`,
      [vote.answerId, vote.userId, vote.helpful ? 1 : 0, vote.at.getTime()],
    );
    const row = result.rows[0];
    return row === undefined ? 'unchanged' : row.inserted ? 'recorded' : 'changed';
  }

  async tally(answerId: number): Promise<{ helpful: number; notHelpful: number }> {
    const row = (
      await this.#db.query<{ helpful: number | null; not_helpful: number | null }>(
        'SELECT SUM(helpful)::int AS helpful, SUM(1 - helpful)::int AS not_helpful FROM votes WHERE answer_id = $1',
        [answerId],
      )
    ).rows[0];
    return { helpful: row?.helpful ?? 0, notHelpful: row?.not_helpful ?? 0 };
  }

  async unansweredSince(since: Date, guildId?: string): Promise<UnansweredQuestion[]> {
    const result = await this.#db.query<{ question: string; asked_at: number }>(
      `SELECT question, asked_at FROM unanswered
       WHERE asked_at >= $1 AND question IS NOT NULL AND ($2::text IS NULL OR guild_id = $2)
       ORDER BY asked_at, id`,
      [since.getTime(), guildId ?? null],
    );
    return result.rows.map((row) => ({ question: row.question, askedAt: new Date(row.asked_at) }));
  }

  async unhelpfulSince(since: Date, limit: number, guildId?: string): Promise<UnhelpfulAnswer[]> {
    const result = await this.#db.query<AnswerRow & { not_helpful: number; helpful_votes: number }>(
      `SELECT answers.*, SUM(1 - votes.helpful)::int AS not_helpful, SUM(votes.helpful)::int AS helpful_votes
       FROM votes JOIN answers ON answers.id = votes.answer_id
       WHERE votes.voted_at >= $1 AND ($2::text IS NULL OR answers.guild_id = $2)
       GROUP BY answers.id HAVING SUM(1 - votes.helpful) > 0
       ORDER BY not_helpful DESC, helpful_votes ASC, answers.answered_at DESC LIMIT $3`,
      [since.getTime(), guildId ?? null, limit],
    );
    return result.rows.map((row) => ({
      answer: answerFromRow(row),
      notHelpful: row.not_helpful,
      helpful: row.helpful_votes,
    }));
  }

  async countsSince(since: Date): Promise<ActivityCounts> {
    const row = (
      await this.#db.query<ActivityCounts>(
        `SELECT (SELECT COUNT(*)::int FROM answers WHERE answered_at >= $1) AS answered,
                (SELECT COUNT(*)::int FROM unanswered WHERE asked_at >= $1) AS unanswered,
                (SELECT COUNT(*)::int FROM votes WHERE voted_at >= $1) AS votes`,
        [since.getTime()],
      )
    ).rows[0];
    return { answered: row?.answered ?? 0, unanswered: row?.unanswered ?? 0, votes: row?.votes ?? 0 };
  }

  async purgeBefore(before: Date): Promise<{ answers: number; unanswered: number }> {
    const at = before.getTime();
    const answers = await this.#db.query('DELETE FROM answers WHERE answered_at < $1', [at]);
    const unanswered = await this.#db.query('DELETE FROM unanswered WHERE asked_at < $1', [at]);
    return { answers: answers.rowCount ?? 0, unanswered: unanswered.rowCount ?? 0 };
  }
}

/** `WatchList` in PostgreSQL. */
class PostgresWatches implements WatchRecords {
  readonly #db: Connection;
  readonly lifetimeMs: number;
  readonly perMember: number;

  constructor(db: Connection, rules: WatchRules = {}) {
    this.#db = db;
    this.lifetimeMs = rules.lifetimeMs ?? WATCH_LIFETIME_MS;
    this.perMember = rules.perMember ?? WATCHES_PER_MEMBER;
  }

  add(watch: {
    userId: string;
    guildId: string | null;
    channelId: string;
    question: string;
    at: Date;
  }): Promise<AddWatchResult> {
    return this.#db.transaction(async (query): Promise<AddWatchResult> => {
      const now = watch.at.getTime();
      // One member's watches are counted and added one transaction at a time, on any replica.
      await query('SELECT pg_advisory_xact_lock(hashtext($1))', [`watches:${watch.userId}`]);
      const existing = await query<WatchRow>(
        'SELECT * FROM watches WHERE user_id = $1 AND channel_id = $2 AND question = $3 AND expires_at > $4',
        [watch.userId, watch.channelId, watch.question, now],
      );
      if (existing.rows[0]) return { status: 'already-watching', watch: watchFromRow(existing.rows[0]) };
      const held = await query<{ n: number }>(
        'SELECT COUNT(*)::int AS n FROM watches WHERE user_id = $1 AND expires_at > $2',
        [watch.userId, now],
      );
      if ((held.rows[0]?.n ?? 0) >= this.perMember) return { status: 'limit-reached', limit: this.perMember };
      // An expired watch of the same question may still be there until the daily clean-up.
      await query('DELETE FROM watches WHERE user_id = $1 AND channel_id = $2 AND question = $3', [
        watch.userId,
        watch.channelId,
        watch.question,
      ]);
      const added = await query<WatchRow>(
        `INSERT INTO watches (user_id, guild_id, channel_id, question, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
        [watch.userId, watch.guildId, watch.channelId, watch.question, now, now + this.lifetimeMs],
      );
      const row = added.rows[0];
      if (!row) throw new Error('PostgresWatches: a watch just inserted is missing');
      return { status: 'added', watch: watchFromRow(row) };
    });
  }

  async of(userId: string, now: Date): Promise<Watch[]> {
    const result = await this.#db.query<WatchRow>(
      'SELECT * FROM watches WHERE user_id = $1 AND expires_at > $2 ORDER BY created_at, id',
      [userId, now.getTime()],
    );
    return result.rows.map(watchFromRow);
  }

  async cancel(id: number, userId: string): Promise<boolean> {
    return (
      (await this.#db.query('DELETE FROM watches WHERE id = $1 AND user_id = $2', [id, userId])).rowCount ===
      1
    );
  }

  async due(now: Date): Promise<Watch[]> {
    const at = now.getTime();
    const result = await this.#db.query<WatchRow>(
      'SELECT * FROM watches WHERE expires_at > $1 AND (claimed_at IS NULL OR claimed_at < $2) ORDER BY created_at, id',
      [at, at - CLAIM_TIMEOUT_MS],
    );
    return result.rows.map(watchFromRow);
  }

  async claim(id: number, now: Date): Promise<boolean> {
    const at = now.getTime();
    // Row locks make this one UPDATE win for exactly one replica: the others re-read the claimed row.
    const result = await this.#db.query(
      'UPDATE watches SET claimed_at = $1 WHERE id = $2 AND (claimed_at IS NULL OR claimed_at < $3)',
      [at, id, at - CLAIM_TIMEOUT_MS],
    );
    return result.rowCount === 1;
  }

  async finish(id: number): Promise<void> {
    await this.#db.query('DELETE FROM watches WHERE id = $1', [id]);
  }

  release(id: number): Promise<boolean> {
    return this.#db.transaction(async (query) => {
      await query('UPDATE watches SET claimed_at = NULL, failed_posts = failed_posts + 1 WHERE id = $1', [
        id,
      ]);
      const deleted = await query('DELETE FROM watches WHERE id = $1 AND failed_posts >= $2', [
        id,
        MAX_FAILED_WATCH_POSTS,
      ]);
      return deleted.rowCount === 0;
    });
  }

  async purgeExpired(now: Date): Promise<number> {
    return (
      (await this.#db.query('DELETE FROM watches WHERE expires_at <= $1', [now.getTime()])).rowCount ?? 0
    );
  }
}

/** `CitedPassages` in PostgreSQL. */
class PostgresCitations implements CitationRecords {
  readonly #db: Connection;

  constructor(db: Connection) {
    this.#db = db;
  }

  async follow(answer: {
    interactionId: string;
    messageId?: string;
    guildId: string | null;
    channelId: string;
    citedAt: Date;
    passages: readonly CitedPassage[];
  }): Promise<void> {
    if (answer.passages.length === 0) return;
    // One statement for every passage: all of them or none.
    const values: unknown[] = [];
    const rows = answer.passages.map((passage, index) => {
      values.push(passage.citation, passage.articleId, passage.paragraph, passage.text);
      const at = 6 + index * 4;
      return `($1, $2, $3, $4, $5, $${at}, $${at + 1}, $${at + 2}, $${at + 3})`;
    });
    await this.#db.query(
      `INSERT INTO cited_passages (interaction_id, message_id, guild_id, channel_id, cited_at, citation, article_id, paragraph, text)
       VALUES ${rows.join(', ')}`,
      [
        answer.interactionId,
        answer.messageId ?? null,
        answer.guildId,
        answer.channelId,
        answer.citedAt.getTime(),
        ...values,
      ],
    );
  }

  async awaitsMessage(interactionId: string): Promise<boolean> {
    const result = await this.#db.query(
      'SELECT 1 FROM cited_passages WHERE interaction_id = $1 AND message_id IS NULL LIMIT 1',
      [interactionId],
    );
    return result.rows.length > 0;
  }

  async attachMessage(interactionId: string, messageId: string): Promise<number> {
    const result = await this.#db.query(
      'UPDATE cited_passages SET message_id = $1 WHERE interaction_id = $2 AND message_id IS NULL',
      [messageId, interactionId],
    );
    return result.rowCount ?? 0;
  }

  async isFollowed(messageId: string): Promise<boolean> {
    const result = await this.#db.query('SELECT 1 FROM cited_passages WHERE message_id = $1 LIMIT 1', [
      messageId,
    ]);
    return result.rows.length > 0;
  }

  async due(since: Date): Promise<FollowedPassage[]> {
    // Each message's citation once, as first cited, unless any of its rows was corrected.
    const result = await this.#db.query<FollowedRow>(
      `SELECT message_id, guild_id, channel_id, cited_at, citation, article_id, paragraph, text FROM (
         SELECT DISTINCT ON (message_id, citation) *
         FROM cited_passages cited
         WHERE message_id IS NOT NULL AND cited_at >= $1
           AND NOT EXISTS (
             SELECT 1 FROM cited_passages corrected
             WHERE corrected.message_id = cited.message_id AND corrected.citation = cited.citation
               AND corrected.cited_at >= $1 AND corrected.corrected_at IS NOT NULL)
         ORDER BY message_id, citation, cited_at, id
       ) first_cited ORDER BY id`,
      [since.getTime()],
    );
    return result.rows.map(followedFromRow);
  }

  claim(messageId: string, citations: readonly string[], now: Date): Promise<string[]> {
    return this.#db.transaction(async (query) => {
      const won: string[] = [];
      for (const citation of citations) {
        const result = await query(
          'UPDATE cited_passages SET corrected_at = $1 WHERE message_id = $2 AND citation = $3 AND corrected_at IS NULL',
          [now.getTime(), messageId, citation],
        );
        if ((result.rowCount ?? 0) > 0) won.push(citation);
      }
      return won;
    });
  }

  release(messageId: string, citations: readonly string[]): Promise<boolean> {
    return this.#db.transaction(async (query) => {
      for (const citation of citations) {
        await query(
          `UPDATE cited_passages SET failed_posts = failed_posts + 1,
             corrected_at = CASE WHEN failed_posts + 1 >= ${MAX_FAILED_CORRECTIONS} THEN corrected_at ELSE NULL END
           WHERE message_id = $1 AND citation = $2`,
          [messageId, citation],
        );
      }
      const row = (
        await query<{ failed: number | null }>(
          'SELECT MAX(failed_posts) AS failed FROM cited_passages WHERE message_id = $1',
          [messageId],
        )
      ).rows[0];
      return (row?.failed ?? 0) < MAX_FAILED_CORRECTIONS;
    });
  }

  async purgeBefore(before: Date): Promise<number> {
    return (
      (await this.#db.query('DELETE FROM cited_passages WHERE cited_at < $1', [before.getTime()])).rowCount ??
      0
    );
  }
}

/** `ChannelSettingsStore` in PostgreSQL. */
class PostgresSettings implements SettingsRecords {
  readonly #db: Connection;

  constructor(db: Connection) {
    this.#db = db;
  }

  async of(place: ChannelPlace): Promise<ChannelSettings> {
    const result = await this.#db.query<ChannelSettingsRow>(
      'SELECT thread_mode, visibility, outlets FROM channel_settings WHERE guild_id = $1 AND channel_id = $2',
      [place.guildId, place.channelId],
    );
    return settingsFromRow(result.rows[0]);
  }

  async change(place: ChannelPlace, change: ChannelSettingsChange, at: Date): Promise<ChannelSettings> {
    const values = changeValues(change);
    const result = await this.#db.query<ChannelSettingsRow>(
      `INSERT INTO channel_settings (guild_id, channel_id, thread_mode, visibility, outlets, updated_at)
       VALUES ($1, $2, COALESCE($3::boolean, FALSE), COALESCE($4::text, 'public'), COALESCE($5::text, '[]'), $6)
       ON CONFLICT (guild_id, channel_id) DO UPDATE SET
         thread_mode = COALESCE($3::boolean, channel_settings.thread_mode),
         visibility = COALESCE($4::text, channel_settings.visibility),
         outlets = COALESCE($5::text, channel_settings.outlets),
         updated_at = $6
       RETURNING thread_mode, visibility, outlets`,
      [place.guildId, place.channelId, values.threadMode, values.visibility, values.outlets, at.getTime()],
    );
    return settingsFromRow(result.rows[0]);
  }

  async reset(place: ChannelPlace): Promise<boolean> {
    const result = await this.#db.query(
      'DELETE FROM channel_settings WHERE guild_id = $1 AND channel_id = $2',
      [place.guildId, place.channelId],
    );
    return result.rowCount === 1;
  }

  async answerChannels(guildId: string): Promise<string[]> {
    const result = await this.#db.query<{ channel_id: string }>(
      'SELECT channel_id FROM answer_channels WHERE guild_id = $1 ORDER BY added_at, channel_id',
      [guildId],
    );
    return result.rows.map((row) => row.channel_id);
  }

  async addAnswerChannel(place: ChannelPlace, at: Date): Promise<boolean> {
    const result = await this.#db.query(
      'INSERT INTO answer_channels (guild_id, channel_id, added_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [place.guildId, place.channelId, at.getTime()],
    );
    return result.rowCount === 1;
  }

  async removeAnswerChannel(place: ChannelPlace): Promise<boolean> {
    const result = await this.#db.query(
      'DELETE FROM answer_channels WHERE guild_id = $1 AND channel_id = $2',
      [place.guildId, place.channelId],
    );
    return result.rowCount === 1;
  }

  async answerEverywhere(guildId: string): Promise<number> {
    return (await this.#db.query('DELETE FROM answer_channels WHERE guild_id = $1', [guildId])).rowCount ?? 0;
  }
}

/** `DigestList` in PostgreSQL. */
class PostgresDigests implements DigestRecords {
  readonly #db: Connection;

  constructor(db: Connection) {
    this.#db = db;
  }

  add(digest: NewDigest): Promise<AddDigestResult> {
    return this.#db.transaction(async (query): Promise<AddDigestResult> => {
      // One guild's digests are counted and added one transaction at a time, on any replica.
      await query('SELECT pg_advisory_xact_lock(hashtext($1))', [`digests:${digest.guildId}`]);
      const held = await query<{ n: number }>('SELECT COUNT(*)::int AS n FROM digests WHERE guild_id = $1', [
        digest.guildId,
      ]);
      if ((held.rows[0]?.n ?? 0) >= DIGESTS_PER_GUILD)
        return { status: 'limit-reached', limit: DIGESTS_PER_GUILD };
      const added = await query<DigestRow>(
        `INSERT INTO digests (guild_id, channel_id, every, weekday, at_minutes, time_zone, topic, outlets, created_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
        digestValues(digest),
      );
      const row = added.rows[0];
      if (!row) throw new Error('PostgresDigests: a digest just inserted is missing');
      return { status: 'added', digest: digestFromRow(row) };
    });
  }

  async of(guildId: string): Promise<Digest[]> {
    const result = await this.#db.query<DigestRow>('SELECT * FROM digests WHERE guild_id = $1 ORDER BY id', [
      guildId,
    ]);
    return result.rows.map(digestFromRow);
  }

  async all(): Promise<Digest[]> {
    return (await this.#db.query<DigestRow>('SELECT * FROM digests ORDER BY id')).rows.map(digestFromRow);
  }

  async get(id: number): Promise<Digest | undefined> {
    const row = (await this.#db.query<DigestRow>('SELECT * FROM digests WHERE id = $1', [id])).rows[0];
    return row ? digestFromRow(row) : undefined;
  }

  async remove(guildId: string, id: number): Promise<boolean> {
    return (
      (await this.#db.query('DELETE FROM digests WHERE id = $1 AND guild_id = $2', [id, guildId]))
        .rowCount === 1
    );
  }

  async claim(id: number, previous: number | null, period: number): Promise<boolean> {
    // Row locks make this one UPDATE win for exactly one replica: the others re-read the moved period.
    const result = await this.#db.query(
      `UPDATE digests SET last_period = $1
       WHERE id = $2 AND last_period IS NOT DISTINCT FROM $3::bigint AND ($3::bigint IS NULL OR $1 > $3::bigint)`,
      [period, id, previous],
    );
    return result.rowCount === 1;
  }

  release(id: number, previous: number | null, period: number): Promise<boolean> {
    return this.#db.transaction(async (query) => {
      await query('UPDATE digests SET failed_posts = failed_posts + 1 WHERE id = $1', [id]);
      const given = await query(
        'UPDATE digests SET last_period = $1 WHERE id = $2 AND last_period = $3 AND failed_posts < $4',
        [previous, id, period, MAX_FAILED_DIGEST_POSTS],
      );
      if (given.rowCount === 0) await query('UPDATE digests SET failed_posts = 0 WHERE id = $1', [id]);
      return given.rowCount === 1;
    });
  }

  async sent(id: number): Promise<void> {
    await this.#db.query('UPDATE digests SET failed_posts = 0 WHERE id = $1', [id]);
  }

  async recordArrivals(articleIds: readonly string[], at: Date): Promise<number> {
    if (articleIds.length === 0) return 0;
    // One statement for every article: all of them or none.
    const result = await this.#db.query(
      `INSERT INTO article_arrivals (article_id, arrived_at)
       SELECT id, $2 FROM unnest($1::text[]) AS id ON CONFLICT DO NOTHING`,
      [articleIds, at.getTime()],
    );
    return result.rowCount ?? 0;
  }

  async arrivedBetween(after: number, until: number): Promise<string[]> {
    const result = await this.#db.query<{ article_id: string }>(
      `SELECT article_id FROM article_arrivals WHERE arrived_at > $1 AND arrived_at <= $2
       ORDER BY arrived_at, article_id`,
      [after, until],
    );
    return result.rows.map((row) => row.article_id);
  }
}

/**
 * The community's records in PostgreSQL (DATABASE_URL), shared by every replica: a record written by
 * one is read by all, and the claims on watches and corrections are row updates only one of them wins.
 * Nothing connects until the first statement, which brings the schema up to date first.
 */
export class PostgresCommunity implements RecordStore {
  readonly kind = 'postgres';
  readonly location: string;
  readonly records: PostgresAnswers;
  readonly watches: PostgresWatches;
  readonly citations: PostgresCitations;
  readonly settings: PostgresSettings;
  readonly digests: PostgresDigests;
  readonly recordQuestions: boolean;
  readonly recordDays: number;
  readonly #db: Connection;

  constructor(options: {
    url: string;
    recordQuestions?: boolean;
    recordDays?: number;
    watchRules?: WatchRules;
  }) {
    this.location = redactedUrl(options.url);
    this.#db = new Connection(openPool(options.url), this.location);
    this.records = new PostgresAnswers(this.#db);
    this.watches = new PostgresWatches(this.#db, options.watchRules);
    this.citations = new PostgresCitations(this.#db);
    this.settings = new PostgresSettings(this.#db);
    this.digests = new PostgresDigests(this.#db);
    this.recordQuestions = options.recordQuestions ?? true;
    this.recordDays = options.recordDays ?? 90;
  }

  /** Connects and migrates now; rejects with what went wrong (start-up logs it, and goes on). */
  ready(): Promise<number> {
    return this.#db.ready();
  }

  async enforceRetention(
    now: Date,
  ): Promise<{ answers: number; unanswered: number; watches: number; cited: number }> {
    const before = new Date(now.getTime() - this.recordDays * DAY_MS);
    return {
      ...(await this.records.purgeBefore(before)),
      watches: await this.watches.purgeExpired(now),
      cited: await this.citations.purgeBefore(new Date(now.getTime() - FOLLOW_DAYS * DAY_MS)),
    };
  }

  async close(): Promise<void> {
    await this.#db.pool.end();
  }
}
