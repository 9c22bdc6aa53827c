/**
 * One step of the schema, for both stores: `sqlite` runs in the SQLite file (after it `PRAGMA
 * user_version` says `version`), `postgres` in PostgreSQL (after it `newsdesk_schema.version` does).
 * The two say the same thing in each dialect: same tables, columns, meanings and indexes.
 */
export interface Migration {
  version: number;
  /** What the step does, for the log. */
  name: string;
  sqlite: string;
  postgres: string;
}

/**
 * The schema's history, oldest first, one list for both stores. A released step is never edited: a
 * change is a new step (in both dialects), so a database written by any earlier version is brought up
 * to date by running the steps it lacks. Times are milliseconds since the epoch; ids are Discord
 * snowflakes as text.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'answers, votes and questions without coverage',
    sqlite: `
        CREATE TABLE answers (
          id INTEGER PRIMARY KEY,
          answered_at INTEGER NOT NULL,
          guild_id TEXT,
          channel_id TEXT,
          -- Filled once known (a vote on the message, or a transport that reads it back).
          message_id TEXT,
          -- NULL when RECORD_QUESTIONS=false: counts and citations are kept, the question is not.
          question TEXT,
          question_hash TEXT NOT NULL,
          -- JSON array of the citations shown, first shown first.
          citations TEXT NOT NULL,
          first_citation TEXT NOT NULL,
          corpus_version TEXT NOT NULL
        );
        CREATE INDEX answers_by_time ON answers (answered_at);
        CREATE INDEX answers_by_message ON answers (message_id) WHERE message_id IS NOT NULL;
        CREATE INDEX answers_by_state ON answers (question_hash, first_citation, channel_id, answered_at);

        CREATE TABLE votes (
          answer_id INTEGER NOT NULL REFERENCES answers (id) ON DELETE CASCADE,
          user_id TEXT NOT NULL,
          helpful INTEGER NOT NULL CHECK (helpful IN (0, 1)),
          voted_at INTEGER NOT NULL,
          PRIMARY KEY (answer_id, user_id)
        );
        CREATE INDEX votes_by_time ON votes (voted_at);

        CREATE TABLE unanswered (
          id INTEGER PRIMARY KEY,
          asked_at INTEGER NOT NULL,
          guild_id TEXT,
          channel_id TEXT,
          question TEXT,
          corpus_version TEXT NOT NULL
        );
        CREATE INDEX unanswered_by_time ON unanswered (asked_at);
      `,
    postgres: `
        CREATE TABLE answers (
          id BIGSERIAL PRIMARY KEY,
          answered_at BIGINT NOT NULL,
          guild_id TEXT,
          channel_id TEXT,
          message_id TEXT,
          question TEXT,
          question_hash TEXT NOT NULL,
          citations TEXT NOT NULL,
          first_citation TEXT NOT NULL,
          corpus_version TEXT NOT NULL
        );
        CREATE INDEX answers_by_time ON answers (answered_at);
        CREATE INDEX answers_by_message ON answers (message_id) WHERE message_id IS NOT NULL;
        CREATE INDEX answers_by_state ON answers (question_hash, first_citation, channel_id, answered_at);

        CREATE TABLE votes (
          answer_id BIGINT NOT NULL REFERENCES answers (id) ON DELETE CASCADE,
          user_id TEXT NOT NULL,
          helpful SMALLINT NOT NULL CHECK (helpful IN (0, 1)),
          voted_at BIGINT NOT NULL,
          PRIMARY KEY (answer_id, user_id)
        );
        CREATE INDEX votes_by_time ON votes (voted_at);

        CREATE TABLE unanswered (
          id BIGSERIAL PRIMARY KEY,
          asked_at BIGINT NOT NULL,
          guild_id TEXT,
          channel_id TEXT,
          question TEXT,
          corpus_version TEXT NOT NULL
        );
        CREATE INDEX unanswered_by_time ON unanswered (asked_at);
      `,
  },
  {
    version: 2,
    name: 'watched questions',
    sqlite: `
        CREATE TABLE watches (
          id INTEGER PRIMARY KEY,
          user_id TEXT NOT NULL,
          guild_id TEXT,
          channel_id TEXT NOT NULL,
          question TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL,
          -- Set while one process posts the answer, so several shards or replicas post it once.
          claimed_at INTEGER,
          failed_posts INTEGER NOT NULL DEFAULT 0,
          UNIQUE (user_id, channel_id, question)
        );
        CREATE INDEX watches_by_user ON watches (user_id);
        CREATE INDEX watches_by_expiry ON watches (expires_at);
      `,
    postgres: `
        CREATE TABLE watches (
          id BIGSERIAL PRIMARY KEY,
          user_id TEXT NOT NULL,
          guild_id TEXT,
          channel_id TEXT NOT NULL,
          question TEXT NOT NULL,
          created_at BIGINT NOT NULL,
          expires_at BIGINT NOT NULL,
          claimed_at BIGINT,
          failed_posts INTEGER NOT NULL DEFAULT 0,
          UNIQUE (user_id, channel_id, question)
        );
        CREATE INDEX watches_by_user ON watches (user_id);
        CREATE INDEX watches_by_expiry ON watches (expires_at);
      `,
  },
  {
    version: 3,
    name: 'passages cited by posted answers, followed for corrections',
    sqlite: `
        CREATE TABLE cited_passages (
          id INTEGER PRIMARY KEY,
          -- The interaction that posted the answer: its message id is attached once the reply is out.
          interaction_id TEXT NOT NULL,
          message_id TEXT,
          guild_id TEXT,
          channel_id TEXT NOT NULL,
          cited_at INTEGER NOT NULL,
          citation TEXT NOT NULL,
          article_id TEXT NOT NULL,
          paragraph INTEGER NOT NULL,
          -- The paragraph as the answer quoted it: what a later reload's text is compared with.
          text TEXT NOT NULL,
          -- Set when a process takes the correction on (once across shards and restarts).
          corrected_at INTEGER,
          failed_posts INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX cited_by_interaction ON cited_passages (interaction_id) WHERE message_id IS NULL;
        CREATE INDEX cited_by_message ON cited_passages (message_id, citation);
        CREATE INDEX cited_by_time ON cited_passages (cited_at);
      `,
    postgres: `
        CREATE TABLE cited_passages (
          id BIGSERIAL PRIMARY KEY,
          interaction_id TEXT NOT NULL,
          message_id TEXT,
          guild_id TEXT,
          channel_id TEXT NOT NULL,
          cited_at BIGINT NOT NULL,
          citation TEXT NOT NULL,
          article_id TEXT NOT NULL,
          paragraph INTEGER NOT NULL,
          text TEXT NOT NULL,
          corrected_at BIGINT,
          failed_posts INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX cited_by_interaction ON cited_passages (interaction_id) WHERE message_id IS NULL;
        CREATE INDEX cited_by_message ON cited_passages (message_id, citation);
        CREATE INDEX cited_by_time ON cited_passages (cited_at);
      `,
  },
  {
    version: 4,
    name: 'channel settings and answer channels',
    sqlite: `
        CREATE TABLE channel_settings (
          guild_id TEXT NOT NULL,
          channel_id TEXT NOT NULL,
          thread_mode INTEGER NOT NULL DEFAULT 0 CHECK (thread_mode IN (0, 1)),
          visibility TEXT NOT NULL DEFAULT 'public' CHECK (visibility IN ('public', 'private')),
          -- JSON array of publishers as the corpus names them; empty: every outlet.
          outlets TEXT NOT NULL DEFAULT '[]',
          updated_at INTEGER NOT NULL,
          PRIMARY KEY (guild_id, channel_id)
        );

        -- A guild with no row here is answered in every channel.
        CREATE TABLE answer_channels (
          guild_id TEXT NOT NULL,
          channel_id TEXT NOT NULL,
          added_at INTEGER NOT NULL,
          PRIMARY KEY (guild_id, channel_id)
        );
      `,
    postgres: `
        CREATE TABLE channel_settings (
          guild_id TEXT NOT NULL,
          channel_id TEXT NOT NULL,
          thread_mode BOOLEAN NOT NULL DEFAULT FALSE,
          visibility TEXT NOT NULL DEFAULT 'public' CHECK (visibility IN ('public', 'private')),
          outlets TEXT NOT NULL DEFAULT '[]',
          updated_at BIGINT NOT NULL,
          PRIMARY KEY (guild_id, channel_id)
        );

        CREATE TABLE answer_channels (
          guild_id TEXT NOT NULL,
          channel_id TEXT NOT NULL,
          added_at BIGINT NOT NULL,
          PRIMARY KEY (guild_id, channel_id)
        );
      `,
  },
  {
    version: 5,
    name: 'scheduled digests and when each article arrived',
    sqlite: `
        CREATE TABLE digests (
          id INTEGER PRIMARY KEY,
          guild_id TEXT NOT NULL,
          channel_id TEXT NOT NULL,
          every TEXT NOT NULL CHECK (every IN ('day', 'week')),
          -- 0 Sunday to 6 Saturday, for weekly digests.
          weekday INTEGER NOT NULL DEFAULT 1,
          -- Minutes after midnight in time_zone.
          at_minutes INTEGER NOT NULL CHECK (at_minutes BETWEEN 0 AND 1439),
          time_zone TEXT NOT NULL,
          topic TEXT,
          -- JSON array of publishers as the corpus names them; empty: every outlet.
          outlets TEXT NOT NULL DEFAULT '[]',
          created_by TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          -- The scheduled instant of the last period claimed: moved by one UPDATE that one process wins.
          last_period INTEGER,
          failed_posts INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX digests_by_guild ON digests (guild_id);

        -- When the bot first served each article: what is new for a digest. Kept for good.
        CREATE TABLE article_arrivals (
          article_id TEXT PRIMARY KEY,
          arrived_at INTEGER NOT NULL
        );
        CREATE INDEX arrivals_by_time ON article_arrivals (arrived_at);
      `,
    postgres: `
        CREATE TABLE digests (
          id BIGSERIAL PRIMARY KEY,
          guild_id TEXT NOT NULL,
          channel_id TEXT NOT NULL,
          every TEXT NOT NULL CHECK (every IN ('day', 'week')),
          weekday INTEGER NOT NULL DEFAULT 1,
          at_minutes INTEGER NOT NULL CHECK (at_minutes BETWEEN 0 AND 1439),
          time_zone TEXT NOT NULL,
          topic TEXT,
          outlets TEXT NOT NULL DEFAULT '[]',
          created_by TEXT NOT NULL,
          created_at BIGINT NOT NULL,
          last_period BIGINT,
          failed_posts INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX digests_by_guild ON digests (guild_id);

        CREATE TABLE article_arrivals (
          article_id TEXT PRIMARY KEY,
          arrived_at BIGINT NOT NULL
        );
        CREATE INDEX arrivals_by_time ON article_arrivals (arrived_at);
      `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;
