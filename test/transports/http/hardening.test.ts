import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { member } from '../../e2e/harness.ts';
import { botUser, userMessage } from '../../support/stand-in-discord/fixtures.ts';
import { button, chatInput } from '../../support/stand-in-discord/interactions.ts';
import { startEndpoint, type TestEndpoint } from './support/endpoint.ts';
import { send } from './support/http-client.ts';
import { nowSeconds } from './support/signer.ts';

/** A raw connection to the endpoint on loopback, recording what it receives and when it closes. */
interface RawClient {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
}

async function rawClient(base: string, localAddress = '127.0.0.1'): Promise<RawClient> {
  const { port } = new URL(base);
  const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress });
  let text = '';
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1');
  });
  socket.on('error', () => undefined);
  const closed = once(socket, 'close').then(() => undefined);
  await once(socket, 'connect');
  return { socket, received: () => text, closed };
}

/** Headers of a POST that is shaped like Discord's but signed by nobody. */
function forgedHead(contentLength: number, signature = 'ab'.repeat(64), timestamp = nowSeconds()): string {
  return [
    'POST /interactions HTTP/1.1',
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    `X-Signature-Ed25519: ${signature}`,
    `X-Signature-Timestamp: ${timestamp}`,
    `Content-Length: ${contentLength}`,
    '',
    '',
  ].join('\r\n');
}

const statusOf = (client: RawClient): number | undefined => {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(client.received());
  return match ? Number(match[1]) : undefined;
};

const ping = (): string =>
  JSON.stringify({ id: String(Math.random()).slice(2), type: 1, application_id: '1234567890' });

let endpoint: TestEndpoint | undefined;
const clients: RawClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.socket.destroy();
  await endpoint?.close();
  endpoint = undefined;
});

async function open(base: string, localAddress?: string): Promise<RawClient> {
  const client = await rawClient(base, localAddress);
  clients.push(client);
  return client;
}

describe('the endpoint under unauthenticated pressure (loopback only, bounded)', () => {
  it('refuses a malformed signature or a stale timestamp on its headers, before the body arrives', async () => {
    endpoint = await startEndpoint({ commands: [] });
    const cases = [
      forgedHead(200_000, 'not-hex'),
      forgedHead(200_000, 'ab'.repeat(63)),
      forgedHead(200_000, undefined, 'yesterday'),
      forgedHead(200_000, undefined, nowSeconds(-600)),
    ];
    for (const head of cases) {
      const client = await open(endpoint.base);
      // Headers and a sliver of the promised 200 kB: the answer must not wait for the rest.
      client.socket.write(`${head}{"type":1`);
      await vi.waitFor(() => expect(statusOf(client)).toBeDefined(), { timeout: 25_000, interval: 50 });
      expect(statusOf(client)).toBe(401);
    }
  });

  it('closes the oldest requests holding the unverified byte budget to make room, so a genuine PING gets in', async () => {
    endpoint = await startEndpoint({
      commands: [],
      server: { maxBodyBytes: 64 * 1024, maxUnverifiedBytes: 200 * 1024 },
    });
    const senders: RawClient[] = [];
    for (let i = 0; i < 8; i++) {
      // From addresses of their own, so the cap per address plays no part.
      const client = await open(endpoint.base, `127.0.0.${10 + i}`);
      // 60 kB of a 64,000-byte body each, then silence: 8 of them want 480 kB, the budget is 200 kB.
      client.socket.write(`${forgedHead(64_000)}${' '.repeat(60_000)}`);
      senders.push(client);
      await sleep(50);
    }
    // Each newcomer past the budget closes the oldest holder: the first ones go, the last ones stay.
    await vi.waitFor(
      () => expect(senders.slice(0, 4).every((client) => client.socket.destroyed)).toBe(true),
      {
        timeout: 25_000,
        interval: 50,
      },
    );
    expect(senders.slice(-2).some((client) => client.socket.destroyed)).toBe(false);
    const body = ping();
    const reply = await send(endpoint.url, { headers: endpoint.discord.headersFor(body), body });
    expect(reply.status).toBe(200);
  });

  it('closes the oldest idle connection past the cap instead of refusing the newest, which is answered', async () => {
    endpoint = await startEndpoint({ commands: [], server: { maxConnections: 4 } });
    const idle: RawClient[] = [];
    for (let i = 0; i < 6; i++) {
      idle.push(await open(endpoint.base, `127.0.0.${20 + i}`));
      await sleep(20);
    }
    await Promise.all(idle.slice(0, 2).map((client) => client.closed));
    const body = ping();
    const reply = await send(endpoint.url, { headers: endpoint.discord.headersFor(body), body });
    expect(reply.status).toBe(200);
    // Room for the PING's connection was made by closing the oldest idle one left.
    await idle[2]!.closed;
    expect(idle.slice(3).some((client) => client.socket.destroyed)).toBe(false);
  });

  it('keeps one remote address to its cap of connections, closing those past it unread, and leaves other addresses alone', async () => {
    endpoint = await startEndpoint({ commands: [], server: { maxConnectionsPerAddress: 3 } });
    const others = [await open(endpoint.base, '127.0.0.31'), await open(endpoint.base, '127.0.0.32')];
    const crowd: RawClient[] = [];
    for (let i = 0; i < 5; i++) {
      crowd.push(await open(endpoint.base, '127.0.0.30'));
      await sleep(20);
    }
    await Promise.all(crowd.slice(3).map((client) => client.closed));
    await sleep(200);
    expect(crowd.slice(0, 3).some((client) => client.socket.destroyed)).toBe(false);
    expect(others.some((client) => client.socket.destroyed)).toBe(false);
    const body = ping();
    expect((await send(endpoint.url, { headers: endpoint.discord.headersFor(body), body })).status).toBe(200);
  });

  it('closes a connection that sends nothing after unfinishedRequestMs (2 s), well before the old 10 s', async () => {
    endpoint = await startEndpoint({ commands: [] });
    const client = await open(endpoint.base);
    const started = performance.now();
    const outcome = await Promise.race([client.closed.then(() => 'closed'), sleep(9_000).then(() => 'open')]);
    expect(outcome).toBe('closed');
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_500);
  });

  it('answers a forged request and closes its connection, reading none of the requests pipelined after it', async () => {
    endpoint = await startEndpoint({ commands: [] });
    const client = await open(endpoint.base);
    client.socket.write(`${forgedHead(2)}{}`.repeat(50));
    await client.closed;
    const answers = client.received().match(/^HTTP\/1\.1 \d{3}/gm) ?? [];
    expect(answers).toEqual(['HTTP/1.1 401']);
    expect(client.received()).toMatch(/connection: close/i);
    // One signature checked, not fifty: Node hands the server every request pipelined in one write.
    const metrics = await (await fetch(`${endpoint.base}/metrics`)).text();
    expect(metrics).toMatch(/newsdesk_http_requests_total\{[^}]*outcome="unauthorized"[^}]*\} 1$/m);
  });

  it('closes a keep-alive connection after maxRequestsPerConnection requests', async () => {
    endpoint = await startEndpoint({ commands: [], server: { maxRequestsPerConnection: 3 } });
    const client = await open(endpoint.base);
    for (let i = 0; i < 5; i++) {
      const body = ping();
      const headers = {
        ...endpoint.discord.headersFor(body),
        'content-length': String(Buffer.byteLength(body)),
      };
      const head = Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join('\r\n');
      if (!client.socket.destroyed)
        client.socket.write(`POST /interactions HTTP/1.1\r\nHost: 127.0.0.1\r\n${head}\r\n\r\n${body}`);
      await sleep(100);
    }
    const statuses = client.received().match(/HTTP\/1\.1 \d{3}/g) ?? [];
    expect(statuses.slice(0, 3)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 200']);
    // The third answer says the connection ends; nothing after it is served.
    expect(client.received().split('HTTP/1.1 200')[3]).toMatch(/connection: close/i);
    expect(statuses.slice(3)).not.toContain('HTTP/1.1 200');
  });

  it('logs requests aborted mid-body at warn at most, without stacks, one line for many', async () => {
    endpoint = await startEndpoint({ commands: [] });
    for (let i = 0; i < 20; i++) {
      const client = await open(endpoint.base);
      client.socket.write(`${forgedHead(10_000)}{"type":`);
      await sleep(20);
      client.socket.destroy();
      await client.closed;
    }
    const { logger } = endpoint;
    await vi.waitFor(() => expect(logger.events.some((event) => event.level === 'warn')).toBe(true), {
      timeout: 10_000,
      interval: 50,
    });
    expect(logger.events.filter((event) => event.level === 'error')).toEqual([]);
    const warnings = logger.events.filter((event) => event.level === 'warn');
    expect(warnings.length).toBeLessThanOrEqual(2);
    expect(JSON.stringify(logger.events)).not.toMatch(/stack|at .*\.ts:\d+/);
  });

  it('closes a connection trickling its headers once headersTimeout passes, not up to 30 s later', async () => {
    endpoint = await startEndpoint({ commands: [] });
    endpoint.server.headersTimeout = 1_000;
    const client = await open(endpoint.base);
    client.socket.write('POST /interactions HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // Node checks the timeout every connectionsCheckingInterval (30 s unless set): a close well
    // before that shows the interval was set, whatever the load on this machine.
    const outcome = await Promise.race([
      client.closed.then(() => 'closed'),
      sleep(20_000).then(() => 'open'),
    ]);
    expect(outcome).toBe('closed');
  });
});

describe('options shaped unlike anything Discord sends, correctly signed', () => {
  /** Posts a signed /ask whose first option is replaced by `option` (JSON text), and parses the answer. */
  const askWith = async (
    option: string,
  ): Promise<{
    status: number;
    body: { type?: number; data?: { content?: string; embeds?: unknown[] } };
  }> => {
    const raw = JSON.stringify(chatInput('ask', { question: 'who threatened the mayor?', limit: 1 }, member));
    const body = raw.replace('"options":[', `"options":[${option},`);
    const reply = await send(endpoint!.url, { headers: endpoint!.discord.headersFor(body), body });
    return {
      status: reply.status,
      body: JSON.parse(reply.text) as { type?: number; data?: { content?: string } },
    };
  };

  it('refuses an option value nested 100,000 levels deep as not understood, logging no error', async () => {
    endpoint = await startEndpoint();
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const reply = await askWith(`{"name":"source","type":3,"value":${deep}}`);
    expect(reply.status).toBe(400);
    expect(endpoint.logger.events.filter((event) => event.level === 'error')).toEqual([]);
  });

  it('never lets an option named __proto__ change the defaults, and reports it as unknown', async () => {
    endpoint = await startEndpoint();
    // As an object it would have become the prototype of the options: limit 5, private.
    const asObject = await askWith('{"name":"__proto__","type":3,"value":{"limit":5,"private":true}}');
    expect(asObject.status).toBe(400);
    const asText = await askWith('{"name":"__proto__","type":3,"value":"x"}');
    expect(asText.status).toBe(200);
    expect(asText.body.data?.content).toContain('has no option `__proto__`');
    const typo = await askWith(
      '{"name":"limt","type":4,"value":2},{"name":"constructor","type":3,"value":"y"}',
    );
    expect(typo.body.data?.content).toContain('`limt`, `constructor`');
    expect(endpoint.logger.events.filter((event) => event.level === 'error')).toEqual([]);
  });

  it('answers a button whose custom_id is not a string plainly, as a button that no longer works', async () => {
    endpoint = await startEndpoint();
    const message = userMessage('600000000000000001', 'an answer', botUser);
    for (const customId of [12345, null, { prefix: 'ask' }, ['ask', 'more']]) {
      const raw = {
        ...button(message, 'ask:more:1:1', member),
        data: { custom_id: customId, component_type: 2 },
      };
      const body = JSON.stringify(raw);
      const reply = await send(endpoint.url, { headers: endpoint.discord.headersFor(body), body });
      expect(reply.status, reply.text).toBe(200);
      const parsed = JSON.parse(reply.text) as { type: number; data?: { content?: string; flags?: number } };
      expect(parsed.type).toBe(4);
      expect(parsed.data?.flags).toBe(64);
      expect(parsed.data?.content).toBe('This button no longer works; run the command again.');
    }
    expect(endpoint.logger.events.filter((event) => event.level === 'error')).toEqual([]);
  });
});
