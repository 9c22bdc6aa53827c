import { setTimeout as sleep } from 'node:timers/promises';
import { SlashCommandBuilder } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AnyCommand } from '../../../src/interactions/command.ts';
import { ids, userMessage } from '../../support/stand-in-discord/fixtures.ts';
import { autocomplete, button, chatInput } from '../../support/stand-in-discord/interactions.ts';
import { startEndpoint, type TestEndpoint } from './support/endpoint.ts';
import { send } from './support/http-client.ts';
import { StandInWebhooks } from './support/stand-in-webhooks.ts';

/** A command whose every part is slower than the endpoint's acknowledgement deadline in this test. */
const slow: AnyCommand = {
  data: new SlashCommandBuilder()
    .setName('slow')
    .setDescription('Takes its time')
    .addStringOption((o) => o.setName('topic').setDescription('Anything').setAutocomplete(true)),
  options: z.object({ topic: z.string().optional() }),
  async execute() {
    await sleep(300);
    return { content: 'Finally, the answer.' };
  },
  async autocomplete() {
    await sleep(300);
    return [{ name: 'Too late', value: 'late' }];
  },
  buttons: {
    'slow:apply': {
      defer: 'always',
      async execute(_ctx, _args, _press, progress) {
        progress({ content: 'Applying @everyone…' });
        await sleep(300);
        return { update: { content: 'Applied.', components: [] } };
      },
    },
  },
};

const reader = { userId: '500000000000000001' };
const botAuthor = { id: ids.bot, username: 'newsdesk', discriminator: '0', global_name: null, avatar: null };

describe('GIVEN handlers slower than the endpoint’s acknowledgement deadline', () => {
  const webhooks = new StandInWebhooks();
  let endpoint: TestEndpoint;

  beforeAll(async () => {
    await webhooks.start();
    endpoint = await startEndpoint({
      commands: [slow],
      env: { DISCORD_API_BASE: webhooks.apiBase },
      server: { acknowledgeAfterMs: 50 },
    });
  });
  afterAll(async () => {
    await endpoint.close();
    await webhooks.stop();
  });

  const interact = async (raw: object): Promise<unknown> => {
    const body = JSON.stringify(raw);
    const reply = await send(endpoint.url, { headers: endpoint.discord.headersFor(body), body });
    expect(reply.status).toBe(200);
    return JSON.parse(reply.text);
  };

  it('THEN a slow command is deferred for it, and its answer replaces the placeholder by webhook', async () => {
    const raw = chatInput('slow', {}, reader);
    expect(await interact(raw)).toEqual({ type: 5, data: {} });
    const [call] = await webhooks.received(1);
    expect(call).toEqual({
      method: 'PATCH',
      path: `/api/v10/webhooks/${ids.application}/${raw.token}/messages/@original`,
      body: { content: 'Finally, the answer.', allowed_mentions: { parse: [] } },
    });
  });

  it('THEN a button that always defers is acknowledged with a deferred update, and its outcome edits the message by webhook', async () => {
    const before = webhooks.calls.length;
    const raw = button(userMessage('600000000000000002', 'Confirm?', botAuthor), 'slow:apply', reader);
    expect(await interact(raw)).toEqual({ type: 6 });
    const calls = (await webhooks.received(before + 2)).slice(before);
    const original = `/api/v10/webhooks/${ids.application}/${raw.token}/messages/@original`;
    expect(calls).toEqual([
      {
        method: 'PATCH',
        path: original,
        body: { content: 'Applying @everyone…', allowed_mentions: { parse: [] } },
      },
      {
        method: 'PATCH',
        path: original,
        body: { content: 'Applied.', components: [], allowed_mentions: { parse: [] } },
      },
    ]);
  });

  it('THEN a slow autocomplete is answered with no choices rather than failing', async () => {
    expect(await interact(autocomplete('slow', { topic: 'x' }, 'topic', reader))).toEqual({
      type: 8,
      data: { choices: [] },
    });
  });

  it('THEN an interaction the bot does not handle (a user select menu) gets a private note', async () => {
    const menu = {
      ...button(
        userMessage('600000000000000001', 'menu', {
          id: ids.bot,
          username: 'newsdesk',
          discriminator: '0',
          global_name: null,
          avatar: null,
        }),
        'pick',
        reader,
      ),
      // String selects are the bot's ("Which story?"); a user select is not.
      data: { custom_id: 'pick', component_type: 5, values: [reader.userId] },
    };
    expect(await interact(menu)).toEqual({
      type: 4,
      data: {
        content: 'Newsdesk does not handle this kind of interaction.',
        flags: 64,
        allowed_mentions: { parse: [] },
      },
    });
  });
});
