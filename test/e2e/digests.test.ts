import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import { ids } from '../support/stand-in-discord/fixtures.ts';
import {
  autocomplete,
  button,
  ChannelRef,
  chatInput,
  chatInputSubcommand,
} from '../support/stand-in-discord/interactions.ts';
import { articleText, DATED_CORPUS } from '../support/temp-corpus.ts';
import { customIdsOf, type Harness, member, moderator, startHarness, textOf } from './harness.ts';

const EPHEMERAL = 64;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** 18:00 in Paris on 1 June 2026 (summer time, UTC+2). */
const FIRST_DIGEST = Date.parse('2026-06-01T16:00:00Z');
/** The dated articles served from the start: old coverage for every digest. */
const OLD = ['dock-strike-begins.md', 'dock-strike-returns.md', 'dock-strike-ends.md'];
/** What arrives before the first digest: one story from three outlets, and one from one. */
const NEW = ['port-sale-wire.md', 'port-sale-courier.md', 'port-sale-gazette.md', 'dock-strike-talks.md'];
/** Eight unrelated stories, for a digest longer than one page. */
const SUBJECTS = [
  [
    'Orchestra tours Lisbon',
    'The municipal orchestra announced a spring tour of Lisbon concert halls with violin soloists.',
  ],
  [
    'Cyclists close mountain pass',
    'Alpine cyclists blocked a mountain pass protesting gravel resurfacing near Grenoble.',
  ],
  [
    'Bakery wins baguette prize',
    'A Lille bakery won the regional baguette prize judged on crust, crumb and flour quality.',
  ],
  [
    'Museum restores tapestry',
    'Conservators at the Bayeux museum finished restoring a medieval tapestry fragment with silk thread.',
  ],
  [
    'Ferry timetable changes',
    'The Calais ferry operator published winter timetables cutting night crossings to Dover harbour.',
  ],
  [
    'School opens observatory',
    'A Dunkirk secondary school opened a rooftop observatory telescope for astronomy pupils.',
  ],
  [
    'Vineyard hail damage',
    'Hailstones shredded Champagne vineyard grapes, growers estimated heavy harvest losses.',
  ],
  [
    'Library lends seeds',
    'The Arras public library began lending vegetable seeds to allotment gardeners each spring.',
  ],
] as const;

/** The digests the bot posted in the channel, as Discord stored them. */
const posts = (harness: Harness): APIMessage[] =>
  [...harness.discord.messages.values()].filter(
    (message) => message.channel_id === ids.channel && isDigest(message),
  );
const isDigest = (message: APIMessage) => (message.embeds[0]?.title ?? '').startsWith('Digest:');
const channelPosts = (harness: Harness) =>
  harness.discord.requests.filter((r) => r.method === 'POST' && /^\/channels\/\d+\/messages$/.test(r.route));

describe('GIVEN the bot with its community database and a test clock, a moderator setting up a daily digest', () => {
  let harness: Harness;
  let root: string;
  let corpus: string;
  let clock = Date.parse('2026-06-01T08:00:00Z');
  const now = () => clock;

  const start = () =>
    startHarness({
      corpusPath: corpus,
      now,
      env: { DATA_DIR: join(root, 'data'), MODERATOR_ROLE_IDS: ids.moderatorRole, DIGEST_TIME_ZONE: 'UTC' },
    });

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'newsdesk-digests-'));
    corpus = join(root, 'corpus');
    await mkdir(corpus);
    for (const file of OLD) await copyFile(join(DATED_CORPUS, file), join(corpus, file));
    harness = await start();
  });

  afterAll(async () => {
    await harness?.stop();
    await rm(root, { recursive: true, force: true });
  });

  const digest = async (
    subcommand: string,
    options: Record<string, string | number | ChannelRef>,
    sender = moderator,
  ) =>
    (await harness.discord.interact(chatInputSubcommand('digest', subcommand, options, sender)).final()).data;
  const reload = () =>
    harness.discord.interact(chatInput('reload', {}, moderator)).final({
      until: (data) => !String(data.content ?? '').startsWith('Reloading the corpus'),
      timeoutMs: 30_000,
    });
  const news = new ChannelRef(ids.channel);

  it('every option is checked: a bad time, an unknown zone or outlet, a day on a daily digest are refused in plain words', async () => {
    const refused = async (options: Record<string, string | ChannelRef>) => {
      const data = await digest('add', { channel: news, every: 'day', at: '18:00', ...options });
      expect((data.flags as number) & EPHEMERAL).toBeTruthy();
      return String(data.content);
    };
    expect(await refused({ at: '25:00' })).toBe(
      '“25:00” is not a time of day: write it as HH:MM on a 24-hour clock, from 00:00 to 23:59 (18:30 for half past six in the evening).',
    );
    expect(await refused({ at: '6pm' })).toContain('is not a time of day');
    expect(await refused({ timezone: 'Mars/Olympus' })).toBe(
      '“Mars/Olympus” is not a time zone I know. Use a name from the IANA list, such as Europe/Paris, America/New_York, Asia/Tokyo or UTC.',
    );
    expect(await refused({ outlets: 'harbour gazette, Nowhere Times' })).toMatch(
      /^“Nowhere Times” is not an outlet in the archive\. Pick one from the list as you type \(/,
    );
    expect(await refused({ day: 'friday' })).toBe(
      '`day` is for weekly digests: leave it out with `every:day`, or choose `every:week`.',
    );
    expect(await refused({ topic: 'the of' })).toContain('has no words to look for');
    const byMember = await digest('add', { channel: news, every: 'day', at: '18:00' }, member);
    expect(byMember.content).toBe('Only moderators can use `/digest`: it needs a moderator role.');
    expect(String((await digest('list', {})).content)).toContain('This server has no digests.');
  });

  it('outlets are autocompleted one after another: the names already chosen are kept before the one typed', async () => {
    const raw = autocomplete('digest', { outlets: 'Harbour Gazette, coast' }, 'outlets', moderator);
    // `/digest add`'s options arrive inside its subcommand, as Discord nests them.
    raw.data.options = [{ name: 'add', type: 1, options: raw.data.options }] as typeof raw.data.options;
    const { data } = await harness.discord.interact(raw).final();
    expect(data.choices).toEqual([
      { name: 'Harbour Gazette, Coastal Courier', value: 'Harbour Gazette, Coastal Courier' },
    ]);
  });

  it('/digest add stores it with its zone and says when it is next sent; /digest list shows it', async () => {
    clock = Date.parse('2026-06-01T09:00:00Z');
    const added = await digest('add', { channel: news, every: 'day', at: '18:00', timezone: 'europe/paris' });
    // A channel link notifies no one; nothing else could ping.
    expect(added.allowed_mentions).toEqual({ parse: [] });
    expect(added.content).toBe(
      `Digest 1 set up: <#${ids.channel}> gets the new coverage every day at 18:00 (Europe/Paris), next 2026-06-01 18:00. A period with nothing new sends nothing.`,
    );
    expect(textOf(await digest('list', {}))).toContain(
      'every day at 18:00 (Europe/Paris); next 2026-06-01 18:00.',
    );
  });

  it('at its time the digest posts the period’s new coverage once, grouped by story, the story most outlets reported first', async () => {
    clock = Date.parse('2026-06-01T12:00:00Z');
    for (const file of NEW) await copyFile(join(DATED_CORPUS, file), join(corpus, file));
    await reload();
    clock = FIRST_DIGEST - MINUTE;
    expect(await harness.digests?.check()).toBe(0);
    expect(posts(harness)).toEqual([]);
    clock = FIRST_DIGEST + 10_000;
    expect(await harness.digests?.check()).toBe(1);
    const [post] = posts(harness);
    if (!post) throw new Error('no digest posted');
    // What went to Discord is within every limit, and pings no one.
    const sent = channelPosts(harness).at(-1)?.body as Record<string, unknown>;
    expect(payloadViolations(sent)).toEqual([]);
    const embed = post.embeds[0];
    expect(embed?.title).toBe('Digest: 2 stories, 4 new articles');
    expect(embed?.description).toBe('New coverage since 2026-06-01 11:00 (Europe/Paris), top stories first.');
    const [first, second] = embed?.fields ?? [];
    expect(first?.name).toBe('1. Belgian operator buys Gravelines container terminal');
    expect(first?.value).toContain('Reported by 3 outlets.');
    // The openings disagree on the day, as an answer grouping these reports says (src/factcheck/outlets-differ.ts).
    expect(first?.value).toContain('**Outlets differ** on a date: Monday (Wire `port-sale-wire#1`');
    expect(first?.value).toContain('Thursday (Harbour Gazette `port-sale-gazette#1`)');
    for (const id of ['port-sale-wire', 'port-sale-courier', 'port-sale-gazette'])
      expect(first?.value).toContain(id);
    expect(second?.name).toBe('2. Gravelines harbour board and dockers agree to talks');
    // Old coverage is not new: nothing of what was served before the digest was set up.
    expect(JSON.stringify(embed)).not.toContain('dock-strike-begins');
    expect(post.components).toEqual([]);
    // A second check, or one later the same day, sends nothing more.
    expect(await harness.digests?.check()).toBe(0);
    clock += 6 * 60 * MINUTE;
    expect(await harness.digests?.check()).toBe(0);
    expect(posts(harness)).toHaveLength(1);
  });

  it('the next day, with nothing new, nothing is sent', async () => {
    clock = FIRST_DIGEST + DAY + 10_000;
    const before = channelPosts(harness).length;
    expect(await harness.digests?.check()).toBe(0);
    expect(channelPosts(harness)).toHaveLength(before);
    expect(
      harness.logger.events.some(
        (event) => event.message === 'digest: nothing new in the period; nothing sent',
      ),
    ).toBe(true);
  });

  let long: APIMessage;
  it('a digest longer than a page shows the top stories and "More", whose next page any member opens privately', async () => {
    clock = FIRST_DIGEST + 2 * DAY - 60 * MINUTE;
    for (const [i, [title, body]] of SUBJECTS.entries())
      await writeFile(join(corpus, `subject-${i}.md`), articleText(title, body));
    await reload();
    clock = FIRST_DIGEST + 2 * DAY + 10_000;
    expect(await harness.digests?.check()).toBe(1);
    long = posts(harness).at(-1) as APIMessage;
    expect(long.embeds[0]?.title).toBe('Digest: 8 stories, 8 new articles');
    expect(long.embeds[0]?.fields).toHaveLength(6);
    expect(long.embeds[0]?.footer?.text).toBe(
      'Stories 1–6 of 8 · digest 1, every day at 18:00 (Europe/Paris)',
    );
    const [more] = customIdsOf(long as unknown as Record<string, unknown>);
    expect(more).toMatch(/^digest:more:1:[0-9a-z]+:[0-9a-z]+:6$/);
    const { data } = await harness.discord.interact(button(long, more as string, member)).final();
    expect((data.flags as number) & EPHEMERAL).toBeTruthy();
    expect(payloadViolations(data)).toEqual([]);
    const page = (data.embeds as { fields: { name: string }[]; footer: { text: string } }[])[0];
    expect(page?.fields.map((field) => field.name)).toHaveLength(2);
    expect(page?.fields[0]?.name).toMatch(/^7\. /);
    expect(page?.footer.text).toMatch(/^Stories 7–8 of 8/);
    expect(customIdsOf(data)).toEqual([]);
  });

  it('after a restart the period is not sent again, old articles stay old, and "More" on the earlier message still works', async () => {
    await harness.stop();
    clock = FIRST_DIGEST + 2 * DAY + 5 * MINUTE;
    harness = await start();
    expect(await harness.digests?.check()).toBe(0);
    expect(channelPosts(harness)).toEqual([]);
    const [more] = customIdsOf(long as unknown as Record<string, unknown>);
    const { data } = await harness.discord.interact(button(long, more as string, member)).final();
    expect(textOf(data)).toContain('Stories 7–8 of 8');
    // The next day: what was served before the restart is not new again.
    clock = FIRST_DIGEST + 3 * DAY + 10_000;
    expect(await harness.digests?.check()).toBe(0);
    expect(channelPosts(harness)).toEqual([]);
  });

  it('/digest remove stops it; an id the server does not have is refused', async () => {
    expect(String((await digest('remove', { id: 7 })).content)).toBe(
      'This server has no digest 7; `/digest list` shows its digests.',
    );
    const removed = await digest('remove', { id: 1 });
    expect(String(removed.content)).toContain('Digest 1 removed: nothing more is sent for it.');
    expect(String(removed.content)).toContain('This server has no digests.');
  });
});
