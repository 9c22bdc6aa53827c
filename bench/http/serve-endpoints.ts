/**
 * Child process of `bench/http-load.ts`: builds the scale corpus's index, then serves the real endpoint
 * over it, the bare one, and the real one over the bundled corpus, on loopback. The indexes live on
 * worker threads, as in `npm run start:http` (INDEX_THREAD=worker). Talks over IPC: sends `ready`,
 * answers `cpu` with its CPU time (worker threads included), exits on `stop`.
 */
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { commands } from '../../commands/index.ts';
import { loadConfig } from '../../src/config.ts';
import { createDispatchContext } from '../../src/interactions/context.ts';
import { Library } from '../../src/library.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { startWorkerEngine } from '../../src/search/index-cache/fast-start.ts';
import { IndexCache } from '../../src/search/index-cache/index-cache.ts';
import { createInteractionServer } from '../../src/transports/http/server.ts';
import { publicKeyFromHex } from '../../src/transports/http/verify-signature.ts';
import { scaleCorpusFolder } from '../lib/scale-corpus.ts';
import { createBareEndpoint } from './bare-endpoint.ts';
import type { ChildMessage, ParentMessage } from './ipc.ts';

const publicKeyHex = process.env.BENCH_PUBLIC_KEY ?? '';

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function send(message: ChildMessage): void {
  process.send?.(message);
}

const folder = await scaleCorpusFolder();
const noCache = new IndexCache({ dir: '' });
const workers = Number(process.env.BENCH_INDEX_WORKERS);
const started = await startWorkerEngine({ corpusPath: folder, cache: noCache, workers });
await rm(dirname(folder), { recursive: true, force: true });
const engine = started.engine;
const library = new Library(engine);

// Deferred answers (none are expected at this speed) would PATCH here instead of nowhere.
const webhookSink = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
const sinkPort = await listen(webhookSink);

const config = loadConfig({
  DISCORD_PUBLIC_KEY: publicKeyHex,
  DISCORD_API_BASE: `http://127.0.0.1:${sinkPort}/api`,
  // The load comes from a few thousand simulated members asking many questions each; the per-member
  // limit is raised so that it never refuses and every request runs the search.
  RATE_LIMIT_QUESTIONS: '1000',
  INDEX_CACHE_DIR: '',
  LOG_LEVEL: 'warn',
});
const endpoint = createInteractionServer({
  publicKey: publicKeyHex,
  library,
  apiBase: config.DISCORD_API_BASE,
  context: createDispatchContext({ commands, library, config, logger: createLogger('warn') }),
});
const bare = createBareEndpoint(publicKeyFromHex(publicKeyHex));
const seedPath = join(import.meta.dirname, '..', '..', 'corpus');
const seedLibrary = new Library((await startWorkerEngine({ corpusPath: seedPath, cache: noCache })).engine);
const seed = createInteractionServer({
  publicKey: publicKeyHex,
  library: seedLibrary,
  apiBase: config.DISCORD_API_BASE,
  context: createDispatchContext({ commands, library: seedLibrary, config, logger: createLogger('warn') }),
});

send({
  kind: 'ready',
  askPort: await listen(endpoint),
  barePort: await listen(bare),
  seedPort: await listen(seed),
  articles: engine.articles().length,
  passages: engine.passageCount,
  startMs: started.durationMs,
});

process.on('message', (message: ParentMessage) => {
  if (message.kind === 'cpu') {
    const usage = process.cpuUsage();
    send({ kind: 'cpu', micros: usage.user + usage.system });
  } else if (message.kind === 'stop') {
    for (const server of [endpoint, bare, seed]) server.closeAllConnections();
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
