import type Database from 'better-sqlite3';

/** How long a posted answer's citations are followed for corrections. */
export const FOLLOW_DAYS = 30;

/** After this many failed replies a correction is given up (the answer's message was deleted, say). */
export const MAX_FAILED_POSTS = 3;

/** A paragraph as an answer quoted it. */
export interface CitedPassage {
  citation: string;
  articleId: string;
  paragraph: number;
  text: string;
}

/** A cited paragraph of a posted answer, whose message is known, not yet corrected. */
export interface FollowedPassage extends CitedPassage {
  messageId: string;
  guildId: string | null;
  channelId: string;
  citedAt: Date;
}

/** A followed citation's row as both stores return it. */
export interface FollowedRow {
  message_id: string;
  guild_id: string | null;
  channel_id: string;
  cited_at: number;
  citation: string;
  article_id: string;
  paragraph: number;
  text: string;
}

/**
 * The paragraphs public answers cited, kept so that a reload which changes or removes one can be told
 * to the answer's message, once. Rows are written when the answer is rendered, keyed by the interaction;
 * the message id is attached once the transport has posted it (an answer whose id never comes is never
 * followed). A correction is claimed in one UPDATE before it is posted, so several shards or replicas
 * reloading the same change, or a restart, never post it twice.
 */
export class CitedPassages {
  readonly #db: Database.Database;

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /**
   * Stores what the answer of `interactionId` cites, followed from when its message id is attached
   * (at once, given `messageId`).
   */
  follow(answer: {
    interactionId: string;
    messageId?: string;
    guildId: string | null;
    channelId: string;
    citedAt: Date;
    passages: readonly CitedPassage[];
  }): void {
    const insert = this.#db.prepare(
      `INSERT INTO cited_passages (interaction_id, message_id, guild_id, channel_id, cited_at, citation, article_id, paragraph, text)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#db
      .transaction(() => {
        for (const passage of answer.passages) {
          insert.run(
            answer.interactionId,
            answer.messageId ?? null,
            answer.guildId,
            answer.channelId,
            answer.citedAt.getTime(),
            passage.citation,
            passage.articleId,
            passage.paragraph,
            passage.text,
          );
        }
      })
      .immediate();
  }

  /** Whether the answer of `interactionId` has citations waiting for its message id. */
  awaitsMessage(interactionId: string): boolean {
    return (
      this.#db
        .prepare<[string], { n: number }>(
          'SELECT 1 AS n FROM cited_passages WHERE interaction_id = ? AND message_id IS NULL LIMIT 1',
        )
        .get(interactionId) !== undefined
    );
  }

  /** The answer of `interactionId` was posted as `messageId`: from now on its citations are followed. */
  attachMessage(interactionId: string, messageId: string): number {
    return this.#db
      .prepare('UPDATE cited_passages SET message_id = ? WHERE interaction_id = ? AND message_id IS NULL')
      .run(messageId, interactionId).changes;
  }

  /** Whether a message's citations are followed (its next pages then are too). */
  isFollowed(messageId: string): boolean {
    return (
      this.#db
        .prepare<[string], { n: number }>('SELECT 1 AS n FROM cited_passages WHERE message_id = ? LIMIT 1')
        .get(messageId) !== undefined
    );
  }

  /**
   * Every cited paragraph of a posted answer from `since` on that has not been corrected, one per
   * message and citation, in the order they were cited (an answer's first shown first).
   */
  due(since: Date): FollowedPassage[] {
    return this.#db
      .prepare<[number], FollowedRow>(
        `SELECT message_id, guild_id, channel_id, MIN(cited_at) AS cited_at, citation, article_id, paragraph, text
         FROM cited_passages
         WHERE message_id IS NOT NULL AND cited_at >= ?
         GROUP BY message_id, citation
         HAVING SUM(corrected_at IS NOT NULL) = 0
         ORDER BY MIN(id)`,
      )
      .all(since.getTime())
      .map(followedFromRow);
  }

  /**
   * Takes the corrections of `citations` in one message on; returns those this process won (another
   * shard, or an earlier run, may have taken the rest). Post them, then `release` on failure.
   */
  claim(messageId: string, citations: readonly string[], now: Date): string[] {
    const update = this.#db.prepare(
      'UPDATE cited_passages SET corrected_at = ? WHERE message_id = ? AND citation = ? AND corrected_at IS NULL',
    );
    return this.#db
      .transaction(() =>
        citations.filter((citation) => update.run(now.getTime(), messageId, citation).changes > 0),
      )
      .immediate();
  }

  /**
   * The reply failed: the corrections are free for the next reload, unless they failed too often, when
   * they stay taken. Returns whether they are kept.
   */
  release(messageId: string, citations: readonly string[]): boolean {
    const update = this.#db.prepare(
      `UPDATE cited_passages SET failed_posts = failed_posts + 1,
         corrected_at = CASE WHEN failed_posts + 1 >= ${MAX_FAILED_POSTS} THEN corrected_at ELSE NULL END
       WHERE message_id = ? AND citation = ?`,
    );
    return this.#db
      .transaction(() => {
        for (const citation of citations) update.run(messageId, citation);
        const row = this.#db
          .prepare<[string], { failed: number }>(
            'SELECT MAX(failed_posts) AS failed FROM cited_passages WHERE message_id = ?',
          )
          .get(messageId);
        return (row?.failed ?? 0) < MAX_FAILED_POSTS;
      })
      .immediate();
  }

  /** Deletes what was cited before `before` (past the follow window, it is never read again). */
  purgeBefore(before: Date): number {
    return this.#db.prepare('DELETE FROM cited_passages WHERE cited_at < ?').run(before.getTime()).changes;
  }
}

export function followedFromRow(row: FollowedRow): FollowedPassage {
  return {
    messageId: row.message_id,
    guildId: row.guild_id,
    channelId: row.channel_id,
    citedAt: new Date(row.cited_at),
    citation: row.citation,
    articleId: row.article_id,
    paragraph: row.paragraph,
    text: row.text,
  };
}
