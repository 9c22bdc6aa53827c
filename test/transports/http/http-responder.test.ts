import { AllowedMentionsTypes } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpResponder } from '../../../src/transports/http/http-responder.ts';
import { WebhookClient } from '../../../src/transports/http/webhook-client.ts';
import { StandInWebhooks } from './support/stand-in-webhooks.ts';

const APP = '1234567890';
const TOKEN = 'interaction-token';
const ORIGINAL = `/api/v10/webhooks/${APP}/${TOKEN}/messages/@original`;

describe('HttpResponder', () => {
  const webhooks = new StandInWebhooks();
  let webhook: WebhookClient;
  let responses: unknown[];
  let responder: HttpResponder;

  beforeAll(async () => {
    await webhooks.start();
    webhook = new WebhookClient({ apiBase: webhooks.apiBase });
  });
  afterAll(() => webhooks.stop());
  beforeEach(() => {
    webhooks.calls.length = 0;
    responses = [];
    responder = new HttpResponder({
      applicationId: APP,
      token: TOKEN,
      webhook,
      respond: async (body) => {
        responses.push(body);
      },
    });
  });

  it('answers a reply in the HTTP response, with no mentions allowed whatever the payload said', async () => {
    await responder.reply({
      content: '@everyone hi',
      allowed_mentions: { parse: [AllowedMentionsTypes.Everyone] },
    });
    expect(responses).toEqual([
      { type: 4, data: { content: '@everyone hi', allowed_mentions: { parse: [] } } },
    ]);
    expect(webhooks.calls).toEqual([]);
  });

  it('sends a second reply as a follow-up message through the webhook', async () => {
    await responder.reply({ content: 'first' });
    await responder.reply({ content: 'second' });
    expect(webhooks.calls).toEqual([
      {
        method: 'POST',
        path: `/api/v10/webhooks/${APP}/${TOKEN}`,
        body: { content: 'second', allowed_mentions: { parse: [] } },
      },
    ]);
  });

  it('defers privately in the HTTP response and delivers the answer by PATCHing @original', async () => {
    await responder.defer({ ephemeral: true });
    await responder.editReply({ content: 'done', flags: 64 });
    expect(responses).toEqual([{ type: 5, data: { flags: 64 } }]);
    expect(webhooks.calls).toEqual([
      {
        method: 'PATCH',
        path: ORIGINAL,
        body: { content: 'done', flags: 64, allowed_mentions: { parse: [] } },
      },
    ]);
  });

  it('deletes the pressed message ("Dismiss") with a deferred update (type 6), then DELETE @original', async () => {
    await expect(responder.deletePressedMessage()).rejects.toThrow(/before the press was acknowledged/);
    await responder.deferUpdate();
    await responder.deletePressedMessage();
    expect(responses).toEqual([{ type: 6 }]);
    expect(webhooks.calls).toEqual([expect.objectContaining({ method: 'DELETE', path: ORIGINAL })]);
  });

  it('answers a button with an update (type 7) and autocomplete with its choices (type 8)', async () => {
    await responder.update({ content: 'page 2' });
    const other = new HttpResponder({
      applicationId: APP,
      token: TOKEN,
      webhook,
      respond: async (body) => {
        responses.push(body);
      },
    });
    await other.autocomplete([{ name: 'Calais', value: 'calais' }]);
    expect(responses).toEqual([
      { type: 7, data: { content: 'page 2', allowed_mentions: { parse: [] } } },
      { type: 8, data: { choices: [{ name: 'Calais', value: 'calais' }] } },
    ]);
  });

  it('after acknowledging a slow command itself, turns the public answer into an edit of @original', async () => {
    await responder.autoDefer('message');
    await responder.reply({ content: 'late answer' });
    expect(responses).toEqual([{ type: 5, data: {} }]);
    expect(webhooks.calls.map((call) => `${call.method} ${call.path}`)).toEqual([`PATCH ${ORIGINAL}`]);
  });

  it('after acknowledging publicly, sends a private answer privately: deletes the placeholder, follows up, edits that', async () => {
    await responder.autoDefer('message');
    await responder.defer({ ephemeral: true });
    await responder.editReply({ content: 'only for you', flags: 64 });
    await responder.editReply({ content: 'only for you, revised', flags: 64 });
    expect(webhooks.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      `DELETE ${ORIGINAL}`,
      `POST /api/v10/webhooks/${APP}/${TOKEN}`,
      // The stand-in gives every follow-up the id 9999999999; later edits go to that message.
      `PATCH /api/v10/webhooks/${APP}/${TOKEN}/messages/9999999999`,
    ]);
    expect(webhooks.calls[1]?.body).toEqual({
      content: 'only for you',
      flags: 64,
      allowed_mentions: { parse: [] },
    });
  });

  it('acknowledges a slow button with a deferred update, and a slow autocomplete with no choices', async () => {
    await responder.autoDefer('update');
    await responder.update({ content: 'page 3' });
    expect(responses).toEqual([{ type: 6 }]);
    expect(webhooks.calls.map((call) => `${call.method} ${call.path}`)).toEqual([`PATCH ${ORIGINAL}`]);
  });

  it('defers a button press with a deferred update (type 6), then PATCHes @original, the button’s message', async () => {
    await responder.deferUpdate();
    await responder.editReply({
      content: 'Added `harbour`. @here',
      components: [],
      allowed_mentions: { parse: [AllowedMentionsTypes.Everyone] },
    });
    expect(responses).toEqual([{ type: 6 }]);
    expect(webhooks.calls).toEqual([
      {
        method: 'PATCH',
        path: ORIGINAL,
        body: { content: 'Added `harbour`. @here', components: [], allowed_mentions: { parse: [] } },
      },
    ]);
  });

  it('takes a deferred update after its own automatic one as already done, and refuses one after a reply', async () => {
    await responder.autoDefer('update');
    await responder.deferUpdate();
    expect(responses).toEqual([{ type: 6 }]);
    const replied = new HttpResponder({ applicationId: APP, token: TOKEN, webhook, respond: async () => {} });
    await replied.reply({ content: 'answered' });
    await expect(replied.deferUpdate()).rejects.toThrow(/already answered/);
  });

  it('refuses editReply before anything was sent, a caller bug', async () => {
    await expect(responder.editReply({ content: 'x' })).rejects.toThrow(
      /before the interaction was answered/,
    );
  });
});

describe('WebhookClient', () => {
  it('names the status and hides the token when Discord refuses a request', async () => {
    const client = new WebhookClient({
      apiBase: 'http://127.0.0.1:9/api',
      fetch: async () => new Response('{"message":"Unknown Webhook"}', { status: 404 }),
    });
    const failure = client.editOriginal(APP, 'secret-token', { content: 'x' });
    await expect(failure).rejects.toThrow(/HTTP 404.*Unknown Webhook/);
    await expect(failure).rejects.not.toThrow(/secret-token/);
  });

  it('retries after a 429 for as long as Discord asks, then succeeds', async () => {
    let calls = 0;
    const client = new WebhookClient({
      apiBase: 'http://127.0.0.1:9/api',
      fetch: async () => {
        calls += 1;
        return calls === 1
          ? new Response('{"retry_after":0.01}', { status: 429 })
          : new Response('{"id":"1"}', { status: 200 });
      },
    });
    await expect(client.followUp(APP, TOKEN, { content: 'x' })).resolves.toEqual({ id: '1' });
    expect(calls).toBe(2);
  });
});
