import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Community } from '../../src/community/community.ts';
import { CommunityDatabaseError, openDatabase } from '../../src/community/database.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/community/migrations.ts';
import { openCommunity } from '../../src/community/start-community.ts';
import { memoryLogger } from '../../src/logging/logger.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const WRITER = fileURLToPath(new URL('./fixtures/writer.ts', import.meta.url));
const OPEN_AS = fileURLToPath(new URL('./fixtures/open-as.ts', import.meta.url));

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'newsdesk-db-'));
  file = path.join(dir, 'data', 'newsdesk.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const tables = (db: Database.Database) =>
  db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((row) => row.name);

describe('GIVEN the community database file', () => {
  it('WHEN none exists THEN it is created with its folder, in WAL mode, at the latest schema version', () => {
    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThanOrEqual(1000);
    expect(tables(db)).toEqual([
      'answer_channels',
      'answers',
      'article_arrivals',
      'channel_settings',
      'cited_passages',
      'digests',
      'unanswered',
      'votes',
      'watches',
    ]);
    db.close();
  });

  it('WHEN it is at the previous schema version THEN the missing step runs and what was stored stays', () => {
    const previous = MIGRATIONS.slice(0, -1);
    const old = openDatabase(file, { migrations: previous });
    expect(old.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION - 1);
    expect(tables(old)).not.toContain('digests');
    old
      .prepare(
        "INSERT INTO unanswered (asked_at, guild_id, channel_id, question, corpus_version) VALUES (1, 'g', 'c', 'kept?', 'v')",
      )
      .run();
    old.close();

    const community = Community.open({ file });
    expect(community.records.unansweredSince(new Date(0))).toEqual([
      { question: 'kept?', askedAt: new Date(1) },
    ]);
    const added = community.watches.add({
      userId: 'u',
      guildId: 'g',
      channelId: 'c',
      question: 'q',
      at: new Date(),
    });
    expect(added.status).toBe('added');
    community.citations.follow({
      interactionId: 'i',
      guildId: 'g',
      channelId: 'c',
      citedAt: new Date(),
      passages: [{ citation: 'a#1', articleId: 'a', paragraph: 1, text: 'Words.' }],
    });
    community.citations.attachMessage('i', 'm');
    expect(community.citations.isFollowed('m')).toBe(true);
    community.settings.change({ guildId: 'g', channelId: 'c' }, { threadMode: true }, new Date());
    expect(community.settings.of({ guildId: 'g', channelId: 'c' }).threadMode).toBe(true);
    expect(community.digests.recordArrivals(['a'], new Date(5))).toBe(1);
    expect(community.digests.arrivedBetween(0, 5)).toEqual(['a']);
    community.close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('WHEN a newer Newsdesk wrote it THEN opening fails in plain words and the file is left as it was', () => {
    openDatabase(file).close();
    const newer = new Database(file);
    newer.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    newer.close();
    const before = readFileSync(file);
    expect(() => openDatabase(file)).toThrow(CommunityDatabaseError);
    expect(() => openDatabase(file)).toThrow(
      `written by a newer Newsdesk (schema version ${SCHEMA_VERSION + 1}; this one knows up to ${SCHEMA_VERSION})`,
    );
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('WHEN it is not a database THEN the error says so and what to do, and the file is not touched', () => {
    openDatabase(file).close();
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });
    writeFileSync(file, 'this is not SQLite, it is a text file somebody saved here by mistake\n'.repeat(100));
    const error = catchError(() => openDatabase(file));
    expect(error).toBeInstanceOf(CommunityDatabaseError);
    expect((error as CommunityDatabaseError).reason).toBe('not-a-database');
    expect((error as Error).message).toMatch(/is not a usable SQLite database .*Move it aside/);
    expect(readFileSync(file, 'utf8')).toMatch(/^this is not SQLite/);
  });

  it('WHEN this user cannot write it THEN the error names the file and the fix', () => {
    openDatabase(file).close();
    let result: { reason?: string; message?: string; opened?: boolean; unexpected?: string };
    if (process.getuid?.() === 0) {
      // Root writes whatever the permissions say, so the bot runs as an unprivileged user here.
      chmodSync(dir, 0o755);
      chmodSync(path.dirname(file), 0o755);
      chmodSync(file, 0o644);
      const child = spawnSync(process.execPath, ['--import', 'tsx', OPEN_AS, file], {
        cwd: REPO,
        uid: 65534,
        gid: 65534,
        encoding: 'utf8',
        env: { ...process.env, HOME: '/tmp', TSX_TSCONFIG_PATH: path.join(REPO, 'tsconfig.json') },
      });
      result = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}');
    } else {
      chmodSync(file, 0o444);
      chmodSync(path.dirname(file), 0o555);
      try {
        result = { reason: (catchError(() => openDatabase(file)) as CommunityDatabaseError).reason };
      } finally {
        chmodSync(path.dirname(file), 0o755);
      }
    }
    expect(result.reason).toBe('unwritable');
    if (result.message) expect(result.message).toMatch(/cannot be written .*write access/);
  });

  it('WHEN it cannot be used at start-up THEN the bot is told in plain words and goes on without it', () => {
    mkdtempSync(path.join(dir, 'x'));
    writeFileSync(path.join(dir, 'newsdesk.sqlite'), 'garbage'.repeat(1000));
    const lines: string[] = [];
    const logger = memoryLogger();
    const community = openCommunity({
      config: { DATA_DIR: dir, RECORD_QUESTIONS: true, RECORD_DAYS: 90 },
      logger,
      writeLine: (line) => lines.push(line),
    });
    expect(community).toBeUndefined();
    expect(lines.join('\n')).toMatch(/community database cannot be used: .*not a usable SQLite database/);
    expect(lines.join('\n')).toMatch(/answering questions anyway, without recording/);
    expect(logger.events.some((event) => event.level === 'error')).toBe(true);
  });

  it('WHEN two processes open it and write at once THEN every write lands and neither fails', async () => {
    const writers = ['shard-a', 'shard-b'].map((name) =>
      spawn(process.execPath, ['--import', 'tsx', WRITER, file, name, '300'], { cwd: REPO }),
    );
    const outputs = writers.map((child) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += String(chunk);
      });
      child.stderr.on('data', (chunk) => {
        out += String(chunk);
      });
      return {
        ready: new Promise<void>((resolve) => {
          const check = () => (out.includes('ready') ? resolve() : setTimeout(check, 20));
          check();
        }),
        done: new Promise<string>((resolve) => child.on('exit', () => resolve(out))),
      };
    });
    await Promise.all(outputs.map((output) => output.ready));
    for (const child of writers) child.stdin.write('go\n');
    const results = await Promise.all(outputs.map((output) => output.done));
    for (const out of results) expect(out).toMatch(/"wrote":300/);

    const db = new Database(file, { readonly: true });
    const count = (table: string) =>
      (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect(count('answers')).toBe(600);
    expect(count('votes')).toBe(600);
    expect(count('unanswered')).toBe(600);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  }, 60_000);
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
