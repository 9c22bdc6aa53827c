import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import { ids } from '../support/stand-in-discord/fixtures.ts';
import {
  button,
  chatInput,
  chatInputSubcommand,
  modalSubmit,
} from '../support/stand-in-discord/interactions.ts';
import { customIdsOf, type Harness, member, moderator, startHarness, textOf } from './harness.ts';

const TETEGHEM = 'teteghem-mayor-threatened-with-gun';
const HEADLINE =
  "French mayor says he was threatened with a gun by 'English mafia' smuggling migrants into Britain";

/** An answer of the first bot below, followed up later by another bot process. */
let earlierBotsAnswer: { message: APIMessage; citation: string } | undefined;

describe('GIVEN the bot on the bundled corpus, WHEN a member follows up an answer through its modal', () => {
  let harness: Harness;
  let answer: APIMessage;
  let citation: string;

  beforeAll(async () => {
    harness = await startHarness({ env: { RATE_LIMIT_QUESTIONS: '100' } });
    const asked = harness.discord.interact(
      chatInput('ask', { question: 'who pulled a gun on the teteghem mayor?' }, member),
    );
    await asked.final();
    answer = asked.message as APIMessage;
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it('a public answer carries "Follow up", naming its first result', () => {
    const followUp = customIdsOf(answer as unknown as Record<string, unknown>).find((id) =>
      id.startsWith('ask:followup:'),
    );
    expect(followUp).toBeDefined();
    citation = followUp!.slice('ask:followup:'.length);
    expect(citation.startsWith(`${TETEGHEM}#`)).toBe(true);
    earlierBotsAnswer = { message: answer, citation };
  });

  it('"Follow up" opens a modal with one text field, the story named, its custom_id carrying the story', async () => {
    const { type, data } = await harness.discord
      .interact(button(answer, `ask:followup:${citation}`, member))
      .final();
    expect(type).toBe(9);
    expect(data.custom_id).toBe(`followup:${citation}`);
    expect(data.title).toBe('Follow up');
    const [label] = data.components as {
      type: number;
      description: string;
      component: { type: number; custom_id: string };
    }[];
    expect(label!.type).toBe(18);
    expect(label!.component).toMatchObject({ type: 4, custom_id: 'question' });
    expect(label!.description).toContain('French mayor says he was threatened');
  });

  it('the submitted follow-up ("they", "him") is answered from the earlier story, saying which story it assumed', async () => {
    const submitted = harness.discord.interact(
      modalSubmit(
        answer,
        `followup:${citation}`,
        { question: 'what did they threaten to do to the reporter with him?' },
        member,
      ),
    );
    const { type, data } = await submitted.final();
    expect(type).toBe(4);
    expect(payloadViolations(data)).toEqual([]);
    const text = textOf(data).replace(/\*\*/g, '');
    expect(String(data.content)).toMatch(/^Assuming you mean: \*French mayor says he was threatened/);
    expect(String(data.content)).toContain('(publisher unknown)');
    expect(text).toContain('threatened to rape the reporter');
    expect(text).toContain(`cite \`${TETEGHEM}#`);
    expect(text).toContain('Asked: what did they threaten to do to the reporter with him?');
    expect(text).toContain(`Source: ${TETEGHEM}`);
    const ids = customIdsOf(data);
    expect(ids).toContain(`ask:nostory:${'what did they threaten to do to the reporter with him?'.length}`);
    // The follow-up's own answer can be followed up in turn, and its asker may dismiss it.
    expect(ids.some((id) => id.startsWith(`ask:followup:${TETEGHEM}#`))).toBe(true);
    expect(ids).toContain(`ask:dismiss:${member.userId}`);

    // "Ask without that story": the same follow-up over the whole archive, replacing the message.
    const followUpAnswer = submitted.message as APIMessage;
    const without = await harness.discord
      .interact(button(followUpAnswer, ids.find((id) => id.startsWith('ask:nostory:'))!, member))
      .final();
    expect(without.type).toBe(7);
    expect(String(without.data.content)).not.toContain('Assuming you mean');
    expect(textOf(without.data)).toContain('Asked: what did they threaten to do to the reporter with him?');
    expect(textOf(without.data)).not.toContain('Source:');
  });

  it("a follow-up the story holds no word of is asked of the archive with the story's names, and says so", async () => {
    const submitted = harness.discord.interact(
      modalSubmit(answer, `followup:${citation}`, { question: 'and on the dogs?' }, member),
    );
    const { data } = await submitted.final();
    expect(String(data.content)).toContain(`Assuming you mean: *${HEADLINE.slice(0, 40)}`);
    expect(String(data.content)).toContain('That story does not say; from the rest of the archive:');
    expect(textOf(data)).toMatch(/Asked: and on the dogs\? .*Franck Dhersin/);
    // Asked without the story (and its names), the follow-up finds the £1 million of dog searching.
    const without = await harness.discord
      .interact(button(submitted.message as APIMessage, 'ask:nostory:16', member))
      .final();
    expect(textOf(without.data)).toContain('Asked: and on the dogs?\n');
    expect(textOf(without.data).replace(/\*\*/g, '')).toContain('dog searching');
  });

  it('an empty follow-up is refused in plain words, privately', async () => {
    const { data } = await harness.discord
      .interact(modalSubmit(answer, `followup:${citation}`, { question: '   ' }, member))
      .final();
    expect(data.flags).toBe(64);
    expect(String(data.content)).toBe('Write a follow-up question of 1 to 300 characters.');
  });
});

describe('GIVEN a moderator has turned thread mode on for the channel with /settings', () => {
  let harness: Harness;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'newsdesk-threads-'));
    harness = await startHarness({
      env: {
        DATA_DIR: join(root, 'data'),
        MODERATOR_ROLE_IDS: ids.moderatorRole,
        RATE_LIMIT_QUESTIONS: '100',
      },
    });
    const { data } = await harness.discord
      .interact(chatInputSubcommand('settings', 'thread-mode', { on: true }, moderator))
      .final();
    expect(String(data.content)).toBe(`Thread mode is now on in <#${ids.channel}>.`);
  });

  afterAll(async () => {
    await harness?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("an answer opens a thread, and /ask in that thread follows the thread's answers", async () => {
    const question = 'What does Franck Dhersin call the smugglers?';
    const asked = harness.discord.interact(chatInput('ask', { question }, member));
    await asked.final();
    const answer = asked.message as APIMessage;
    await waitFor(() => harness.discord.threads.has(answer.id));
    const thread = harness.discord.threads.get(answer.id)!;
    expect(thread).toMatchObject({ type: 11, parent_id: ids.channel, name: question });

    // In the thread, "they" is the smugglers of the answer the thread was opened on.
    const inThread = harness.discord.interact(
      chatInput('ask', { question: 'how long have they been in the region?' }, member, {
        threadId: thread.id,
      }),
    );
    const { data } = await inThread.final();
    expect(String(data.content)).toMatch(/^Assuming you mean: \*French mayor says he was threatened/);
    expect(textOf(data).replace(/\*\*/g, '')).toContain('for years');
    expect((inThread.message as APIMessage).channel_id).toBe(thread.id);
    // The bot read the thread's messages through the REST API, and opened no thread inside the thread.
    expect(
      harness.discord.requests.some(
        (request) => request.method === 'GET' && request.route === `/channels/${thread.id}/messages`,
      ),
    ).toBe(true);
    expect(harness.discord.threads.size).toBe(1);

    // A later question follows the thread's latest answer: its own follow-up, still the Teteghem story.
    const next = await harness.discord
      .interact(chatInput('ask', { question: 'what did they show him?' }, member, { threadId: thread.id }))
      .final();
    expect(String(next.data.content)).toMatch(/^Assuming you mean: \*French mayor says he was threatened/);
    expect(textOf(next.data).replace(/\*\*/g, '')).toContain('showed him a gun');
  });

  it('a follow-up of an answer another bot process gave (a restart, another replica) is answered from the message alone', async () => {
    const { message, citation } = earlierBotsAnswer!;
    const { data } = await harness.discord
      .interact(
        modalSubmit(
          message,
          `followup:${citation}`,
          { question: 'what did they threaten to do to the reporter with him?' },
          member,
        ),
      )
      .final();
    expect(String(data.content)).toMatch(/^Assuming you mean: \*French mayor says he was threatened/);
    expect(textOf(data).replace(/\*\*/g, '')).toContain('threatened to rape the reporter');
  });

  it('an answer in a channel without thread mode opens no thread', async () => {
    await harness.discord
      .interact(chatInputSubcommand('settings', 'thread-mode', { on: false }, moderator))
      .final();
    const asked = harness.discord.interact(
      chatInput('ask', { question: 'Who is the mayor of Calais?' }, member),
    );
    await asked.final();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(harness.discord.threads.has((asked.message as APIMessage).id)).toBe(false);
  });
});

async function waitFor(test: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error('waited in vain');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
