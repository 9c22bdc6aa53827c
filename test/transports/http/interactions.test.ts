import type { APIEmbed, APIInteraction, APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botUser, ids, member, userMessage } from '../../support/stand-in-discord/fixtures.ts';
import {
  autocomplete,
  button,
  chatInput,
  messageCommand,
  modalSubmit,
} from '../../support/stand-in-discord/interactions.ts';
import { startEndpoint, type TestEndpoint } from './support/endpoint.ts';
import { send } from './support/http-client.ts';
import { StandInWebhooks } from './support/stand-in-webhooks.ts';

/** What the endpoint answered in its HTTP response, parsed. */
interface CallbackBody {
  type: number;
  data?: {
    content?: string;
    flags?: number;
    embeds?: APIEmbed[];
    components?: { components: { custom_id?: string }[] }[];
    allowed_mentions?: { parse: string[] };
    choices?: { name: string; value: string }[];
  };
}

const reader = { userId: '500000000000000001', roles: [ids.memberRole] };
const editor = { userId: '500000000000000002', roles: [ids.moderatorRole] };

describe('GIVEN the endpoint serving the bundled corpus with the bot’s commands', () => {
  const webhooks = new StandInWebhooks();
  let endpoint: TestEndpoint;

  beforeAll(async () => {
    await webhooks.start();
    endpoint = await startEndpoint({
      env: { DISCORD_API_BASE: webhooks.apiBase, MODERATOR_ROLE_IDS: ids.moderatorRole },
    });
  });
  afterAll(async () => {
    await endpoint.close();
    await webhooks.stop();
  });

  /** Signs the interaction as Discord would, posts it, and returns the HTTP response body. */
  const interact = async (raw: APIInteraction): Promise<CallbackBody> => {
    const body = JSON.stringify(raw);
    const reply = await send(endpoint.url, { headers: endpoint.discord.headersFor(body), body });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers['content-type']).toContain('application/json');
    return JSON.parse(reply.text) as CallbackBody;
  };
  const everyText = (body: CallbackBody): string =>
    [
      body.data?.content ?? '',
      ...(body.data?.embeds ?? []).map((embed) => `${embed.title}\n${embed.description}`),
    ].join('\n');
  const customIds = (body: CallbackBody): string[] =>
    (body.data?.components ?? []).flatMap((row) =>
      row.components.map((component) => component.custom_id ?? ''),
    );
  /** The message Discord would hold after the bot's reply, for pressing its buttons. */
  const postedMessage = (body: CallbackBody): APIMessage => ({
    ...userMessage('600000000000000001', body.data?.content ?? '', botUser),
    embeds: body.data?.embeds ?? [],
    components: (body.data?.components ?? []) as APIMessage['components'],
  });

  let askReply: CallbackBody;

  it('WHEN a member runs /ask THEN the answer comes back in the HTTP response, quoted, cited and pinging no one', async () => {
    askReply = await interact(
      chatInput('ask', { question: 'who threatened the mayor of Teteghem?' }, reader),
    );
    expect(askReply.type).toBe(4);
    expect(askReply.data?.allowed_mentions).toEqual({ parse: [] });
    expect(askReply.data?.flags ?? 0).toBe(0);
    const text = everyText(askReply);
    expect(text).toContain('cite `teteghem-mayor-threatened-with-gun#2`');
    expect(text).toContain('smugglers barred him from entering the camp');
    expect(customIds(askReply)).toContain('ask:ctx:teteghem-mayor-threatened-with-gun#2');
    expect(webhooks.calls).toEqual([]);
  });

  it('WHEN a member presses Follow up and submits the modal THEN the follow-up is answered from that story', async () => {
    const followUp = customIds(askReply).find((id) => id.startsWith('ask:followup:'));
    expect(followUp).toBe('ask:followup:teteghem-mayor-threatened-with-gun#2');
    const modal = (await interact(button(postedMessage(askReply), followUp!, reader))) as {
      type: number;
      data: { custom_id: string };
    };
    expect(modal.type).toBe(9);
    expect(modal.data.custom_id).toBe('followup:teteghem-mayor-threatened-with-gun#2');
    const answer = await interact(
      modalSubmit(
        postedMessage(askReply),
        modal.data.custom_id,
        { question: 'what did they threaten to do to the reporter?' },
        reader,
      ),
    );
    expect(answer.type).toBe(4);
    expect(answer.data?.content).toMatch(/^Assuming you mean: \*French mayor says he was threatened/);
    expect(everyText(answer).replace(/\*\*/g, '')).toContain('threatened to rape the reporter');
  });

  it('WHEN a member types in /ask’s source option THEN autocomplete answers with matching articles', async () => {
    const reply = await interact(
      autocomplete('ask', { question: 'mayor', source: 'calais' }, 'source', reader),
    );
    expect(reply.type).toBe(8);
    const values = reply.data?.choices?.map((choice) => choice.value) ?? [];
    expect(values).toContain('calais-mayor-threatens-to-open-borders');
    expect(values).not.toContain('teteghem-mayor-threatened-with-gun');
    for (const choice of reply.data?.choices ?? []) expect(choice.name.length).toBeLessThanOrEqual(100);
  });

  it('WHEN a member presses "Show context" THEN the surrounding paragraphs come back privately', async () => {
    const reply = await interact(
      button(postedMessage(askReply), 'ask:ctx:teteghem-mayor-threatened-with-gun#2', reader),
    );
    expect(reply.type).toBe(4);
    expect(reply.data?.flags).toBe(64);
    expect(reply.data?.allowed_mentions).toEqual({ parse: [] });
    expect(everyText(reply)).toContain('smugglers barred him from entering the camp');
  });

  it('WHEN a member presses "More results" THEN the message is updated in place with the next page', async () => {
    const more = customIds(askReply).find((id) => id.startsWith('ask:more:'));
    expect(more).toBeDefined();
    const reply = await interact(button(postedMessage(askReply), more ?? '', reader));
    expect(reply.type).toBe(7);
    expect(reply.data?.allowed_mentions).toEqual({ parse: [] });
    expect(everyText(reply)).not.toContain('cite `teteghem-mayor-threatened-with-gun#2`');
  });

  it('WHEN a member runs "Find coverage" on a message THEN matching coverage comes back privately', async () => {
    const claim = userMessage(
      '600000000000000002',
      'Smugglers showed the mayor of Teteghem a gun!',
      member('500000000000000003'),
    );
    const reply = await interact(messageCommand('Find coverage', claim, reader));
    expect(reply.type).toBe(4);
    expect(reply.data?.flags).toBe(64);
    expect(reply.data?.allowed_mentions).toEqual({ parse: [] });
    expect(everyText(reply)).toContain('teteghem-mayor-threatened-with-gun');
  });

  it('WHEN a member who is not a moderator runs /reload THEN it is refused privately and nothing is reloaded', async () => {
    const before = endpoint.library.engine;
    const reply = await interact(chatInput('reload', {}, reader));
    expect(reply.type).toBe(4);
    expect(reply.data?.flags).toBe(64);
    expect(reply.data?.content).toMatch(/Only moderators/);
    expect(endpoint.library.engine).toBe(before);
  });

  it('WHEN a moderator runs /reload THEN it is deferred in the HTTP response and the result arrives by webhook PATCH', async () => {
    webhooks.calls.length = 0;
    const raw = chatInput('reload', {}, editor);
    const reply = await interact(raw);
    expect(reply).toEqual({ type: 5, data: { flags: 64 } });
    const original = `/api/v10/webhooks/${ids.application}/${raw.token}/messages/@original`;
    // Progress edits may come first; the last PATCH carries the outcome.
    await expect
      .poll(() => webhooks.calls.filter((call) => call.method === 'PATCH').length, { timeout: 15_000 })
      .toBeGreaterThan(0);
    await expect
      .poll(() => JSON.stringify(webhooks.calls.at(-1)?.body ?? ''), { timeout: 15_000 })
      .toMatch(/corpus on disk is unchanged: still 3 articles/);
    for (const call of webhooks.calls) {
      expect(call.method).toBe('PATCH');
      expect(call.path).toBe(original);
      expect(call.body).toMatchObject({ allowed_mentions: { parse: [] } });
    }
  });

  it('THEN /metrics counts requests by command and outcome, and /healthz names the corpus version', async () => {
    const metrics = await send(`${endpoint.base}/metrics`, { method: 'GET' });
    expect(metrics.text).toMatch(/newsdesk_http_requests_total\{command="ask",outcome="answered"\} 2/);
    expect(metrics.text).toMatch(/newsdesk_http_requests_total\{command="reload",outcome="refused"\} 1/);
    expect(metrics.text).toMatch(/newsdesk_http_request_duration_seconds_count\{command="ask"\} 2/);
    expect(metrics.text).toMatch(/newsdesk_corpus_articles 3\n/);
    const health = await send(`${endpoint.base}/healthz`, { method: 'GET' });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toMatchObject({
      status: 'ok',
      corpus: { version: endpoint.library.engine.version, articles: 3 },
    });
  });
});
