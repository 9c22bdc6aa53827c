/**
 * `npm run bench:http`'s rows for several hosts: real `npm run start:http` processes over the bundled
 * corpus (so the search is cheap and what the stores cost shows), each /ask recording its answer and
 * cited passages: one replica with SQLite beside two replicas sharing a PostgreSQL and a Redis (rate
 * limits, replay guard), measured in the same run with the same load split over the replicas. CPU is
 * read from /proc for every process that serves (replicas, PostgreSQL's backends, Redis), so the cost
 * per request includes the shared servers'. Afterwards the records are counted: none may be missing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  freePort,
  missingServers,
  startPostgres,
  startRedis,
  type TestServer,
} from '../../test/support/servers.ts';
import { askBody } from './interaction-bodies.ts';
import { type LoadRunResult, runLoad, type Verdict } from './load-run.ts';
import { presignPool, type SigningKeys } from './signed-requests.ts';

const REPO = path.join(import.meta.dirname, '..', '..');
const TICKS_PER_SECOND = 100;
/** Every /ask leaves one: its answer, or its question without coverage. */
const RECORDS = 'SELECT (SELECT COUNT(*) FROM answers) + (SELECT COUNT(*) FROM unanswered) AS n';

export interface StoresRow {
  name: string;
  replicas: number;
  okPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  forgeriesAccepted: number;
  /** CPU milliseconds per answered request, over every serving process. */
  cpuMsPerRequest: number;
  /** Records the stores hold after the run / answers given. */
  recorded: number;
  answered: number;
}

/** CPU seconds used so far by a process (all its threads), 0 when it is gone. */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The pids of `pid`'s children (PostgreSQL's backends are the postmaster's). */
function children(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
      if (parent === pid) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

interface Served {
  child: ChildProcess;
  port: number;
}

async function startReplica(env: Record<string, string>): Promise<Served> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/transports/http/main.ts'], {
    cwd: REPO,
    env: { ...process.env, ...env, HTTP_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`a replica exited (${child.exitCode}) before it was ready`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return { child, port };
    if (Date.now() > deadline) throw new Error('a replica did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function stopReplica(served: Served): Promise<void> {
  if (served.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    served.child.once('exit', () => resolve());
    served.child.kill('SIGTERM');
  });
}

/** Waits until every replica has no records waiting (`/healthz` without `pending`), at most `ms`. */
async function settled(replicas: Served[], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const pending = await Promise.all(
      replicas.map(async ({ port }) =>
        (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.text())).includes('"pending"'),
      ),
    );
    if (!pending.some(Boolean)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function measureReplicaStores(options: {
  keys: SigningKeys;
  publicKeyHex: string;
  duration: number;
  warmup: number;
  connections: number;
  questions: string[];
  nextSerial: () => number;
  judge: (body: string) => Verdict;
  forgeEvery: number;
  log: (line: string) => void;
}): Promise<StoresRow[] | string> {
  const missing = missingServers();
  if (missing) return `several-hosts rows skipped: ${missing}`;
  const sink = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const apiBase = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/api`;
  const data = mkdtempSync(path.join(tmpdir(), 'newsdesk-bench-stores-'));
  const base = {
    DISCORD_PUBLIC_KEY: options.publicKeyHex,
    DISCORD_API_BASE: apiBase,
    CORPUS_PATH: path.join(REPO, 'corpus'),
    INDEX_CACHE_DIR: '',
    INDEX_WORKERS: '1',
    RATE_LIMIT_QUESTIONS: '1000',
    LOG_LEVEL: 'error',
  };
  const servers: TestServer[] = [];
  const rows: StoresRow[] = [];
  try {
    const load = async (
      name: string,
      replicas: Served[],
      serverPids: () => number[],
      count: () => Promise<number>,
    ) => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const pool = (seconds: number) =>
        replicas.map(() =>
          presignPool(options.keys, {
            count: Math.ceil(seconds * 3000),
            forgeEvery: options.forgeEvery,
            timestamp,
            body: (n) => askBody(n, options.questions[n % options.questions.length] ?? 'who?'),
            next: options.nextSerial,
          }),
        );
      const connections = Math.max(1, Math.floor(options.connections / replicas.length));
      const run = (pools: ReturnType<typeof pool>, duration: number) =>
        Promise.all(
          replicas.map((replica, i) =>
            runLoad({
              url: `http://127.0.0.1:${replica.port}`,
              pool: pools[i] ?? [],
              connections,
              duration,
              judge: options.judge,
            }),
          ),
        );
      options.log(
        `bench:http: ${name}: warming up ${options.warmup} s, then measuring ${options.duration} s…`,
      );
      const warm = pool(options.warmup);
      const timed = pool(options.duration);
      if (options.warmup > 0) await run(warm, options.warmup);
      await settled(replicas, 30_000);
      const recordedBefore = await count();
      const pids = () => [...replicas.map((replica) => replica.child.pid ?? -1), ...serverPids()];
      const cpuBefore = pids().reduce((sum, pid) => sum + cpuSeconds(pid), 0);
      const results: LoadRunResult[] = await run(timed, options.duration);
      await settled(replicas, 30_000);
      const cpu = pids().reduce((sum, pid) => sum + cpuSeconds(pid), 0) - cpuBefore;
      const answered = results.reduce((sum, r) => sum + r.okPerSecond * r.seconds, 0);
      rows.push({
        name,
        replicas: replicas.length,
        okPerSecond: results.reduce((sum, r) => sum + r.okPerSecond, 0),
        p50: Math.max(...results.map((r) => r.p50)),
        p99: Math.max(...results.map((r) => r.p99)),
        errors: results.reduce((sum, r) => sum + r.errors + r.deferred + r.repeats, 0),
        forgeriesAccepted: results.reduce((sum, r) => sum + r.forgeriesAccepted, 0),
        cpuMsPerRequest: (cpu * 1000) / Math.max(1, answered),
        recorded: (await count()) - recordedBefore,
        answered: Math.round(answered),
      });
    };

    // One replica, the records in SQLite (today's default).
    const file = path.join(data, 'one', 'newsdesk.sqlite');
    const one = await startReplica({ ...base, DATA_DIR: path.dirname(file) });
    try {
      await load(
        '1 replica, SQLite',
        [one],
        () => [],
        async () => {
          const db = new Database(file, { readonly: true });
          try {
            return (db.prepare(RECORDS).get() as { n: number }).n;
          } finally {
            db.close();
          }
        },
      );
    } finally {
      await stopReplica(one);
    }

    // Two replicas sharing PostgreSQL and Redis.
    const postgres = await startPostgres();
    servers.push(postgres);
    const redis = await startRedis();
    servers.push(redis);
    const shared = { ...base, DATABASE_URL: postgres.url, REDIS_URL: redis.url };
    const two = await Promise.all(
      ['a', 'b'].map((name) => startReplica({ ...shared, DATA_DIR: path.join(data, name) })),
    );
    const db = new pg.Pool({ connectionString: postgres.url });
    try {
      await load(
        '2 replicas, PostgreSQL + Redis',
        two,
        () => [postgres.pid ?? -1, ...children(postgres.pid), redis.pid ?? -1],
        async () => Number((await db.query<{ n: string }>(RECORDS)).rows[0]?.n),
      );
    } finally {
      await db.end();
      await Promise.all(two.map(stopReplica));
    }
    return rows;
  } finally {
    for (const server of servers) await server.remove();
    sink.close();
    rmSync(data, { recursive: true, force: true });
  }
}
