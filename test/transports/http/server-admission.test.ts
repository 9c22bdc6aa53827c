import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndpoint, type TestEndpoint } from './support/endpoint.ts';
import { send } from './support/http-client.ts';
import { nowSeconds, Signer } from './support/signer.ts';

/** Requests that must be refused before any command runs: each is a way Discord's probes or an attacker may try. */
describe('GIVEN the interactions endpoint and requests it must refuse', () => {
  let endpoint: TestEndpoint;
  let discord: Signer;
  let base = '';
  let url = '';
  beforeAll(async () => {
    // No commands registered: a request that got past the checks would show as an unknown command.
    endpoint = await startEndpoint({ commands: [], server: { maxBodyBytes: 64 * 1024 } });
    ({ discord, base, url } = endpoint);
  });
  afterAll(() => endpoint.close());

  const ping = (id = String(Math.random()).slice(2)): string =>
    JSON.stringify({ id, type: 1, application_id: '1234567890' });
  const slashAsk = JSON.stringify({
    id: '2222222222',
    type: 2,
    application_id: '1234567890',
    token: 'token-a',
    data: { id: '1', name: 'ask', type: 1, options: [{ name: 'question', type: 3, value: 'who?' }] },
    user: { id: '3333333333', username: 'member' },
  });

  it('THEN a signed PING gets a PONG', async () => {
    const body = ping();
    const reply = await send(url, { headers: discord.headersFor(body), body });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toEqual({ type: 1 });
  });

  it('THEN a made-up signature gets 401', async () => {
    const headers = { ...discord.headersFor(slashAsk), 'x-signature-ed25519': 'ab'.repeat(64) };
    expect((await send(url, { headers, body: slashAsk })).status).toBe(401);
  });

  it('THEN a signature from another key gets 401', async () => {
    const impostor = new Signer();
    expect((await send(url, { headers: impostor.headersFor(slashAsk), body: slashAsk })).status).toBe(401);
  });

  it('THEN the same signed request sent twice is refused the second time', async () => {
    const body = ping();
    const headers = discord.headersFor(body);
    expect((await send(url, { headers, body })).status).toBe(200);
    const replay = await send(url, { headers, body });
    expect(replay.status).toBe(401);
    expect(replay.text).toContain('already received');
  });

  it('THEN a body changed after signing gets 401', async () => {
    const headers = discord.headersFor(slashAsk);
    const tampered = slashAsk.replace('who?', 'why?');
    expect((await send(url, { headers, body: tampered })).status).toBe(401);
  });

  it('THEN a validly signed request with a timestamp six minutes old or ahead gets 401', async () => {
    for (const offset of [-360, 360]) {
      const body = ping();
      const reply = await send(url, { headers: discord.headersFor(body, nowSeconds(offset)), body });
      expect(reply.status).toBe(401);
      expect(reply.text).toContain('timestamp');
    }
  });

  it('THEN a request without either signature header gets 401', async () => {
    for (const missing of ['x-signature-ed25519', 'x-signature-timestamp']) {
      const headers = discord.headersFor(slashAsk);
      delete headers[missing];
      expect((await send(url, { headers, body: slashAsk })).status).toBe(401);
    }
  });

  it('THEN a request that is not application/json gets 415, signed or not', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
      const body = ping();
      const reply = await send(url, { headers: { ...discord.headersFor(body), 'content-type': type }, body });
      expect(reply.status).toBe(415);
      // Refused on its headers: the body is not read, so the connection is not kept for another request.
      expect(reply.headers.connection).toBe('close');
    }
    const body = ping();
    const headers = discord.headersFor(body);
    delete headers['content-type'];
    expect((await send(url, { headers, body })).status).toBe(415);
  });

  it('THEN a JSON content type with a charset parameter is accepted', async () => {
    const body = ping();
    const headers = { ...discord.headersFor(body), 'content-type': 'application/json; charset=utf-8' };
    expect((await send(url, { headers, body })).status).toBe(200);
  });

  it('THEN a body declared larger than the limit gets 413 and the connection is closed', async () => {
    const huge = Buffer.alloc(8 * 1024 * 1024, 'a');
    const headers = { ...discord.headersFor(huge), 'content-length': String(huge.length) };
    const reply = await send(url, { headers, body: huge });
    expect(reply.status).toBe(413);
    expect(reply.headers.connection).toBe('close');
  });

  it('THEN a chunked body that grows past the limit gets 413', async () => {
    const chunks = Array.from({ length: 40 }, () => Buffer.alloc(4096, 'b'));
    const reply = await send(url, { headers: discord.headersFor(Buffer.concat(chunks)), body: chunks });
    expect(reply.status).toBe(413);
  });

  it('THEN malformed JSON or JSON that is not an interaction gets 400, even correctly signed', async () => {
    for (const body of ['{"type":1,', 'null', '[1]', '{"type":"1","id":"1"}', '{"id":"1","type":2}']) {
      const reply = await send(url, { headers: discord.headersFor(body), body });
      expect(reply.status, body).toBe(400);
    }
  });

  it('THEN a GET on /interactions gets 405 naming POST, and an unknown path gets 404', async () => {
    const get = await send(url, { method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect(
      (await send(`${base}/interactions/extra`, { headers: discord.headersFor(ping()), body: ping() }))
        .status,
    ).toBe(404);
  });

  it('THEN none of them reached the commands, and /metrics counts each refusal by outcome', async () => {
    // Refusals are logged at debug level only; anything else would mean a request got further.
    const others = endpoint.logger.events.filter((event) => event.message !== 'request refused');
    expect(others).toEqual([]);
    expect(new Set(endpoint.logger.events.map((event) => event.level))).toEqual(new Set(['debug']));
    const metrics = await send(`${base}/metrics`, { method: 'GET' });
    expect(metrics.status).toBe(200);
    expect(metrics.headers['content-type']).toContain('text/plain; version=0.0.4');
    for (const outcome of [
      'unauthorized',
      'replayed',
      'stale',
      'unsupported_media_type',
      'too_large',
      'bad_request',
    ]) {
      expect(metrics.text).toMatch(
        new RegExp(`newsdesk_http_requests_total\\{command="none",outcome="${outcome}"\\} [1-9]`),
      );
    }
    expect(metrics.text).toMatch(/newsdesk_http_requests_total\{command="ping",outcome="answered"\} [1-9]/);
    const counted = metrics.text
      .split('\n')
      .filter((line) => line.startsWith('newsdesk_http_requests_total{'));
    for (const line of counted) expect(line).toMatch(/^newsdesk_http_requests_total\{command="(none|ping)"/);
  });
});
