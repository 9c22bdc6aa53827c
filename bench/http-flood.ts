/**
 * `npm run bench:flood`: attacks on the HTTP endpoint's connections, bounded and on loopback only. A
 * child process serves the real endpoint over the bundled corpus with its default limits.
 *
 * `--attack memory` (issue 14): `--connections` connections (3,000) each send headers with a
 * well-shaped but forged signature and all but one byte of a 256 KiB body, then sit. Prints the
 * endpoint's RSS before, at the peak during and after the flood. Target: the peak within 200 MB of the
 * baseline, the end within 50 MB.
 *
 * `--attack connections` (issue 31 items 3 and 4): 20 genuine signed PINGs, each on a connection of
 * its own, first with no attack and then during each attack (sockets reopened as the endpoint closes
 * them, from `--sources` loopback addresses): 600 idle sockets, 600 trickling their headers, 600
 * holding 256 KiB of unverified body, then 1 and 50 connections pipelining forged 1 KiB requests at
 * ~5 MB/s each. Prints, per attack, how many PINGs were answered, their p50 and p90, and the p50 as a
 * ratio of the p50 with no attack. Target: every PING answered and each p50 within 10x the quiet one.
 * The attacker runs in a process of its own, the PINGs' sender in this one, the endpoint in a third.
 *
 * Options: --attack memory|connections|all (all), --connections <n> (3000), --hold <s> (5),
 * --sources <n> (1 and 20 when not given), --pings <n> (20).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type AttackKind, type AttackOptions, startAttack } from './http/attacks.ts';
import { type PingRound, percentile, sendGenuinePings } from './http/genuine-pings.ts';

const MAX_BODY = 262_144;
const MB = 2 ** 20;

type FromChild = { kind: 'ready'; port: number } | { kind: 'rss'; bytes: number };

if (process.argv.includes('--serve')) await serve();
else if (process.argv.includes('--attacker')) attacker();
else await main();

/**
 * The attacker's process: runs the attack it is given until told to stop, then reports how many
 * sockets it reopened. Apart from the process sending the genuine PINGs, as Discord is from an
 * attacker: on one event loop, a PING's own connect and read waited behind the attacker's writes
 * (50 pipelining connections ask for 250 MB/s), which the PING's time then counted as the endpoint's.
 */
function attacker(): void {
  const options = JSON.parse(process.argv[process.argv.indexOf('--attacker') + 1] ?? '{}') as AttackOptions;
  const attack = startAttack(options);
  process.send?.({ kind: 'started' });
  process.once('message', async () => {
    const reopened = attack.reopened();
    await attack.stop();
    process.send?.({ kind: 'stopped', reopened }, () => process.exit(0));
  });
}

/** `startAttack` in a process of its own (see `attacker`). */
async function attackFromChild(options: AttackOptions): Promise<{ stop(): Promise<number> }> {
  const child = fork(fileURLToPath(import.meta.url), ['--attacker', JSON.stringify(options)], {
    execArgv: ['--import', 'tsx'],
  });
  await once(child, 'message');
  return {
    async stop() {
      child.send({ kind: 'stop' });
      const [reply] = (await once(child, 'message')) as [{ reopened: number }];
      await once(child, 'exit');
      return reply.reopened;
    },
  };
}

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

/** The endpoint in a child process, and the key Discord signs with for it. */
interface ServedEndpoint {
  port: number;
  discordKey: KeyObject;
  rss(gc?: boolean): Promise<number>;
  stop(): Promise<void>;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      attack: { type: 'string', default: 'all' },
      connections: { type: 'string', default: '3000' },
      hold: { type: 'string', default: '5' },
      sources: { type: 'string' },
      pings: { type: 'string', default: '20' },
    },
  });
  let ok = true;
  if (values.attack === 'memory' || values.attack === 'all') {
    ok = (await flood(Number(values.connections), Number(values.hold) * 1000)) && ok;
  }
  if (values.attack === 'connections' || values.attack === 'all') {
    const sources = values.sources === undefined ? [1, 20] : [Number(values.sources)];
    ok = (await connectionAttacks(sources, Number(values.pings))) && ok;
  }
  process.exit(ok ? 0 : 1);
}

async function serveEndpoint(): Promise<ServedEndpoint> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicKeyHex = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    env: { ...process.env, FLOOD_PUBLIC_KEY: publicKeyHex, LOG_LEVEL: 'error' },
  });
  const [ready] = (await once(child, 'message')) as [FromChild];
  if (ready.kind !== 'ready') throw new Error('the endpoint did not start');
  return {
    port: ready.port,
    discordKey: privateKey,
    async rss(gc = false) {
      child.send({ kind: 'rss', gc });
      const [reply] = (await once(child, 'message')) as [FromChild];
      return reply.kind === 'rss' ? reply.bytes : 0;
    },
    async stop() {
      child.send({ kind: 'stop' });
      await once(child as ChildProcess, 'exit');
    },
  };
}

/** A row of the connections table: how the genuine PINGs fared during one attack. */
function pingRow(label: string, round: PingRound, quietP50: number): string {
  const p50 = percentile(round.latenciesMs, 50);
  const p90 = percentile(round.latenciesMs, 90);
  const failures = [...round.failures].map(([what, n]) => `${what}: ${n}`).join(', ') || '-';
  const ratio = Number.isNaN(p50) ? '-' : `${(p50 / quietP50).toFixed(1)}x`;
  const ms = (value: number) => (Number.isNaN(value) ? '-' : `${value.toFixed(0)} ms`);
  return `| ${label} | ${round.answered}/${round.sent} | ${ms(p50)} | ${ms(p90)} | ${ratio} | ${failures} |`;
}

async function connectionAttacks(sourceCounts: readonly number[], pings: number): Promise<boolean> {
  const endpoint = await serveEndpoint();
  await sleep(1000);
  const quiet = await sendGenuinePings(endpoint.port, endpoint.discordKey, pings);
  const quietP50 = percentile(quiet.latenciesMs, 50);
  const scenarios: { kind: AttackKind; sockets: number; label: string }[] = [
    { kind: 'idle', sockets: 600, label: '600 idle sockets' },
    { kind: 'trickle', sockets: 600, label: '600 sockets trickling headers' },
    { kind: 'held-body', sockets: 600, label: '600 sockets holding 256 KiB unverified' },
    { kind: 'pipelined', sockets: 1, label: '1 connection pipelining forged requests, 5 MB/s' },
    { kind: 'pipelined', sockets: 50, label: '50 connections pipelining forged requests, 5 MB/s each' },
  ];
  console.log(
    `\nGenuine signed PINGs (${pings} each, one connection each, 5 s to answer; Discord waits 3) during attacks on loopback\n`,
  );
  console.log(
    '| attack | answered | p50 | p90 | p50 / quiet p50 | not answered |\n|---|---|---|---|---|---|',
  );
  console.log(pingRow('none', quiet, quietP50));
  let ok = quiet.answered === quiet.sent;
  for (const sources of sourceCounts) {
    for (const scenario of scenarios) {
      const attack = await attackFromChild({
        kind: scenario.kind,
        port: endpoint.port,
        sockets: scenario.sockets,
        sources,
      });
      // Long enough for every socket to be open and for the endpoint's own deadlines to start closing them.
      await sleep(3000);
      const round = await sendGenuinePings(endpoint.port, endpoint.discordKey, pings);
      const reopened = await attack.stop();
      const from = sources === 1 ? 'one address' : `${sources} addresses`;
      console.log(pingRow(`${scenario.label}, from ${from} (${reopened} reopened)`, round, quietP50));
      const p50 = percentile(round.latenciesMs, 50);
      ok = ok && round.answered === round.sent && p50 <= 10 * quietP50;
      await sleep(2000);
    }
  }
  await endpoint.stop();
  console.log(ok ? '\nwithin target' : '\nTARGET MISSED');
  return ok;
}

async function flood(count: number, holdMs: number): Promise<boolean> {
  const endpoint = await serveEndpoint();
  const rss = (gc = false) => endpoint.rss(gc);

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
    const socket = connect(endpoint.port, '127.0.0.1');
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
  await endpoint.stop();

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
  return ok;
}
