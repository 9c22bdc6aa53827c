import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { questionHash } from '../../src/community/community-store.ts';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import { ids } from '../support/stand-in-discord/fixtures.ts';
import { button, chatInput, type Sender } from '../support/stand-in-discord/interactions.ts';
import type { RecordedRequest } from '../support/stand-in-discord/server.ts';
import { LIGHTHOUSE } from '../support/temp-corpus.ts';
import { customIdsOf, type Harness, member, moderator, startHarness, textOf } from './harness.ts';

const EPHEMERAL = 64;
const TETEGHEM = 'teteghem-mayor-threatened-with-gun';
const WATCHED = 'Who rescued the kayakers off Gravelines?';
/** Another member, who watches nothing and must not be pinged. */
const bystander: Sender = { userId: '800000000000000009', roles: [ids.memberRole] };

const isFinalReload = (data: Record<string, unknown>) =>
  !String(data.content ?? '').startsWith('Reloading the corpus');

describe('GIVEN the bot with its community database, on a corpus folder moderators can reload', () => {
  let harness: Harness;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'newsdesk-community-'));
    await cp('corpus', join(root, 'corpus'), { recursive: true });
    harness = await startHarness({
      corpusPath: join(root, 'corpus'),
      env: {
        DATA_DIR: join(root, 'data'),
        MODERATOR_ROLE_IDS: ids.moderatorRole,
        RATE_LIMIT_QUESTIONS: '100',
      },
    });
  });

  afterAll(async () => {
    await harness?.stop();
    await rm(root, { recursive: true, force: true });
  });

  const send = (interaction: Parameters<Harness['discord']['interact']>[0]) =>
    harness.discord.interact(interaction);
  const channelPosts = (): RecordedRequest[] =>
    harness.discord.requests.filter(
      (request) => request.method === 'POST' && request.route.startsWith('/channels/'),
    );

  it('every /ask answer has Helpful / Not helpful; a member votes once, can change it, and is answered privately', async () => {
    const question = 'Who threatened the mayor of Teteghem?';
    const ask = send(chatInput('ask', { question }, member));
    const { data } = await ask.final();
    const up = `ask:vote:1:${questionHash(question)}:${TETEGHEM}#2`;
    const down = `ask:vote:0:${questionHash(question)}:${TETEGHEM}#2`;
    expect(customIdsOf(data)).toEqual(expect.arrayContaining([up, down]));
    expect(payloadViolations(data)).toEqual([]);
    const message = ask.message as APIMessage;

    const vote = async (customId: string, sender: Sender) => {
      const { data: reply } = await send(button(message, customId, sender)).final();
      expect((reply.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
      return String(reply.content);
    };
    expect(await vote(up, member)).toMatch(/you marked this answer helpful/);
    expect(await vote(up, member)).toMatch(/already marked this answer helpful/);
    expect(await vote(down, member)).toMatch(/Changed: you now mark this answer not helpful/);
    expect(await vote(down, bystander)).toMatch(/you marked this answer not helpful/);

    const [unhelpful] = harness.community!.records.unhelpfulSince(new Date(0), 5);
    expect(unhelpful).toMatchObject({ notHelpful: 2, helpful: 0 });
    expect(unhelpful?.answer).toMatchObject({
      question,
      messageId: message.id,
      channelId: ids.channel,
      guildId: ids.guild,
    });
    expect(unhelpful?.answer.citations.slice(0, 2)).toEqual([`${TETEGHEM}#2`, `${TETEGHEM}#1`]);
  });

  it('a watched question is answered once, in its channel, pinging only the watcher, after a /reload adds the covering article', async () => {
    const ask = send(chatInput('ask', { question: WATCHED }, member));
    const { data } = await ask.final();
    expect(String(data.content)).toMatch(/No coverage found/);
    expect(customIdsOf(data)).toContain('ask:watch');
    const watch = await send(button(ask.message as APIMessage, 'ask:watch', member)).final();
    expect(String(watch.data.content)).toMatch(/^Watching\. When the archive covers this question/);
    expect((watch.data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    // Someone else's question without coverage, not watched: never posted.
    await send(chatInput('ask', { question: 'When does the Dunkirk ferry strike end?' }, bystander)).final();

    // A reload that changes nothing relevant posts nothing.
    await send(chatInput('reload', {}, moderator)).final({ until: isFinalReload, timeoutMs: 20_000 });
    expect(channelPosts()).toEqual([]);

    await writeFile(join(root, 'corpus', 'gravelines-lighthouse-rescue.md'), LIGHTHOUSE);
    const reload = await send(chatInput('reload', {}, moderator)).final({
      until: isFinalReload,
      timeoutMs: 20_000,
    });
    expect(textOf(reload.data)).toContain('gravelines-lighthouse-rescue');
    await waitFor(() => channelPosts().length > 0);

    const [post, ...others] = channelPosts();
    expect(others).toEqual([]);
    expect(post?.route).toBe(`/channels/${ids.channel}/messages`);
    expect(post?.authorization).toBe(`Bot ${harness.discord.token}`);
    const body = post?.body as Record<string, unknown>;
    expect(body.allowed_mentions).toEqual({ parse: [], users: [member.userId] });
    expect(String(body.content)).toMatch(
      new RegExp(`^<@${member.userId}> the archive now covers the question you asked here`),
    );
    expect(String(body.content)).not.toContain(bystander.userId);
    expect(textOf(body)).toMatch(/lighthouse keeper/i);
    expect(textOf(body)).toContain('cite `gravelines-lighthouse-rescue#1`');
    // The watcher's mention is the only live one, and everything else is within Discord's limits.
    const withoutWatcher = String(body.content).replace(`<@${member.userId}>`, '');
    expect(payloadViolations({ ...body, content: withoutWatcher, allowed_mentions: { parse: [] } })).toEqual(
      [],
    );

    // Posted in the channel like an /ask answer, it is followed like one for corrections.
    const posted = [...harness.discord.messages.values()].find((message) =>
      message.content.startsWith(`<@${member.userId}> the archive now covers`),
    );
    await waitFor(() => harness.community?.citations.isFollowed(String(posted?.id)) === true);
    expect(harness.community?.citations.isFollowed(String(posted?.id))).toBe(true);

    // The watch has ended: another reload posts nothing more, and /watches no longer lists it.
    await send(chatInput('reload', {}, moderator)).final({ until: isFinalReload, timeoutMs: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(channelPosts()).toHaveLength(1);
    const list = await send(chatInput('watches', {}, member)).final();
    expect(String(list.data.content)).toMatch(/You are not watching any questions/);
  });

  it('/watches lists a member’s watches, privately, and Cancel ends one', async () => {
    const ask = send(chatInput('ask', { question: 'When will the Gravelines bridge reopen?' }, bystander));
    await ask.final();
    await send(button(ask.message as APIMessage, 'ask:watch', bystander)).final();
    const listing = send(chatInput('watches', {}, bystander));
    const { data } = await listing.final();
    expect((data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    expect(textOf(data)).toContain('When will the Gravelines bridge reopen?');
    const [cancel] = customIdsOf(data);
    expect(cancel).toMatch(/^watches:cancel:\d+$/);
    // Another member cannot cancel it, even with the custom_id.
    const theirs = await send(button(listing.message as APIMessage, cancel!, member)).final();
    expect(textOf(theirs.data)).toMatch(/had already ended/);
    const mine = await send(button(listing.message as APIMessage, cancel!, bystander)).final();
    expect(mine.type).toBe(7);
    expect(textOf(mine.data)).toMatch(/^Cancelled\. You are not watching any questions/);
  });

  it('/gaps shows moderators, privately, the questions without coverage grouped, and the answers voted not helpful', async () => {
    for (const question of ['Gravelines bridge reopening date', 'is the bridge at Gravelines reopened yet'])
      await send(chatInput('ask', { question }, member)).final();
    const refused = await send(chatInput('gaps', {}, member)).final();
    expect(String(refused.data.content)).toMatch(/moderator/i);

    const { data } = await send(chatInput('gaps', { days: 7 }, moderator)).final();
    expect((data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    expect(payloadViolations(data)).toEqual([]);
    const text = textOf(data);
    // Each wording asked once: the most specific one represents the group.
    expect(text).toMatch(
      /\*\*1\.\*\* 3× “Gravelines bridge reopening date”\n {3}about \*gravelines, bridge, reopening, date\* · 3 wordings/,
    );
    expect(text).toMatch(/\*\*\d\.\*\* 1× “Who rescued the kayakers off Gravelines\?”/);
    expect(text).toContain('Answers voted not helpful');
    expect(text).toMatch(/2 not helpful, 0 helpful: “Who threatened the mayor of Teteghem\?”/);
    expect(text).toContain(`\`${TETEGHEM}#2\``);
  });

  it('/about counts the last 7 days: questions answered, without coverage, votes', async () => {
    const { data } = await send(chatInput('about', {}, member)).final();
    expect(textOf(data)).toMatch(
      /Last 7 days\n\d+ questions? answered · [1-9]\d* without coverage · 2 votes/,
    );
  });
});

describe('GIVEN a community database file that cannot be used', () => {
  let harness: Harness;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'newsdesk-community-broken-'));
    await writeFile(join(root, 'newsdesk.sqlite'), 'not a database '.repeat(500));
    harness = await startHarness({ env: { DATA_DIR: root } });
  });

  afterAll(async () => {
    await harness?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('the bot still answers, without buttons that need the database, and /about says nothing is recorded', async () => {
    expect(harness.community).toBeUndefined();
    const { data } = await harness.discord
      .interact(chatInput('ask', { question: 'Who threatened the mayor of Teteghem?' }, member))
      .final();
    expect(textOf(data)).toContain(`cite \`${TETEGHEM}#2\``);
    expect(customIdsOf(data).some((id) => id.startsWith('ask:vote'))).toBe(false);
    const none = await harness.discord.interact(chatInput('ask', { question: WATCHED }, member)).final();
    expect(customIdsOf(none.data)).not.toContain('ask:watch');
    const about = await harness.discord.interact(chatInput('about', {}, member)).final();
    expect(textOf(about.data)).toMatch(/Last 7 days\nNot recorded on this bot\./);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
