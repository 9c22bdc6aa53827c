/**
 * `npm run bench:autocomplete`: what autocomplete costs the bot over the Reuters file (21,578 articles,
 * `../shared/data`), measured on the real HTTP endpoint with signed requests, the index on a worker
 * thread as under `npm run start:http` (issue 31 item 2).
 *
 * 1. One request at a time (5 of each, each from a member of its own): `/ask source:` with 1,000 and
 *    100 x U+FDFA (a character whose folding expands 18x) and with `oil`; `/cite id:` with 200 x
 *    U+FDFA and with `oil`. Prints each one's p50 and max.
 * 2. Another member's `/ask` (20 questions, each from a member of its own, timed until the answer is
 *    complete, a deferred one's webhook edit included): with nothing else running, then while one
 *    member runs two loops of autocomplete back to back (`/ask source:` 1,000 x U+FDFA and `/cite id:`
 *    200 x U+FDFA). Prints both p50s and their ratio. Target: the ratio under 2.
 * 3. First, on this thread over the ~24k-article scale corpus (121k passages): the longest stall of the
 *    event loop from the engine being ready through its first autocomplete, with the suggestion index
 *    built in one go by that autocomplete (as before) and in slices from the moment the engine is ready
 *    (as the bot does now), and each build's CPU; their ratios. `--stall-only` runs this part alone.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { once } from 'node:events';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { askBody, autocompleteBody, type TypedOption } from './http/interaction-bodies.ts';
import { signedHeaders } from './http/signed-requests.ts';
import { SHARED_DATA, scaleCorpusFolder } from './lib/scale-corpus.ts';
import { type BuildRun, measureSuggestionBuild } from './lib/suggestion-build-stall.ts';

const FDFA = '\uFDFA';

type FromChild = { kind: 'ready'; port: number; articles: number };

/** The endpoint over the Reuters file, its index on a worker thread; reports its port. */
async function serve(): Promise<void> {
  const { commands } = await import('../commands/index.ts');
  const { loadConfig } = await import('../src/config.ts');
  const { createDispatchContext } = await import('../src/interactions/context.ts');
  const { Library } = await import('../src/library.ts');
  const { createLogger } = await import('../src/logging/logger.ts');
  const { startWorkerEngine } = await import('../src/search/index-cache/fast-start.ts');
  const { IndexCache } = await import('../src/search/index-cache/index-cache.ts');
  const { createInteractionServer } = await import('../src/transports/http/server.ts');
  // A copy, not a link: the loader refuses links leading out of the corpus folder.
  const root = await mkdtemp(join(tmpdir(), 'newsdesk-autocomplete-'));
  const folder = join(root, 'corpus');
  await mkdir(folder);
  await copyFile(join(SHARED_DATA, 'reuters', 'reuters21578.jsonl'), join(folder, 'reuters21578.jsonl'));
  const started = await startWorkerEngine({ corpusPath: folder, cache: new IndexCache({ dir: '' }) });
  await rm(root, { recursive: true, force: true });
  const library = new Library(started.engine);
  const config = loadConfig({
    DISCORD_PUBLIC_KEY: process.env.BENCH_PUBLIC_KEY ?? '',
    DISCORD_API_BASE: process.env.BENCH_API_BASE ?? '',
    INDEX_CACHE_DIR: '',
    DATA_DIR: '',
    LOG_LEVEL: 'error',
  });
  const server = createInteractionServer({
    publicKey: config.DISCORD_PUBLIC_KEY ?? '',
    library,
    apiBase: config.DISCORD_API_BASE,
    context: createDispatchContext({
      commands,
      library,
      config,
      logger: createLogger('error'),
      charts: null,
    }),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  process.send?.({ kind: 'ready', port, articles: library.engine.articles().length } satisfies FromChild);
  process.on('message', () => process.exit(0));
}

/** Webhook edits of deferred answers, by interaction token, as they arrive. */
class WebhookSink {
  readonly #waiting = new Map<string, () => void>();
  readonly #arrived = new Set<string>();
  readonly server = createServer((incoming, response) => {
    incoming.resume();
    incoming.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"1"}');
      const token = /\/webhooks\/\d+\/([^/]+)\//.exec(incoming.url ?? '')?.[1];
      if (token === undefined || incoming.method !== 'PATCH') return;
      this.#arrived.add(token);
      this.#waiting.get(token)?.();
    });
  });

  edited(token: string): Promise<void> {
    if (this.#arrived.has(token)) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.set(token, resolve));
  }
}

let sequence = 0;
const next = () => 5_000_000 + sequence++;

/** Posts a signed body; resolves to the status, the parsed answer and the milliseconds taken. */
function post(
  port: number,
  key: KeyObject,
  body: string,
): Promise<{ status: number; type?: number; ms: number }> {
  const bytes = Buffer.from(body);
  const started = performance.now();
  return new Promise((resolve) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path: '/interactions',
        method: 'POST',
        headers: { ...signedHeaders(key, bytes), 'content-length': bytes.length },
      },
      (incoming) => {
        let text = '';
        incoming.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        incoming.on('end', () => {
          let type: number | undefined;
          try {
            type = (JSON.parse(text) as { type?: number }).type;
          } catch {
            type = undefined;
          }
          resolve({ status: incoming.statusCode ?? 0, type, ms: performance.now() - started });
        });
      },
    );
    outgoing.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    outgoing.end(bytes);
  });
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const QUESTIONS = [
  'what did the central bank say about interest rates',
  'how much cocoa arrived in bahia',
  'which company agreed to buy the oil refinery',
  'what happened to the price of gold',
  'why did opec cut production',
  'who bought shares in the airline',
  'what was the trade deficit in january',
  'how large was the wheat harvest',
  'did the dollar fall against the yen',
  'which bank raised its prime rate',
];

/** Part 3: the suggestion index's build at 121k passages, one-shot against sliced. */
async function measureBuildStall(): Promise<void> {
  const { loadCorpus } = await import('../src/corpus/load-corpus.ts');
  const root = await mkdtemp(join(tmpdir(), 'newsdesk-suggest-build-'));
  const corpus = await loadCorpus(await scaleCorpusFolder(root));
  await rm(root, { recursive: true, force: true });
  const passages = corpus.articles.reduce((sum, article) => sum + article.passages.length, 0);
  const { oneShot, sliced, early } = await measureSuggestionBuild(corpus.articles);
  console.log(
    `Suggestion index over ${corpus.articles.length} articles (${passages} passages), engine ready through first autocomplete, median of 5\n`,
  );
  console.log('| build | longest event-loop stall | build CPU | ready to built |\n|---|---|---|---|');
  const row = (label: string, run: BuildRun) =>
    console.log(
      `| ${label} | ${run.stallMs.toFixed(1)} ms | ${run.cpuMs.toFixed(0)} ms | ${run.wallMs.toFixed(0)} ms |`,
    );
  row('one go, at the first autocomplete (before)', oneShot);
  row('in slices once the engine is ready, autocomplete after', sliced);
  row('in slices, autocomplete at once (answered by the scan)', early);
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  console.log(
    `\nratio sliced / one go: stall ${ratio(sliced.stallMs, oneShot.stallMs)} (autocomplete at once ${ratio(early.stallMs, oneShot.stallMs)}), CPU ${ratio(sliced.cpuMs, oneShot.cpuMs)} (${ratio(early.cpuMs, oneShot.cpuMs)})\n`,
  );
}

async function measure(): Promise<void> {
  await measureBuildStall();
  if (process.argv.includes('--stall-only')) return;
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicKeyHex = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
  const sink = new WebhookSink();
  await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
  const sinkPort = (sink.server.address() as AddressInfo).port;
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      BENCH_PUBLIC_KEY: publicKeyHex,
      BENCH_API_BASE: `http://127.0.0.1:${sinkPort}/api`,
    },
  });
  const [ready] = (await once(child, 'message')) as [FromChild];
  const { port } = ready;
  const typing = (userId: string, command: string, options: TypedOption[]) =>
    post(port, privateKey, autocompleteBody(next(), userId, command, options));
  const askSource = (userId: string, value: string) =>
    typing(userId, 'ask', [
      { name: 'question', value: 'oil' },
      { name: 'source', value, focused: true },
    ]);
  const citeId = (userId: string, value: string) =>
    typing(userId, 'cite', [{ name: 'id', value, focused: true }]);

  console.log(`Autocomplete over the Reuters file (${ready.articles} articles), real endpoint on loopback\n`);
  console.log('| one request at a time (5 each) | p50 | max |\n|---|---|---|');
  const cases: [string, (userId: string) => Promise<{ ms: number }>][] = [
    ['/ask source: 1,000 x U+FDFA', (user) => askSource(user, FDFA.repeat(1000))],
    ['/ask source: 100 x U+FDFA', (user) => askSource(user, FDFA.repeat(100))],
    ['/ask source: oil', (user) => askSource(user, 'oil')],
    ['/cite id: 200 x U+FDFA', (user) => citeId(user, FDFA.repeat(200))],
    ['/cite id: oil', (user) => citeId(user, 'oil')],
  ];
  for (const [label, run] of cases) {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) times.push((await run(String(600000000000000000n + BigInt(next())))).ms);
    console.log(
      `| ${label} | ${percentile(times, 50).toFixed(0)} ms | ${Math.max(...times).toFixed(0)} ms |`,
    );
  }

  let asked = 0;
  /** One /ask from a member of its own, until its answer is complete (a deferred one's edit included). */
  const ask = async (): Promise<number> => {
    const n = next();
    const started = performance.now();
    const question = `${QUESTIONS[asked++ % QUESTIONS.length]!} ${n}`;
    const reply = await post(port, privateKey, askBody(n, question));
    if (reply.type === 5) await sink.edited(`bench-token-${n}`);
    return performance.now() - started;
  };
  const askRound = async (): Promise<number[]> => {
    const times: number[] = [];
    for (let i = 0; i < 20; i++) times.push(await ask());
    return times;
  };
  const quiet = percentile(await askRound(), 50);
  let looping = true;
  let loopRequests = 0;
  const typist = '600000000000000001';
  const loop = async (run: () => Promise<unknown>) => {
    while (looping) {
      await run();
      loopRequests += 1;
    }
  };
  const loops = [
    loop(() => askSource(typist, FDFA.repeat(1000))),
    loop(() => citeId(typist, FDFA.repeat(200))),
  ];
  const loaded = percentile(await askRound(), 50);
  looping = false;
  await Promise.all(loops);
  console.log('\n| another member’s /ask (20, one member each) | p50 |\n|---|---|');
  console.log(`| nothing else running | ${quiet.toFixed(0)} ms |`);
  console.log(
    `| one member running two autocomplete loops (${loopRequests} requests) | ${loaded.toFixed(0)} ms |`,
  );
  console.log(`\nratio loaded / quiet: ${(loaded / quiet).toFixed(2)}x`);
  const ok = loaded / quiet < 2;
  console.log(ok ? 'within target' : 'TARGET MISSED');
  child.send('stop');
  await once(child as ChildProcess, 'exit');
  sink.server.close();
  process.exit(ok ? 0 : 1);
}

// Last, so the classes above are defined before either runs.
if (process.argv.includes('--serve')) await serve();
else await measure();
