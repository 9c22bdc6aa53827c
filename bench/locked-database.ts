/**
 * `npm run bench:locked-db`: issue 31's attack on the community database, measured. Starts `npm run
 * start:http` (a real process, the bundled corpus, a fresh DATA_DIR), asks one question, then locks the
 * SQLite file from another process (`BEGIN EXCLUSIVE`, held) and times signed `/ask` requests and
 * `/healthz` meanwhile; releases the lock and counts the records that reached the file. Prints one line
 * per request and the count. `--root DIR` runs another checkout's endpoint (to measure it before a fix).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { askBody } from './http/interaction-bodies.ts';
import { signedHeaders } from './http/signed-requests.ts';

const { values } = parseArgs({
  options: { root: { type: 'string' }, rounds: { type: 'string', default: '3' } },
});
const root = path.resolve(values.root ?? path.join(import.meta.dirname, '..'));
const rounds = Number(values.rounds);

const keys = generateKeyPairSync('ed25519');
const publicKeyHex = keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
const data = mkdtempSync(path.join(tmpdir(), 'newsdesk-locked-'));
const file = path.join(data, 'newsdesk.sqlite');
const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const address = probe.address();
    probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
  });
});
const base = `http://127.0.0.1:${port}`;

const endpoint = spawn(process.execPath, ['--import', 'tsx', 'src/transports/http/main.ts'], {
  cwd: root,
  env: {
    ...process.env,
    DISCORD_PUBLIC_KEY: publicKeyHex,
    // Nothing listens there: the posted answer's message id cannot be read back, which only costs a log line.
    DISCORD_API_BASE: 'http://127.0.0.1:9/api',
    HTTP_PORT: String(port),
    DATA_DIR: data,
    INDEX_CACHE_DIR: '',
    CORPUS_PATH: path.join(root, 'corpus'),
    RATE_LIMIT_QUESTIONS: '1000',
    LOG_LEVEL: 'error',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

let serial = 0;
/** A request's time; a connection the endpoint reset counts as status 0, at the time it failed. */
async function timed<T extends { status: number }>(
  request: () => Promise<T>,
  failed: T,
): Promise<T & { ms: number }> {
  const started = performance.now();
  const result = await request().catch(() => failed);
  return { ...result, ms: performance.now() - started };
}

async function ask(question: string): Promise<{ ms: number; status: number; answered: boolean }> {
  serial += 1;
  const body = askBody(serial, question);
  const headers = signedHeaders(keys.privateKey, body);
  return timed(
    async () => {
      const response = await fetch(`${base}/interactions`, {
        method: 'POST',
        headers,
        body,
      });
      const text = await response.text();
      return { status: response.status, answered: text.startsWith('{"type":4') };
    },
    { status: 0, answered: false },
  );
}

function health(): Promise<{ ms: number; status: number; body: string }> {
  return timed(
    async () => {
      const response = await fetch(`${base}/healthz`);
      return { status: response.status, body: await response.text() };
    },
    { status: 0, body: '(connection reset)' },
  );
}

const lockers: ChildProcess[] = [];
function lockFile(): Promise<ChildProcess> {
  const locker = spawn(
    process.execPath,
    [
      '-e',
      `const D = require(${JSON.stringify(path.join(root, 'node_modules', 'better-sqlite3'))});
       const db = new D(${JSON.stringify(file)}); db.exec('BEGIN EXCLUSIVE');
       process.stdout.write('locked\\n'); setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  lockers.push(locker);
  return new Promise((resolve) => locker.stdout?.once('data', () => resolve(locker)));
}

try {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if ((await health()).status === 200) break;
    if (Date.now() > deadline) throw new Error('the endpoint did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const questions = [
    'Who threatened the mayor of Teteghem?',
    'How much did the migrant spend traveling from Syria?',
  ];
  const lines: string[] = [];
  const first = await ask(questions[0] as string);
  lines.push(
    `unlocked    /ask ${first.ms.toFixed(0).padStart(6)} ms (${first.status}${first.answered ? ', answered' : ''})`,
  );
  const locker = await lockFile();
  let asked = 1;
  let lastHealth = '';
  for (let round = 0; round < rounds; round += 1) {
    const question = questions[round % questions.length] as string;
    const answer = ask(question);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const checked = await health();
    const answered = await answer;
    asked += 1;
    lastHealth = checked.body;
    lines.push(
      `locked      /ask ${answered.ms.toFixed(0).padStart(6)} ms (${answered.status}${answered.answered ? ', answered' : ''})` +
        `   /healthz ${checked.ms.toFixed(0).padStart(6)} ms (${checked.status})`,
    );
  }
  locker.kill('SIGKILL');
  await new Promise((resolve) => setTimeout(resolve, 12_000));
  const db = new Database(file, { readonly: true });
  const count = (table: string) =>
    (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  const recorded = count('answers') + count('unanswered');
  db.close();
  lines.push(`/healthz while locked: ${lastHealth}`);
  lines.push(`records in the file 12 s after the lock was released: ${recorded} of ${asked} questions asked`);
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  for (const locker of lockers) locker.kill('SIGKILL');
  endpoint.kill('SIGTERM');
  await new Promise((resolve) => endpoint.once('exit', resolve));
  rmSync(data, { recursive: true, force: true });
}
