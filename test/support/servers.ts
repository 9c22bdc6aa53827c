// Real PostgreSQL and Redis servers for the tests of several hosts, each on a private port and data
// folder, started by the test that needs them and stopped at its end. The binaries come from Debian's
// packages (`apt-get install postgresql redis-server`; `.ci/run` installs them when missing).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** Where PostgreSQL's server programs are, newest version first; undefined when it is not installed. */
function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
}

function redisBin(): string | undefined {
  return ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((file) => existsSync(file));
}

/** What is missing to run the tests of several hosts, in words; undefined when both servers are here. */
export function missingServers(): string | undefined {
  const missing = [postgresBin() ? '' : 'PostgreSQL', redisBin() ? '' : 'Redis'].filter(Boolean);
  return missing.length === 0
    ? undefined
    : `${missing.join(' and ')} not installed (apt-get install postgresql redis-server)`;
}

/** Whether the tests of several hosts run here; with CI=true a missing server is a failure, not a skip. */
export function serversInstalled(): boolean {
  const missing = missingServers();
  if (missing && process.env.CI === 'true') throw new Error(`CI needs real servers: ${missing}`);
  return missing === undefined;
}

/** A port nobody listens on now, on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A server the test runs: stopped (and started again, same port and data) at will, removed at the end. */
export interface TestServer {
  readonly url: string;
  readonly port: number;
  /** The server's main process while it runs (PostgreSQL's postmaster), for CPU accounting. */
  readonly pid: number | undefined;
  /** Stops it as an outage would, abruptly (connections are cut). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and deletes its data folder. */
  remove(): Promise<void>;
}

async function until(ready: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`${what} did not start in ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stopChild(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/** The postgres account's ids: PostgreSQL refuses to run as root, so as root it runs as that user. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * A PostgreSQL server of its own: a new cluster (`initdb`, trust authentication on loopback, user and
 * database `newsdesk`), fsync off since its data is thrown away. Commits stay synchronous: `stop()` is
 * a crash, and with `synchronous_commit=off` a crash loses the last commits the server had already
 * acknowledged, which a test counting what survives an outage would read as records lost.
 */
export async function startPostgres(): Promise<TestServer> {
  const bin = postgresBin();
  if (!bin) throw new Error(missingServers());
  const user = postgresUser();
  const dir = mkdtempSync(path.join(tmpdir(), 'newsdesk-pg-'));
  const data = path.join(dir, 'data');
  if (user) chownSync(dir, user.uid, user.gid);
  const as = { ...(user ?? {}), env: { ...process.env, LC_ALL: 'C' } };
  execFileSync(
    path.join(bin, 'initdb'),
    ['-D', data, '-U', 'newsdesk', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions'],
    { ...as, stdio: 'ignore', cwd: dir },
  );
  const port = await freePort();
  const url = `postgres://newsdesk@127.0.0.1:${port}/postgres`;
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      path.join(bin, 'postgres'),
      [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=60',
      ],
      { ...as, stdio: 'ignore', cwd: dir },
    );
    const started = child;
    await until(async () => {
      if (started.exitCode !== null) throw new Error(`postgres exited with ${started.exitCode}`);
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
      try {
        await client.connect();
        await client.end();
        return true;
      } catch {
        await client.end().catch(() => undefined);
        return false;
      }
    }, 'PostgreSQL');
  };
  await start();
  return {
    url,
    port,
    get pid() {
      return child?.pid;
    },
    start,
    // SIGQUIT: an immediate shutdown, as a crash would be (connections cut, no checkpoint).
    stop: () => stopChild(child, 'SIGQUIT'),
    async remove() {
      await stopChild(child, 'SIGINT');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A Redis server of its own, persisting nothing. */
export async function startRedis(): Promise<TestServer> {
  const bin = redisBin();
  if (!bin) throw new Error(missingServers());
  const dir = mkdtempSync(path.join(tmpdir(), 'newsdesk-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    let out = '';
    child = spawn(
      bin,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const started = child;
    await until(async () => {
      if (started.exitCode !== null) throw new Error(`redis-server exited with ${started.exitCode}: ${out}`);
      return out.includes('Ready to accept connections');
    }, 'Redis');
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return child?.pid;
    },
    start,
    stop: () => stopChild(child, 'SIGKILL'),
    async remove() {
      await stopChild(child, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
