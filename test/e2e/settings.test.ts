import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import { ids } from '../support/stand-in-discord/fixtures.ts';
import {
  autocomplete,
  autocompleteGroup,
  button,
  ChannelRef,
  chatInput,
  chatInputGroup,
  chatInputSubcommand,
  type Sender,
} from '../support/stand-in-discord/interactions.ts';
import { DATED_CORPUS } from '../support/temp-corpus.ts';
import { customIdsOf, type Harness, member, moderator, startHarness, textOf } from './harness.ts';

const EPHEMERAL = 64;
/** Another channel of the guild, where the bot is not told to answer once answer channels are listed. */
const GENERAL = '300000000000000002';
/** Another member: not the asker, not a moderator. */
const bystander: Sender = { userId: '800000000000000009', roles: [ids.memberRole] };
const inGeneral = (sender: Sender): Sender => ({ ...sender, channelId: GENERAL });
/** The dated fixtures' Harbour Gazette articles. */
const GAZETTE = new Set(['dock-strike-begins', 'dock-strike-returns', 'port-sale-gazette']);

const isPrivate = (data: Record<string, unknown>) => ((data.flags as number | undefined) ?? 0) & EPHEMERAL;
const citedArticles = (data: Record<string, unknown>) =>
  new Set([...textOf(data).matchAll(/cite `([^`#]+)#/g)].map((match) => match[1]));

describe('GIVEN the bot with its community database on the dated corpus, moderators setting channels up', () => {
  let harness: Harness;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'newsdesk-settings-'));
    harness = await startHarness({
      corpusPath: DATED_CORPUS,
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
  const settings = async (
    subcommand: string,
    options: Record<string, string | boolean | ChannelRef> = {},
    sender: Sender = moderator,
  ) => (await send(chatInputSubcommand('settings', subcommand, options, sender)).final()).data;
  const grouped = async (
    group: string,
    subcommand: string,
    options: Record<string, string | ChannelRef> = {},
    sender: Sender = moderator,
  ) => (await send(chatInputGroup('settings', group, subcommand, options, sender)).final()).data;

  it('/settings is for moderators: a member is refused in plain words, and nothing changes', async () => {
    const refused = await grouped('channels', 'add', { channel: new ChannelRef(ids.channel) }, member);
    expect(isPrivate(refused)).toBeTruthy();
    expect(refused.content).toBe('Only moderators can use `/settings`: it needs a moderator role.');
    // A channel option that is not a channel (a client that ignores the option's type) is refused plainly.
    const notAChannel = await grouped('channels', 'add', { channel: new ChannelRef('general') });
    expect(isPrivate(notAChannel)).toBeTruthy();
    expect(notAChannel.content).toBe(
      '`channel` must be a channel of this server, picked from the list (The channel to answer in).',
    );
    const shown = await settings('show');
    expect(isPrivate(shown)).toBeTruthy();
    expect(textOf(shown)).toContain('Yes: the bot answers in every channel of this server.');
  });

  it('a channel listed to answer in: a question elsewhere gets a private pointer there; everywhere again undoes it', async () => {
    const added = await grouped('channels', 'add', { channel: new ChannelRef(ids.channel) });
    expect(isPrivate(added)).toBeTruthy();
    expect(added.content).toBe(
      `The bot now answers in <#${ids.channel}>; it answers only in <#${ids.channel}>. Questions asked elsewhere get a private pointer here.`,
    );

    const elsewhere = await send(
      chatInput('ask', { question: 'Who bought the terminal?' }, inGeneral(member)),
    ).final();
    expect(isPrivate(elsewhere.data)).toBeTruthy();
    expect(elsewhere.data.content).toBe(
      `I answer questions only in <#${ids.channel}> on this server: ask me there.`,
    );
    expect(elsewhere.data.embeds ?? []).toEqual([]);
    // A moderator is told where that is changed.
    const told = await send(
      chatInput('ask', { question: 'Who bought the terminal?' }, inGeneral(moderator)),
    ).final();
    expect(told.data.content).toContain('Moderators change where with `/settings channels`.');
    // /about still works everywhere, and says so.
    const about = await send(chatInput('about', {}, inGeneral(member))).final();
    expect(textOf(about.data)).toContain(
      `No: the bot answers only in <#${ids.channel}>; questions here get a private pointer there.`,
    );

    const here = await send(chatInput('ask', { question: 'Who bought the terminal?' }, member)).final();
    expect(isPrivate(here.data)).toBeFalsy();
    expect(textOf(here.data)).toContain('cite `port-sale-');

    const notListed = await grouped('channels', 'remove', { channel: new ChannelRef(GENERAL) });
    expect(isPrivate(notListed)).toBeTruthy();
    expect(notListed.content).toBe(`<#${GENERAL}> is not listed; the bot answers only in <#${ids.channel}>.`);

    const everywhere = await grouped('channels', 'everywhere');
    expect(everywhere.content).toBe('The bot now answers in every channel of this server again.');
    const nowAnswered = await send(
      chatInput('ask', { question: 'Who bought the terminal?' }, inGeneral(member)),
    ).final();
    expect(textOf(nowAnswered.data)).toContain('cite `port-sale-');
  });

  it('a channel drawing from one outlet answers only from it, More results and /about included; an unknown outlet is refused', async () => {
    const suggested = await send(
      autocompleteGroup('settings', 'outlets', 'add', { outlet: 'harb' }, 'outlet', moderator),
    ).final();
    expect(suggested.data.choices).toEqual([
      { name: 'Harbour Gazette (3 articles)', value: 'Harbour Gazette' },
    ]);

    const unknown = await grouped('outlets', 'add', { outlet: 'Daily Planet' });
    expect(isPrivate(unknown)).toBeTruthy();
    expect(String(unknown.content)).toMatch(
      /^“Daily Planet” is not an outlet in the archive\. Pick one from the list as you type \(.*Harbour Gazette.*\)\.$/,
    );

    const set = await grouped('outlets', 'add', { outlet: 'harbour gazette' });
    expect(set.content).toBe(`Answers in <#${ids.channel}> now come only from Harbour Gazette.`);
    expect(textOf(set)).toContain('Only Harbour Gazette.');

    const asked = send(chatInput('ask', { question: 'Gravelines dock strike', limit: 1 }, member));
    const { data } = await asked.final();
    expect(payloadViolations(data)).toEqual([]);
    expect(String(data.content)).toBe('One passage answers your question from Harbour Gazette:');
    expect(textOf(data)).toContain('Outlets: Harbour Gazette');
    const seen = citedArticles(data);
    for (let offset = 1; offset < 4; offset += 1) {
      const page = await send(button(asked.message as APIMessage, `ask:more:${offset}:1`, member)).final();
      for (const article of citedArticles(page.data)) seen.add(article);
    }
    expect(seen.size).toBeGreaterThan(1);
    for (const article of seen) expect(GAZETTE).toContain(article);

    // The same question in another channel draws from every outlet.
    const unscoped = await send(
      chatInput('ask', { question: 'Gravelines dock strike', limit: 5 }, inGeneral(member)),
    ).final();
    expect([...citedArticles(unscoped.data)].some((article) => !GAZETTE.has(article as string))).toBe(true);

    const about = await send(chatInput('about', {}, member)).final();
    expect(textOf(about.data)).toContain('Only Harbour Gazette.');

    // A source outside the channel's outlets is refused, not quietly widened.
    const outside = await send(
      chatInput('ask', { question: 'Who bought the terminal?', source: 'Wire' }, member),
    ).final();
    expect(isPrivate(outside.data)).toBeTruthy();
    expect(outside.data.content).toBe(
      'This channel answers only from Harbour Gazette; Wire is not one of them. Leave `source` out, or ask in another channel.',
    );

    const notSet = await grouped('outlets', 'remove', { outlet: 'Wire' });
    expect(notSet.content).toBe(`“Wire” is not one of <#${ids.channel}>’s outlets (Harbour Gazette).`);
    const all = await grouped('outlets', 'all');
    expect(all.content).toBe(`Answers in <#${ids.channel}> now come from every outlet.`);
  });

  it('/ask source: takes an outlet by name as well as an article, and autocomplete offers both', async () => {
    const suggested = await send(
      autocomplete('ask', { question: 'x', source: 'harbour' }, 'source', member),
    ).final();
    const choices = suggested.data.choices as { name: string; value: string }[];
    expect(choices[0]).toEqual({ name: 'Outlet: Harbour Gazette (3 articles)', value: 'Harbour Gazette' });
    expect(choices.map((choice) => choice.value)).toEqual(expect.arrayContaining(['port-sale-gazette']));

    const { data } = await send(
      chatInput('ask', { question: 'who bought the terminal?', source: 'Harbour Gazette' }, member),
    ).final();
    expect(String(data.content)).toMatch(/ from Harbour Gazette:$/);
    for (const article of citedArticles(data)) expect(GAZETTE).toContain(article);

    const refused = await send(
      chatInput('ask', { question: 'who bought the terminal?', source: 'Daily Planet' }, member),
    ).final();
    expect(isPrivate(refused.data)).toBeTruthy();
    expect(refused.data.content).toBe(
      '“Daily Planet” is neither an article nor an outlet in the archive (an article may have been removed by a reload). Pick one from the list as you type, or leave it out.',
    );
  });

  it('private answers by default and thread mode are stored per channel and shown; private: still chooses', async () => {
    const setPrivate = await settings('visibility', { answers: 'private' });
    expect(setPrivate.content).toBe(`Answers in <#${ids.channel}> are now private by default.`);
    const privately = await send(chatInput('ask', { question: 'Who bought the terminal?' }, member)).final();
    expect(isPrivate(privately.data)).toBeTruthy();
    expect(customIdsOf(privately.data).some((id) => id.startsWith('ask:dismiss'))).toBe(false);
    const publicly = await send(
      chatInput('ask', { question: 'Who bought the terminal?', private: false }, member),
    ).final();
    expect(isPrivate(publicly.data)).toBeFalsy();

    const threads = await settings('thread-mode', { on: true });
    expect(threads.content).toBe(`Thread mode is now on in <#${ids.channel}>.`);
    const about = await send(chatInput('about', {}, member)).final();
    expect(textOf(about.data)).toContain('On: an answer opens a thread for follow-ups.');
    expect(textOf(about.data)).toContain('Private by default');
    // Another channel keeps the defaults.
    const other = await settings('show', { channel: new ChannelRef(GENERAL) });
    expect(textOf(other)).toContain('Public by default');

    const reset = await settings('reset');
    expect(reset.content).toBe(`The settings of <#${ids.channel}> are back to the defaults.`);
    expect(textOf(reset)).toContain('Off.');
  });

  it('Dismiss: another member is told only the asker or a moderator can remove it; the asker and a moderator delete it', async () => {
    const ask = send(chatInput('ask', { question: 'Who bought the terminal?' }, member));
    const { data } = await ask.final();
    const dismiss = `ask:dismiss:${member.userId}`;
    expect(customIdsOf(data)).toContain(dismiss);
    const message = ask.message as APIMessage;

    const refused = await send(button(message, dismiss, bystander)).final();
    expect(isPrivate(refused.data)).toBeTruthy();
    expect(refused.data.content).toBe('Only the asker or a moderator can remove this.');
    expect(harness.discord.messages.has(message.id)).toBe(true);

    const removed = send(button(message, dismiss, member));
    expect(await removed.deletion()).toBe(message.id);
    expect(removed.callbacks[0]?.type).toBe(6);
    expect(harness.discord.messages.has(message.id)).toBe(false);

    // A page of an answer keeps its asker's Dismiss, whoever turned it; a moderator may remove it.
    const again = send(chatInput('ask', { question: 'Gravelines dock strike', limit: 1 }, member));
    await again.final();
    const paged = send(button(again.message as APIMessage, 'ask:more:1:1', bystander));
    expect(customIdsOf((await paged.final()).data)).toContain(dismiss);
    const byModerator = send(button(again.message as APIMessage, dismiss, moderator));
    expect(await byModerator.deletion()).toBe((again.message as APIMessage).id);
  });
});
