/**
 * `npm run bench:http`: the HTTP interactions endpoint under load, against a bare endpoint measured in
 * the same run. A child process builds the ~24,000-article index (NewsQA + Reuters + BBC from
 * ../shared/data) and serves both endpoints on loopback; this process signs every request ahead of
 * time (varied NewsQA questions, fresh timestamps, 1 in 20 forged) and drives each endpoint with
 * autocannon. Targets: /ask throughput >= 0.5x the bare endpoint's, /ask p99 < 50 ms, zero errors,
 * zero accepted forgeries. Exits 1 when a target is missed.
 *
 * Then, in the same run, several hosts (`http/replica-stores.ts`): real `npm run start:http` processes
 * on the bundled corpus, one replica recording in SQLite beside two replicas sharing PostgreSQL and
 * Redis, with the CPU each answered /ask costs every serving process (the shared servers included).
 * Skipped with a line saying why when PostgreSQL or Redis is not installed.
 *
 * Options: --duration <s> (10), --warmup <s> (2), --connections <n> (4), --index-workers <n> (INDEX_WORKERS
 * of the endpoint: one per core by default, as docs/operations.md advises for an HTTP replica).
 */
import { fork } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { askBody, pingBody } from './http/interaction-bodies.ts';
import type { ChildMessage, ParentMessage } from './http/ipc.ts';
import { type LoadRunResult, runLoad, type Verdict } from './http/load-run.ts';
import { measureReplicaStores, type StoresRow } from './http/replica-stores.ts';
import { type PresignedRequest, presignPool, type SigningKeys } from './http/signed-requests.ts';
import { SHARED_DATA } from './lib/scale-corpus.ts';

const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '4' },
    'index-workers': { type: 'string', default: String(availableParallelism()) },
  },
});
const duration = Number(flags.duration);
const warmup = Number(flags.warmup);
const connections = Number(flags.connections);
const indexWorkers = Number(flags['index-workers']);
const FORGE_EVERY = 20;
/** Generous ceilings on throughput, to pre-sign enough distinct requests (a repeat would be a replay). */
const MAX_RPS = { bare: 20_000, ask: 2_500, seed: 8_000 };
/** The seed-corpus row only shows what the transport and commands cost without the scale. */
const seedDuration = Math.min(duration, 5);

const runStarted = performance.now();
const discord = generateKeyPairSync('ed25519');
const keys: SigningKeys = {
  discord: discord.privateKey,
  impostor: generateKeyPairSync('ed25519').privateKey,
};
const publicKeyHex = discord.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
const timestamp = String(Math.floor(Date.now() / 1000));

process.stderr.write(
  'bench:http: building the index over NewsQA + Reuters + BBC in the endpoints process…\n',
);
const child = fork(join(import.meta.dirname, 'http', 'serve-endpoints.ts'), [], {
  env: { ...process.env, BENCH_PUBLIC_KEY: publicKeyHex, BENCH_INDEX_WORKERS: String(indexWorkers) },
  execArgv: ['--import', 'tsx'],
});
const ready = new Promise<Extract<ChildMessage, { kind: 'ready' }>>((resolve, reject) => {
  child.once('exit', (code) => reject(new Error(`endpoints process exited (${code}) before it was ready`)));
  child.on('message', (message: ChildMessage) => {
    if (message.kind === 'ready') resolve(message);
  });
});

// Signing happens here while the other process builds the index.
const questions = readFileSync(join(SHARED_DATA, 'newsqa', 'questions.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => (JSON.parse(line) as { question: string }).question);
let serial = 0;
const nextSerial = () => serial++;
const pool = (seconds: number, rps: number, body: (n: number) => string): PresignedRequest[] =>
  presignPool(keys, {
    count: Math.ceil(seconds * rps),
    forgeEvery: FORGE_EVERY,
    timestamp,
    body,
    next: nextSerial,
  });
const signingStarted = performance.now();
const ping = (n: number) => pingBody(n);
const ask = (n: number) => askBody(n, questions[n % questions.length] ?? 'who?');
const pools = {
  bareWarmup: pool(warmup, MAX_RPS.bare, ping),
  bare: pool(duration, MAX_RPS.bare, ping),
  askWarmup: pool(warmup, MAX_RPS.ask, ask),
  ask: pool(duration, MAX_RPS.ask, ask),
  seedWarmup: pool(warmup, MAX_RPS.seed, ask),
  seed: pool(seedDuration, MAX_RPS.seed, ask),
};
const signed = Object.values(pools).reduce((sum, requests) => sum + requests.length, 0);
process.stderr.write(
  `bench:http: ${signed} requests pre-signed in ${((performance.now() - signingStarted) / 1000).toFixed(1)} s\n`,
);

const endpoints = await ready;
let stopping = false;
child.on('exit', (code) => {
  if (stopping) return;
  process.stderr.write(`bench:http: the endpoints process died (exit ${code}) mid-run\n`);
  process.exit(2);
});
process.stderr.write(
  `bench:http: ${endpoints.articles} articles, ${endpoints.passages} passages (read and indexed on a worker thread in ${(endpoints.startMs / 1000).toFixed(1)} s)\n`,
);

const childCpu = (): Promise<number> =>
  new Promise((resolve) => {
    const onMessage = (message: ChildMessage) => {
      if (message.kind !== 'cpu') return;
      child.off('message', onMessage);
      resolve(message.micros);
    };
    child.on('message', onMessage);
    child.send({ kind: 'cpu' } satisfies ParentMessage);
  });

interface Measured extends LoadRunResult {
  /** Share of one core used by the endpoints process / by this load generator. */
  serverCpu: number;
  generatorCpu: number;
}

async function measure(
  name: string,
  port: number,
  warm: PresignedRequest[],
  timed: PresignedRequest[],
  judge: (body: string) => Verdict,
  seconds = duration,
): Promise<Measured> {
  const url = `http://127.0.0.1:${port}`;
  process.stderr.write(`bench:http: ${name}: warming up ${warmup} s, then measuring ${seconds} s…\n`);
  if (warmup > 0) await runLoad({ url, pool: warm, connections, duration: warmup, judge });
  const serverBefore = await childCpu();
  const generatorBefore = process.cpuUsage();
  const result = await runLoad({ url, pool: timed, connections, duration: seconds, judge });
  const generator = process.cpuUsage(generatorBefore);
  const server = (await childCpu()) - serverBefore;
  return {
    ...result,
    serverCpu: server / 1e6 / result.seconds,
    generatorCpu: (generator.user + generator.system) / 1e6 / result.seconds,
  };
}

const pong = JSON.stringify({ type: 1 });
const bare = await measure(
  'bare endpoint (verify + PONG)',
  endpoints.barePort,
  pools.bareWarmup,
  pools.bare,
  (body) => (body === pong ? 'ok' : 'wrong'),
);
const answered = (body: string): Verdict => {
  // A public answer (cited passages, or "no coverage found" with the closest headlines) is type 4 without
  // the ephemeral flag; a private reply would be a refusal (rate limit, bad option) or an apology.
  if (body.startsWith('{"type":5')) return 'deferred';
  return body.startsWith('{"type":4') && !body.includes('"flags":64') ? 'ok' : 'wrong';
};
const askResult = await measure('/ask endpoint', endpoints.askPort, pools.askWarmup, pools.ask, answered);
const seedResult = await measure(
  '/ask endpoint, bundled corpus',
  endpoints.seedPort,
  pools.seedWarmup,
  pools.seed,
  answered,
  seedDuration,
);
stopping = true;
child.send({ kind: 'stop' } satisfies ParentMessage);
const staleBy = Date.now() / 1000 - Number(timestamp);
await new Promise((resolve) => child.once('exit', resolve));
const stores = await measureReplicaStores({
  keys,
  publicKeyHex,
  duration,
  warmup,
  connections,
  questions,
  nextSerial,
  judge: answered,
  forgeEvery: FORGE_EVERY,
  log: (line) => process.stderr.write(`${line}\n`),
});

const ratio = askResult.okPerSecond / bare.okPerSecond;
const row = (name: string, r: Measured) =>
  [
    name.padEnd(22),
    r.okPerSecond.toFixed(0).padStart(8),
    r.p50.toFixed(2).padStart(8),
    r.p99.toFixed(2).padStart(8),
    String(r.errors + r.deferred).padStart(7),
    `${r.forgeriesAccepted}/${r.forgeriesSent}`.padStart(11),
    `${(r.serverCpu * 100).toFixed(0)}%`.padStart(8),
    `${(r.generatorCpu * 100).toFixed(0)}%`.padStart(8),
    // Steadier than req/s on a shared machine: what each answered request cost the endpoints' process.
    ((r.serverCpu * 1000) / r.okPerSecond).toFixed(2).padStart(11),
  ].join(' ');
const lines = [
  '',
  `HTTP interactions endpoint under load: loopback, ${connections} connections, ${duration} s each after a ${warmup} s warm-up,`,
  `1 request in ${FORGE_EVERY} forged; corpus ${endpoints.articles} articles / ${endpoints.passages} passages,`,
  `searched by INDEX_WORKERS=${indexWorkers} index worker threads (one index copy each) on ${availableParallelism()} cores`,
  '',
  `${'endpoint'.padEnd(22)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)} ${'forged ok'.padStart(11)} ${'srv CPU'.padStart(8)} ${'gen CPU'.padStart(8)} ${'CPU ms/req'.padStart(11)}`,
  row('bare (verify + PONG)', bare),
  row('/ask (search + reply)', askResult),
  row('/ask, 3-article corpus', seedResult),
  '',
  `req/s and latency count genuine requests answered correctly; "forged ok" = forgeries accepted / sent;`,
  `CPU ms/req = the endpoints' process's CPU (index workers included) per genuine request answered.`,
  `The 3-article row (${seedDuration} s) shows the endpoint and commands without the index's scale; it has no target.`,
  `/ask : bare throughput ratio = ${ratio.toFixed(3)}`,
];
for (const [name, r] of [
  ['bare', bare],
  ['/ask', askResult],
  ['/ask (3 articles)', seedResult],
] as const) {
  if (r.repeats > 0)
    lines.push(`warning: ${name} ran out of pre-signed requests (${r.repeats} repeats, refused as replays)`);
  if (r.deferred > 0)
    lines.push(`note: ${name}: ${r.deferred} answers were deferred (over the 2 s dispatcher deadline)`);
  if (r.forgeriesOtherStatus > 0)
    lines.push(`note: ${name}: ${r.forgeriesOtherStatus} forgeries got a status other than 401`);
  for (const sample of r.samples) lines.push(`${name} wrong answer: ${sample}`);
}
if (staleBy > 290)
  lines.push(`warning: the run outlasted the timestamps' 5-minute window (${staleBy.toFixed(0)} s)`);
const all = [bare, askResult, seedResult];
const sum = (count: (r: Measured) => number) => all.reduce((total, r) => total + count(r), 0);
const errors = sum((r) => r.errors + r.deferred);
const targets: [string, boolean, string][] = [
  ['/ask throughput >= 0.5x bare', ratio >= 0.5, `${ratio.toFixed(3)}x`],
  ['/ask p99 < 50 ms', askResult.p99 < 50, `${askResult.p99.toFixed(1)} ms`],
  // Repeats are replays the pool could not avoid: the run is not clean even if none erred.
  ['zero errors', errors + sum((r) => r.repeats) === 0, `${errors}`],
  [
    'zero accepted forgeries',
    sum((r) => r.forgeriesAccepted) === 0,
    `${sum((r) => r.forgeriesAccepted)} of ${sum((r) => r.forgeriesSent)}`,
  ],
];
lines.push('', ...storesTable(stores));
if (typeof stores !== 'string')
  targets.push([
    'every /ask recorded (several hosts)',
    stores.every((row) => row.recorded >= row.answered && row.forgeriesAccepted === 0),
    stores.map((row) => `${row.recorded}/${row.answered}`).join(', '),
  ]);
lines.push('', 'targets:');
for (const [name, pass, value] of targets)
  lines.push(`  ${pass ? 'PASS' : 'FAIL'}  ${name.padEnd(30)} ${value}`);
lines.push('', `whole run ${((performance.now() - runStarted) / 1000).toFixed(0)} s`);
process.stdout.write(`${lines.join('\n')}\n`);

/** The several-hosts rows, their cost per request beside one replica's, and whether any record went missing. */
function storesTable(rows: StoresRow[] | string): string[] {
  if (typeof rows === 'string') return [rows];
  const [one, two] = rows;
  const out = [
    `Several hosts: real npm run start:http processes, bundled corpus (3 articles), each /ask recorded; ${connections} connections`,
    'split over the replicas; CPU = every serving process (replicas, PostgreSQL backends, Redis) per answered /ask',
    '',
    `${'setup'.padEnd(32)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)} ${'CPU ms/req'.padStart(11)} ${'recorded'.padStart(15)}`,
    ...rows.map((row) =>
      [
        row.name.padEnd(32),
        row.okPerSecond.toFixed(0).padStart(8),
        row.p50.toFixed(2).padStart(8),
        row.p99.toFixed(2).padStart(8),
        String(row.errors).padStart(7),
        row.cpuMsPerRequest.toFixed(2).padStart(11),
        `${row.recorded}/${row.answered}`.padStart(15),
      ].join(' '),
    ),
  ];
  if (one && two)
    out.push(
      '',
      `shared stores: throughput ratio (2 replicas / 1) = ${(two.okPerSecond / one.okPerSecond).toFixed(3)}, ` +
        `CPU per request ${(two.cpuMsPerRequest - one.cpuMsPerRequest).toFixed(2)} ms more (${(two.cpuMsPerRequest / one.cpuMsPerRequest).toFixed(2)}x)`,
    );
  for (const row of rows)
    if (row.forgeriesAccepted > 0) out.push(`FAIL ${row.name}: ${row.forgeriesAccepted} forgeries accepted`);
  return out;
}
process.exit(targets.every(([, pass]) => pass) ? 0 : 1);
