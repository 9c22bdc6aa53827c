import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

/** Where something was asked: null guild in direct messages. */
export interface Place {
  guildId: string | null;
  channelId: string | null;
}

/** An answer the bot gave, as stored. */
export interface StoredAnswer extends Place {
  id: number;
  answeredAt: Date;
  messageId: string | null;
  /** Null when questions are not recorded (RECORD_QUESTIONS=false). */
  question: string | null;
  questionHash: string;
  /** First shown first. */
  citations: string[];
  corpusVersion: string;
}

/** A question that got "No coverage found". */
export interface UnansweredQuestion {
  question: string;
  askedAt: Date;
}

/** An answer voted not helpful at least once in a period. */
export interface UnhelpfulAnswer {
  answer: StoredAnswer;
  notHelpful: number;
  helpful: number;
}

/** How a vote changed what was stored. */
export type VoteResult = 'recorded' | 'changed' | 'unchanged';

/** What the community did in a period, for `/about`. */
export interface ActivityCounts {
  answered: number;
  unanswered: number;
  votes: number;
}

/**
 * The same question, however it was typed: the first 12 hex digits of the SHA-256 of its words in
 * lower case. Short enough for a button's custom_id; it identifies, it does not protect.
 */
export function questionHash(question: string): string {
  const normalised = question.replace(/\s+/g, ' ').trim().toLowerCase();
  return createHash('sha256').update(normalised).digest('hex').slice(0, 12);
}

/** An `answers` row as both stores return it (times and ids as numbers). */
export interface AnswerRow {
  id: number;
  answered_at: number;
  guild_id: string | null;
  channel_id: string | null;
  message_id: string | null;
  question: string | null;
  question_hash: string;
  citations: string;
  corpus_version: string;
}

/**
 * What the community did with its answers: the answers given, the votes on them and the questions
 * nothing answered. Every method is one short statement or transaction, so shard processes sharing
 * the file wait for each other for microseconds (the busy timeout covers the rest).
 */
export class CommunityStore {
  readonly #db: Database.Database;

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** Stores an answer that was shown; returns its id. */
  recordAnswer(
    answer: Omit<StoredAnswer, 'id' | 'questionHash' | 'messageId'> & {
      questionHash?: string;
      messageId?: string | null;
    },
  ): number {
    const first = answer.citations[0] ?? '';
    const hash = answer.questionHash ?? questionHash(answer.question ?? '');
    const result = this.#db
      .prepare(
        `INSERT INTO answers (answered_at, guild_id, channel_id, message_id, question, question_hash, citations, first_citation, corpus_version)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        answer.answeredAt.getTime(),
        answer.guildId,
        answer.channelId,
        answer.messageId ?? null,
        answer.question,
        hash,
        JSON.stringify(answer.citations),
        first,
        answer.corpusVersion,
      );
    return Number(result.lastInsertRowid);
  }

  /**
   * The answer a message shows: by its message id once known, else the latest answer in that channel
   * with the same question and first citation (what a button's custom_id carries), which then gets the
   * message id. Undefined if none was recorded.
   */
  findAnswer(lookup: {
    messageId: string;
    questionHash: string;
    firstCitation: string;
    channelId: string | null;
  }): StoredAnswer | undefined {
    return this.#db
      .transaction(() => {
        const byMessage = this.#db
          .prepare<[string], AnswerRow>('SELECT * FROM answers WHERE message_id = ? ORDER BY id DESC LIMIT 1')
          .get(lookup.messageId);
        if (byMessage) return answerFromRow(byMessage);
        const byState = this.#db
          .prepare<[string, string, string | null], AnswerRow>(
            `SELECT * FROM answers WHERE question_hash = ? AND first_citation = ? AND channel_id IS ? AND message_id IS NULL
             ORDER BY answered_at DESC LIMIT 1`,
          )
          .get(lookup.questionHash, lookup.firstCitation, lookup.channelId);
        if (!byState) return undefined;
        this.#db.prepare('UPDATE answers SET message_id = ? WHERE id = ?').run(lookup.messageId, byState.id);
        return answerFromRow({ ...byState, message_id: lookup.messageId });
      })
      .immediate();
  }

  answer(id: number): StoredAnswer | undefined {
    const row = this.#db.prepare<[number], AnswerRow>('SELECT * FROM answers WHERE id = ?').get(id);
    return row ? answerFromRow(row) : undefined;
  }

  /** Stores a "No coverage found". */
  recordUnanswered(
    question: Place & { question: string | null; askedAt: Date; corpusVersion: string },
  ): void {
    this.#db
      .prepare(
        'INSERT INTO unanswered (asked_at, guild_id, channel_id, question, corpus_version) VALUES (?, ?, ?, ?, ?)',
      )
      .run(
        question.askedAt.getTime(),
        question.guildId,
        question.channelId,
        question.question,
        question.corpusVersion,
      );
  }

  /** One vote per user per answer: a second press replaces the first. */
  vote(vote: { answerId: number; userId: string; helpful: boolean; at: Date }): VoteResult {
    return this.#db
      .transaction((): VoteResult => {
        const before = this.#db
          .prepare<[number, string], { helpful: number }>(
            'SELECT helpful FROM votes WHERE answer_id = ? AND user_id = ?',
          )
          .get(vote.answerId, vote.userId);
        const helpful = vote.helpful ? 1 : 0;
        if (before?.helpful === helpful) return 'unchanged';
        this.#db
          .prepare(
            `INSERT INTO votes (answer_id, user_id, helpful, voted_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (answer_id, user_id) DO UPDATE SET helpful = excluded.helpful, voted_at = excluded.voted_at`,
          )
          .run(vote.answerId, vote.userId, helpful, vote.at.getTime());
        return before ? 'changed' : 'recorded';
      })
      .immediate();
  }

  /** Votes on one answer. */
  tally(answerId: number): { helpful: number; notHelpful: number } {
    const row = this.#db
      .prepare<[number], { helpful: number | null; not_helpful: number | null }>(
        'SELECT SUM(helpful) AS helpful, SUM(1 - helpful) AS not_helpful FROM votes WHERE answer_id = ?',
      )
      .get(answerId);
    return { helpful: row?.helpful ?? 0, notHelpful: row?.not_helpful ?? 0 };
  }

  /**
   * Questions without coverage asked since `since` (in one guild, if given), oldest first; those stored
   * without text are left out.
   */
  unansweredSince(since: Date, guildId?: string): UnansweredQuestion[] {
    return this.#db
      .prepare<[{ since: number; guild: string | null }], { question: string; asked_at: number }>(
        `SELECT question, asked_at FROM unanswered
         WHERE asked_at >= @since AND question IS NOT NULL AND (@guild IS NULL OR guild_id = @guild)
         ORDER BY asked_at`,
      )
      .all({ since: since.getTime(), guild: guildId ?? null })
      .map((row) => ({ question: row.question, askedAt: new Date(row.asked_at) }));
  }

  /** Answers (in one guild, if given) with a "Not helpful" vote cast since `since`, most not-helpful first. */
  unhelpfulSince(since: Date, limit: number, guildId?: string): UnhelpfulAnswer[] {
    return this.#db
      .prepare<
        [{ since: number; limit: number; guild: string | null }],
        AnswerRow & { not_helpful: number; helpful_votes: number }
      >(
        `SELECT answers.*, SUM(1 - votes.helpful) AS not_helpful, SUM(votes.helpful) AS helpful_votes
         FROM votes JOIN answers ON answers.id = votes.answer_id
         WHERE votes.voted_at >= @since AND (@guild IS NULL OR answers.guild_id = @guild)
         GROUP BY answers.id HAVING not_helpful > 0
         ORDER BY not_helpful DESC, helpful_votes ASC, answers.answered_at DESC LIMIT @limit`,
      )
      .all({ since: since.getTime(), limit, guild: guildId ?? null })
      .map((row) => ({
        answer: answerFromRow(row),
        notHelpful: row.not_helpful,
        helpful: row.helpful_votes,
      }));
  }

  /** Answers given, questions without coverage and votes cast since `since`. */
  countsSince(since: Date): ActivityCounts {
    const at = since.getTime();
    const count = (sql: string) => this.#db.prepare<[number], { n: number }>(sql).get(at)?.n ?? 0;
    return {
      answered: count('SELECT COUNT(*) AS n FROM answers WHERE answered_at >= ?'),
      unanswered: count('SELECT COUNT(*) AS n FROM unanswered WHERE asked_at >= ?'),
      votes: count('SELECT COUNT(*) AS n FROM votes WHERE voted_at >= ?'),
    };
  }

  /**
   * Deletes answers (with their votes) and questions without coverage older than `before`. Returns how
   * many rows went. One statement per table, each its own short transaction.
   */
  purgeBefore(before: Date): { answers: number; unanswered: number } {
    const at = before.getTime();
    return {
      answers: this.#db.prepare('DELETE FROM answers WHERE answered_at < ?').run(at).changes,
      unanswered: this.#db.prepare('DELETE FROM unanswered WHERE asked_at < ?').run(at).changes,
    };
  }
}

export function answerFromRow(row: AnswerRow): StoredAnswer {
  return {
    id: row.id,
    answeredAt: new Date(row.answered_at),
    guildId: row.guild_id,
    channelId: row.channel_id,
    messageId: row.message_id,
    question: row.question,
    questionHash: row.question_hash,
    citations: JSON.parse(row.citations) as string[],
    corpusVersion: row.corpus_version,
  };
}
