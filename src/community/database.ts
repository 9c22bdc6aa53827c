import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations.ts';

/** The community database cannot be used; the message says which file, what is wrong and what to do. */
export class CommunityDatabaseError extends Error {
  override name = 'CommunityDatabaseError';
  constructor(
    readonly file: string,
    readonly reason: 'unwritable' | 'newer-schema' | 'not-a-database' | 'unavailable',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * How long a statement waits for another process's transaction before giving up, in milliseconds, for
 * the tools that write the file directly (`npm run gaps`, tests). Shards share one file; every
 * transaction here lasts well under a millisecond. A serving bot passes a far shorter one
 * (`SERVING_BUSY_TIMEOUT_MS`): SQLite waits on the thread that answers questions.
 */
const BUSY_TIMEOUT_MS = 5000;

/**
 * The serving bot's busy timeout: long enough for another shard's sub-millisecond transaction, short
 * enough that a file locked by another process costs the answering thread no more than this per try
 * (`RecordKeeper` retries in the background, not on the serving path).
 */
export const SERVING_BUSY_TIMEOUT_MS = 50;

/**
 * Opens (creating it and its folder if need be) the SQLite file at `file`, in WAL mode so readers never
 * wait for a writer, with foreign keys on and a busy timeout, and brings its schema up to date.
 * Throws `CommunityDatabaseError` for a file this process cannot write, one that is not a database,
 * or one written by a newer Newsdesk (left untouched).
 */
export function openDatabase(
  file: string,
  options: { migrations?: readonly Migration[]; readonly?: boolean; busyTimeoutMs?: number } = {},
): Database.Database {
  const migrations = options.migrations ?? MIGRATIONS;
  let db: Database.Database | undefined;
  try {
    if (!options.readonly && file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    db = new Database(file, {
      timeout: BUSY_TIMEOUT_MS,
      ...(options.readonly ? { readonly: true, fileMustExist: true } : {}),
    });
    db.pragma('foreign_keys = ON');
    // Read first: the version check must come before anything writes to a newer schema.
    checkVersion(db, file, migrations);
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      migrate(db, file, migrations);
    }
    // Set after the migrations, which may wait for another shard's (start-up only).
    if (options.busyTimeoutMs !== undefined) db.pragma(`busy_timeout = ${Math.round(options.busyTimeoutMs)}`);
    return db;
  } catch (error) {
    db?.close();
    throw explain(error, file);
  }
}

function checkVersion(db: Database.Database, file: string, migrations: readonly Migration[]): void {
  const latest = migrations.at(-1)?.version ?? 0;
  const found = userVersion(db);
  if (found > latest) {
    throw new CommunityDatabaseError(
      file,
      'newer-schema',
      `${file} was written by a newer Newsdesk (schema version ${found}; this one knows up to ${latest}). ` +
        'It is left untouched: upgrade Newsdesk, or point DATA_DIR at another folder.',
    );
  }
}

/**
 * Runs the steps the file lacks, each in its own IMMEDIATE transaction that re-reads the version
 * first: when several shards start at once, one migrates and the others find nothing left to do.
 */
function migrate(db: Database.Database, file: string, migrations: readonly Migration[]): void {
  for (const migration of migrations) {
    db.transaction(() => {
      checkVersion(db, file, migrations);
      if (userVersion(db) >= migration.version) return;
      db.exec(migration.sqlite);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
  // An up-to-date file was only read above: prove now that this process may write to it.
  const version = userVersion(db);
  db.transaction(() => db.pragma(`user_version = ${version}`)).immediate();
}

function userVersion(db: Database.Database): number {
  return Number(db.pragma('user_version', { simple: true }));
}

/** SQLite's codes, in words a bot operator can act on. */
function explain(error: unknown, file: string): CommunityDatabaseError {
  if (error instanceof CommunityDatabaseError) return error;
  const code = (error as { code?: unknown }).code;
  const detail = error instanceof Error ? error.message : String(error);
  if (
    typeof code === 'string' &&
    (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN'))
  ) {
    return new CommunityDatabaseError(
      file,
      'unwritable',
      `${file} cannot be written (${detail}). Give this user write access to the file and its folder ` +
        '(SQLite also writes -wal and -shm files beside it), or point DATA_DIR elsewhere.',
      { cause: error },
    );
  }
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new CommunityDatabaseError(
      file,
      'not-a-database',
      `${file} is not a usable SQLite database (${detail}). Move it aside (it is not deleted for you) and restart to start a new one.`,
      { cause: error },
    );
  }
  const systemCode = typeof code === 'string' && /^E[A-Z]+$/.test(code);
  return new CommunityDatabaseError(
    file,
    systemCode && (code === 'EACCES' || code === 'EROFS' || code === 'EPERM') ? 'unwritable' : 'unavailable',
    `${file} could not be opened (${detail}).`,
    { cause: error },
  );
}
