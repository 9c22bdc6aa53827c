import type { APIInteraction, APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payloadViolations } from '../../../src/interactions/render/payload.ts';
import { decodePng } from '../../support/png.ts';
import { ids } from '../../support/stand-in-discord/fixtures.ts';
import { button, chatInput } from '../../support/stand-in-discord/interactions.ts';
import { StandInDiscord } from '../../support/stand-in-discord/server.ts';
import { DATED_CORPUS } from '../../support/temp-corpus.ts';
import { startEndpoint, type TestEndpoint } from './support/endpoint.ts';
import { send } from './support/http-client.ts';

const reader = { userId: '500000000000000001', roles: [ids.memberRole] };
const EPHEMERAL = 64;

describe('GIVEN the HTTP endpoint on the dated fixture, its webhooks going to the stand-in Discord', () => {
  let discord: StandInDiscord;
  let endpoint: TestEndpoint;

  beforeAll(async () => {
    discord = await StandInDiscord.start();
    endpoint = await startEndpoint({ corpus: DATED_CORPUS, env: { DISCORD_API_BASE: discord.apiBase } });
  });
  afterAll(async () => {
    await endpoint?.close();
    await discord?.close();
  });

  /** Sends `raw` as Discord would, and hands the HTTP response to the stand-in as Discord takes it. */
  const interact = async (raw: APIInteraction) => {
    const exchange = discord.expectOverHttp(raw);
    const body = JSON.stringify(raw);
    const reply = await send(endpoint.url, { headers: endpoint.discord.headersFor(body), body });
    expect(reply.status, reply.text).toBe(200);
    discord.answeredOverHttp(raw, JSON.parse(reply.text));
    return exchange;
  };

  it('/timeline is acknowledged, then the original response is edited with the chart uploaded as multipart', async () => {
    const exchange = await interact(chatInput('timeline', { topic: 'Gravelines', private: true }, reader));
    const { type, data, deferred, files } = await exchange.final();
    // An HTTP response cannot carry a file: a deferral (private, as asked), then PATCH @original.
    expect([type, deferred]).toEqual([5, true]);
    expect(exchange.callbacks[0]?.data).toEqual({ flags: EPHEMERAL });
    const edit = discord.requests.find((request) => request.method === 'PATCH' && request.files.length > 0);
    expect(edit?.route).toMatch(/^\/webhooks\/\d+\/[^/]+\/messages\/@original$/);
    expect(
      payloadViolations({ ...data, files: files.map((f) => ({ name: f.filename, data: f.data })) }),
    ).toEqual([]);
    expect(data.attachments).toEqual([
      { id: '0', filename: 'timeline.png', description: expect.stringMatching(/\(9 in all\)/) },
    ]);
    expect(files.map((f) => [f.index, f.filename, f.contentType])).toEqual([
      [0, 'timeline.png', 'image/png'],
    ]);
    const png = await decodePng(files[0]!.data);
    expect([png.width, png.height]).toEqual([800, 400]);
    const message = exchange.message as APIMessage;
    expect(message.attachments.map((a) => [a.filename, a.width, a.height])).toEqual([
      ['timeline.png', 800, 400],
    ]);
  });

  it('a page button gets a deferred update, then the same multipart edit of its message', async () => {
    const first = await interact(chatInput('timeline', { topic: 'Gravelines' }, reader));
    await first.final();
    const message = first.message as APIMessage;
    const press = await interact(button(message, 'timeline:page:1', reader));
    const { type, data, files } = await press.final();
    expect(type).toBe(6);
    expect(String((data.embeds as { footer: { text: string } }[])[0]?.footer.text)).toContain('Page 2 of 2');
    expect(files.map((f) => f.filename)).toEqual(['timeline.png']);
    expect(discord.messages.get(message.id)?.attachments.map((a) => a.filename)).toEqual(['timeline.png']);
  });

  it('nothing dated: the plain reply as the HTTP response, saying there is nothing to draw', async () => {
    const raw = chatInput('timeline', { topic: 'ferries' }, reader);
    const exchange = await interact(raw);
    const { type, data, files } = await exchange.final();
    expect(type).toBe(4);
    expect(files).toEqual([]);
    expect(String(data.content)).toContain(
      'No chart: none of these articles is dated, so there is nothing to draw.',
    );
  });
});
