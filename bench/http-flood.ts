/**
 * `npm run bench:flood`: the attack of issue 14 on the HTTP endpoint, bounded and on loopback only.
 * A child process serves the real endpoint over the bundled corpus; this process opens `--connections`
 * connections (3,000) that each send headers with a well-shaped but forged signature and all but one
 * byte of a 256 KiB body, then sit. Prints the endpoint's RSS before, at the peak during and after the
 * flood (the connections closed, a garbage collection later), and how the requests were answered.
 * Target: the peak stays within 200 MB of the baseline and the end within 50 MB. Exits 1 otherwise.
 *
 * Options: --connections <n> (3000), --hold <s> (5, how long the connections sit).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const MAX_BODY = 262_144;
const MB = 2 ** 20;

type FromChild = { kind: 'ready'; port: number } | { kind: 'rss'; bytes: number };

if (process.argv.includes('--serve')) await serve();
else await flood();

/** The endpoint's process: reports its port, then its RSS (after a GC when asked) on request. */
async function serve(): Promise<void> {
  const { commands } = await import('../commands/index.ts');
  const { loadConfig } = await import('../src/config.ts');
  const { createDispatchContext } = await import('../src/interactions/context.ts');
  const { memoryLogger } = await import('../src/logging/logger.ts');
  const { openLibrary } = await import('../src/lifecycle/start-lifecycle.ts');
  const { createInteractionServer } = await import('../src/transports/http/server.ts');
  const config = loadConfig({
    DISCORD_PUBLIC_KEY: process.env.FLOOD_PUBLIC_KEY ?? '',
    INDEX_CACHE_DIR: '',
    CORPUS_PATH: 'corpus',
  });
  const logger = memoryLogger();
  const { library, lifecycle } = await openLibrary({ config, logger });
  const server = createInteractionServer({
    publicKey: config.DISCORD_PUBLIC_KEY ?? '',
    library,
    apiBase: config.DISCORD_API_BASE,
    context: createDispatchContext({ library, corpus: lifecycle, config, logger, commands }),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const send = (message: FromChild) => process.send?.(message);
  send({ kind: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
  process.on('message', (message: { kind: 'rss'; gc?: boolean } | { kind: 'stop' }) => {
    if (message.kind === 'stop') process.exit(0);
    if (message.gc) globalThis.gc?.();
    send({ kind: 'rss', bytes: process.memoryUsage().rss });
  });
}

async function flood(): Promise<void> {
  const { values } = parseArgs({
    options: { connections: { type: 'string', default: '3000' }, hold: { type: 'string', default: '5' } },
  });
  const count = Number(values.connections);
  const holdMs = Number(values.hold) * 1000;
  const { publicKey } = generateKeyPairSync('ed25519');
  const publicKeyHex = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    env: { ...process.env, FLOOD_PUBLIC_KEY: publicKeyHex, LOG_LEVEL: 'error' },
  });
  const [ready] = (await once(child, 'message')) as [FromChild];
  if (ready.kind !== 'ready') throw new Error('the endpoint did not start');
  const rss = async (gc = false): Promise<number> => {
    child.send({ kind: 'rss', gc });
    const [reply] = (await once(child, 'message')) as [FromChild];
    return reply.kind === 'rss' ? reply.bytes : 0;
  };

  await sleep(1000);
  const before = await rss(true);
  const body = Buffer.alloc(MAX_BODY - 1, 0x20);
  const statuses = new Map<string, number>();
  const sockets: Socket[] = [];
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await rss());
      await sleep(200);
    }
  })();
  for (let i = 0; i < count; i++) {
    const socket = connect(ready.port, '127.0.0.1');
    socket.on('error', () => undefined);
    let answered = false;
    socket.on('data', (chunk: Buffer) => {
      if (answered) return;
      answered = true;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 'other';
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
    socket.write(
      [
        'POST /interactions HTTP/1.1',
        'Host: 127.0.0.1',
        'Content-Type: application/json',
        `X-Signature-Ed25519: ${'ab'.repeat(64)}`,
        `X-Signature-Timestamp: ${Math.floor(Date.now() / 1000)}`,
        `Content-Length: ${MAX_BODY}`,
        '',
        '',
      ].join('\r\n'),
    );
    socket.write(body);
    sockets.push(socket);
    if (i % 100 === 99) await sleep(10);
  }
  await sleep(holdMs);
  const during = await rss();
  peak = Math.max(peak, during);
  for (const socket of sockets) socket.destroy();
  sampling = false;
  await sampler;
  await sleep(3000);
  const after = await rss(true);
  child.send({ kind: 'stop' });
  await once(child as ChildProcess, 'exit');

  const unanswered = count - [...statuses.values()].reduce((sum, n) => sum + n, 0);
  const row = (label: string, bytes: number) => `| ${label} | ${(bytes / MB).toFixed(0)} MB |`;
  console.log(
    `Flood: ${count} connections, forged signature, ${MAX_BODY - 1} of ${MAX_BODY} bytes each, held ${holdMs / 1000} s (loopback)\n`,
  );
  console.log('| endpoint RSS | |\n|---|---|');
  console.log(row('before', before));
  console.log(row('peak during', peak));
  console.log(row('after (connections closed, GC)', after));
  console.log(
    `\nanswers: ${[...statuses].map(([status, n]) => `${status}: ${n}`).join(', ')}; unanswered when closed: ${unanswered}`,
  );
  const ok = peak - before < 200 * MB && after - before < 50 * MB;
  console.log(ok ? 'within target' : 'TARGET MISSED');
  process.exit(ok ? 0 : 1);
}
