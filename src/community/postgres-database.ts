import pg from 'pg';
import { CommunityDatabaseError } from './database.ts';
import { MIGRATIONS, type Migration } from './migrations.ts';

/**
 * How long one statement may run on the server before PostgreSQL cancels it, in milliseconds. A
 * cancelled statement did nothing, so whoever retries it later never records twice.
 */
const STATEMENT_TIMEOUT_MS = 5_000;
/** How long connecting may take before the attempt fails (a server down, a network partition). */
const CONNECT_TIMEOUT_MS = 2_000;
/** Connections one replica holds at most: records are short statements, a few carry a replica. */
const POOL_SIZE = 8;
/** Any number, the same in every replica: the advisory lock migrations take, so one replica runs them. */
const MIGRATION_LOCK = 29_004_217;

// BIGINT columns (times in milliseconds, ids) come back as strings by default; every one of ours fits
// in a double (times until the year 287396, ids far below 2^53).
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * A pool of connections to DATABASE_URL. Nothing connects until the first query, so a server that is
 * down at start-up does not stop the bot; every statement is bounded by the server's statement
 * timeout and every connection attempt by a timeout of its own.
 */
export function openPool(url: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    application_name: 'newsdesk',
  });
  // An idle connection the server dropped (a restart) is an event, not a crash: the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Brings the schema up to date: the steps the database lacks, each in its own transaction under an
 * advisory lock (replicas starting at once: one migrates, the others find nothing left to do), the
 * version kept in `newsdesk_schema`. Throws `CommunityDatabaseError` for a database a newer Newsdesk
 * wrote, which is left untouched.
 */
export async function migratePostgres(
  pool: pg.Pool,
  location: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number> {
  const client = await pool.connect();
  try {
    const latest = migrations.at(-1)?.version ?? 0;
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS newsdesk_schema (version INTEGER NOT NULL)');
    const found = await client.query<{ version: number }>('SELECT version FROM newsdesk_schema');
    let version = found.rows[0]?.version ?? 0;
    if (found.rows.length === 0) await client.query('INSERT INTO newsdesk_schema (version) VALUES (0)');
    if (version > latest) {
      await client.query('ROLLBACK');
      throw new CommunityDatabaseError(
        location,
        'newer-schema',
        `${location} was written by a newer Newsdesk (schema version ${version}; this one knows up to ${latest}). ` +
          'It is left untouched: upgrade Newsdesk, or point DATABASE_URL at another database.',
      );
    }
    for (const migration of migrations) {
      if (migration.version <= version) continue;
      await client.query(migration.postgres);
      await client.query('UPDATE newsdesk_schema SET version = $1', [migration.version]);
      version = migration.version;
    }
    await client.query('COMMIT');
    return version;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
