import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import { ids } from '../support/stand-in-discord/fixtures.ts';
import { button, chatInput } from '../support/stand-in-discord/interactions.ts';
import { customIdsOf, type Harness, member, moderator, startHarness } from './harness.ts';

const TETEGHEM = 'teteghem-mayor-threatened-with-gun';

const isFinalReload = (data: Record<string, unknown>) =>
  !String(data.content ?? '').startsWith('Reloading the corpus');

describe('GIVEN the bot with its community database, and a public answer citing an article', () => {
  let harness: Harness;
  let root: string;
  let article: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'newsdesk-corrections-'));
    await cp('corpus', join(root, 'corpus'), { recursive: true });
    article = join(root, 'corpus', `${TETEGHEM}.md`);
    harness = await startHarness({
      corpusPath: join(root, 'corpus'),
      env: { DATA_DIR: join(root, 'data'), MODERATOR_ROLE_IDS: ids.moderatorRole },
    });
  });

  afterAll(async () => {
    await harness?.stop();
    await rm(root, { recursive: true, force: true });
  });

  const reload = () =>
    harness.discord
      .interact(chatInput('reload', {}, moderator))
      .final({ until: isFinalReload, timeoutMs: 30_000 });
  /** The bot's replies to `messageId`, as Discord stored them. */
  const repliesTo = (messageId: string): APIMessage[] =>
    [...harness.discord.messages.values()].filter(
      (message) => message.message_reference?.message_id === messageId,
    );
  const waitForReplies = async (messageId: string, count: number): Promise<APIMessage[]> => {
    await until(() => repliesTo(messageId).length >= count);
    return repliesTo(messageId);
  };

  it('a private answer is not followed: a reply in the channel would make it public', async () => {
    const raw = chatInput(
      'ask',
      { question: 'Who threatened the mayor of Teteghem?', private: true },
      member,
    );
    const { data } = await harness.discord.interact(raw).final();
    expect(String(data.content ?? '') + JSON.stringify(data.embeds)).toContain(TETEGHEM);
    // What an answer cites is written before its reply goes out: nothing was, for this one.
    expect(harness.community?.citations.awaitsMessage(raw.id)).toBe(false);
    expect(harness.community?.citations.due(new Date(0))).toEqual([]);
  });

  it('an edit of a cited paragraph is replied to once, with the word diff and the citation; a reload that changes nothing sends nothing; the article removed says so', async () => {
    const ask = harness.discord.interact(
      chatInput('ask', { question: 'Who threatened the mayor of Teteghem?' }, member),
    );
    const answered = await ask.final();
    const answer = ask.message as APIMessage;
    // The gateway reply said which message it created (the bot reads it just after Discord has it).
    await until(() => harness.community?.citations.isFollowed(answer.id) === true);
    expect(harness.community?.citations.isFollowed(answer.id)).toBe(true);
    const cited = () => harness.community!.citations.due(new Date(0)).map((row) => row.citation);
    expect(cited()[0]).toBe(`${TETEGHEM}#2`);
    // "More results" shows other paragraphs on the same message: they are followed too.
    const firstPage = cited();
    const more = customIdsOf(answered.data).find((id) => id.startsWith('ask:more:'));
    expect(more).toBeDefined();
    await harness.discord.interact(button(answer, String(more), member)).final();
    await until(() => cited().length > firstPage.length);
    expect(cited().slice(0, firstPage.length)).toEqual(firstPage);
    expect(cited().length).toBeGreaterThan(firstPage.length);

    await writeFile(
      article,
      (await readFile(article, 'utf8')).replace('showed him a gun', 'showed him a knife'),
    );
    await reload();
    const [correction, ...others] = await waitForReplies(answer.id, 1);
    expect(others).toEqual([]);
    expect(correction?.channel_id).toBe(ids.channel);
    const content = String(correction?.content);
    expect(content).toContain(
      `the paragraph this answer cited, \`${TETEGHEM}#2\`, has changed in the coverage`,
    );
    expect(content).toContain('~~gun~~ __knife__');
    // The new citation: where the paragraph is now, with its article's title.
    expect(content).toContain(`cite \`${TETEGHEM}#2\``);
    expect(content).toContain("*French mayor says he was threatened with a gun by 'English mafia'");
    const posted = harness.discord.requests.find(
      (request) =>
        request.route === `/channels/${ids.channel}/messages` &&
        (request.body as { message_reference?: { message_id?: string } }).message_reference?.message_id ===
          answer.id,
    );
    expect(posted?.body).toMatchObject({ allowed_mentions: { parse: [] } });
    expect(payloadViolations(posted?.body as Record<string, unknown>)).toEqual([]);

    // Nothing changed: nothing more is sent (checks run in order, so the next reply proves this one ran).
    await reload();
    await rm(article);
    await reload();
    const replies = await waitForReplies(answer.id, 2);
    expect(replies).toHaveLength(2);
    const removal = String(replies[1]?.content);
    expect(removal).toMatch(/`teteghem-mayor-threatened-with-gun#\d+`, has been removed from the coverage/);
    // The paragraph already corrected is not told again.
    expect(removal).not.toContain(`\`${TETEGHEM}#2\``);
  }, 180_000);
});

/** Waits up to 30 s for `condition`; the assertion after it says what was expected. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}
