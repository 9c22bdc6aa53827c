/**
 * `npm run bench:hostile-pages`: issue 31's deeply nested pages, measured on a real endpoint. Starts
 * `npm run start:http` (the bundled corpus copied to a temporary folder, a stand-in for Discord's API
 * that receives the deferred replies, a local site serving the pages), then for each depth sends a
 * moderator's signed `/corpus add url:` for a ~16 KB story inside that many nested `<div>`s, and while
 * it runs times `/healthz` and another member's `/ask` every 250 ms. Prints, per depth: how long until
 * the reply, the reply's first words, and the slowest `/healthz` and `/ask` meanwhile. Last, a stop:
 * SIGTERM while a page is being read, timed to the process's exit.
 * `--root DIR` runs another checkout's endpoint (to measure it before a fix); `--depths 1500,2000`;
 * `--env K=V,...` adds settings (e.g. `EXTRACT_MAX_DEPTH=1000` to see the time limit end a reading).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { nestedPage } from '../test/support/nested-page.ts';
import { askBody } from './http/interaction-bodies.ts';
import { signedHeaders } from './http/signed-requests.ts';

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    depths: { type: 'string', default: '1500,2000,3000,5000' },
    env: { type: 'string', default: '' },
    'stop-depth': { type: 'string', default: '2000' },
    'reply-limit': { type: 'string', default: '300' },
  },
});
const root = path.resolve(values.root ?? path.join(import.meta.dirname, '..'));
const depths = values.depths.split(',').map(Number);
const extraEnv = Object.fromEntries(
  values.env
    .split(',')
    .filter((pair) => pair.includes('='))
    .map((pair) => pair.split('=') as [string, string]),
);
/** Seconds to wait for one reply before calling it lost. */
const replyLimitMs = Number(values['reply-limit']) * 1000;

const APPLICATION = '100000000000000001';
const keys = generateKeyPairSync('ed25519');
const publicKeyHex = keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    }),
  );
}

const site = createServer((request, response) => {
  const depth = Number(/\/nested\/(\d+)/.exec(request.url ?? '')?.[1] ?? 0);
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(nestedPage(depth));
});
const sitePort = await listen(site);

/** Replies the endpoint sent to the stand-in API (deferred answers), by interaction token. */
const replies = new Map<string, (text: string) => void>();
const api = createServer((request: IncomingMessage, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => {
    body += chunk.toString('utf8');
  });
  request.on('end', () => {
    const token = /\/webhooks\/\d+\/([^/]+)\//.exec(request.url ?? '')?.[1];
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: '1' }));
    if (token !== undefined && request.method === 'PATCH') replies.get(token)?.(body);
  });
});
const apiPort = await listen(api);
const probe = createServer();
const endpointPort = await listen(probe);
await new Promise((resolve) => probe.close(resolve));

const folder = mkdtempSync(path.join(tmpdir(), 'newsdesk-hostile-'));
cpSync(path.join(root, 'corpus'), path.join(folder, 'corpus'), { recursive: true });
const endpointUrl = `http://127.0.0.1:${endpointPort}`;

function startEndpoint(): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/transports/http/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DISCORD_PUBLIC_KEY: publicKeyHex,
      DISCORD_APPLICATION_ID: APPLICATION,
      DISCORD_API_BASE: `http://127.0.0.1:${apiPort}/api`,
      HTTP_PORT: String(endpointPort),
      DATA_DIR: '',
      INDEX_CACHE_DIR: '',
      CORPUS_PATH: path.join(folder, 'corpus'),
      RATE_LIMIT_QUESTIONS: '1000',
      FETCH_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'error',
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

let serial = 0;
function signed(body: string): RequestInit {
  return { method: 'POST', headers: signedHeaders(keys.privateKey, body), body };
}

/** `/corpus add url:` from a member with Manage Server; resolves with the reply's text and its time. */
async function corpusAdd(url: string): Promise<{ ms: number; text: string }> {
  serial += 1;
  const token = `hostile-${serial}`;
  const body = JSON.parse(askBody(serial, 'unused')) as Record<string, unknown>;
  Object.assign(body, {
    token,
    member: { ...(body.member as object), permissions: String(1 << 5) },
    data: {
      id: '800000000000000002',
      name: 'corpus',
      type: 1,
      options: [{ name: 'add', type: 1, options: [{ name: 'url', type: 3, value: url }] }],
    },
  });
  const started = performance.now();
  const deferred = new Promise<string>((resolve) => replies.set(token, resolve));
  const response = await fetch(`${endpointUrl}/interactions`, signed(JSON.stringify(body))).catch(
    () => undefined,
  );
  const first = response ? await response.text() : '';
  let text: string;
  if (first.startsWith('{"type":4')) text = first;
  else {
    const lost = new Promise<string>((resolve) =>
      setTimeout(() => resolve('(no reply)'), replyLimitMs).unref(),
    );
    text = await Promise.race([deferred, lost]);
  }
  const content = (() => {
    try {
      const parsed = JSON.parse(text) as { content?: string; data?: { content?: string } };
      return parsed.content ?? parsed.data?.content ?? text;
    } catch {
      return text;
    }
  })();
  return { ms: performance.now() - started, text: content.replace(/\s+/g, ' ').slice(0, 110) };
}

async function timed(request: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  await request()
    .then((response) => response.text())
    .catch(() => undefined);
  return performance.now() - started;
}

const health = () => timed(() => fetch(`${endpointUrl}/healthz`));
const ask = () => {
  serial += 1;
  return timed(() =>
    fetch(`${endpointUrl}/interactions`, signed(askBody(serial, 'Who threatened the mayor of Teteghem?'))),
  );
};

async function waitUntilServing(): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const ok = await fetch(`${endpointUrl}/healthz`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error('the endpoint did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
let endpoint = startEndpoint();
try {
  await waitUntilServing();
  // Each line as soon as it is measured: before a fix, one depth can take many minutes.
  const lines = { push: (line: string) => process.stdout.write(`${line}\n`) };
  lines.push(`endpoint: ${root}${values.env ? ` (${values.env})` : ''}`);
  lines.push(`idle: /healthz ${(await health()).toFixed(0)} ms, /ask ${(await ask()).toFixed(0)} ms`);
  for (const depth of depths) {
    const healthMs: number[] = [];
    const askMs: number[] = [];
    let running = true;
    const probing = (async () => {
      while (running) {
        const [h, a] = await Promise.all([health(), ask()]);
        healthMs.push(h);
        askMs.push(a);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    const added = await corpusAdd(`http://127.0.0.1:${sitePort}/nested/${depth}`);
    running = false;
    await probing;
    lines.push(
      `${String(depth).padStart(5)} divs (${(nestedPage(depth).length / 1024).toFixed(0)} KB): reply after ${fmt(added.ms)}` +
        `; meanwhile slowest /healthz ${fmt(Math.max(...healthMs))}, /ask ${fmt(Math.max(...askMs))} (${askMs.length} each)` +
        `\n        reply: ${added.text}`,
    );
    if (added.text === '(no reply)' || /failed|stopped/i.test(added.text)) {
      // A stack overflow or a lost reply may have ended the endpoint: start another for the next depth.
      if (endpoint.exitCode !== null || (await health()) > 5_000) {
        endpoint.kill('SIGKILL');
        endpoint = startEndpoint();
        await waitUntilServing();
      }
    }
  }
  // A stop while a page is being read.
  void corpusAdd(`http://127.0.0.1:${sitePort}/nested/${values['stop-depth']}`);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const stopping = performance.now();
  const exited = new Promise<number | null>((resolve) => endpoint.once('exit', (code) => resolve(code)));
  endpoint.kill('SIGTERM');
  const code = await exited;
  lines.push(
    `stop (SIGTERM 1 s into reading ${values['stop-depth']} divs): exited after ${fmt(performance.now() - stopping)} (code ${code})`,
  );
} finally {
  if (endpoint.exitCode === null) endpoint.kill('SIGKILL');
  site.close();
  api.close();
  rmSync(folder, { recursive: true, force: true });
}
