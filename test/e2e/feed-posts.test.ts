import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIEmbed, APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedStatePath } from '../../src/feeds/start-feeds.ts';
import { articlePage, rss, type SiteItem } from '../support/feed-site.ts';
import { type LocalWebServer, startLocalWebServer } from '../support/local-web-server.ts';
import { ids } from '../support/stand-in-discord/fixtures.ts';
import { ChannelRef, chatInputSubcommand } from '../support/stand-in-discord/interactions.ts';
import { copyOfBundledCorpus } from '../support/temp-corpus.ts';
import { type Harness, member, moderator, startHarness, textOf } from './harness.ts';

const until = async <T>(probe: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('GIVEN the bot on Discord following feeds that post their new articles', () => {
  let site: LocalWebServer;
  let root: string;
  let corpus: string;
  let harness: Harness;
  /** What each feed of the site lists now, by path. */
  const feeds = new Map<string, SiteItem[]>();
  /** Feeds that answer 500 while listed here. */
  const broken = new Set<string>();

  const start = () =>
    startHarness({
      corpusPath: corpus,
      env: {
        MODERATOR_ROLE_IDS: ids.moderatorRole,
        FETCH_ALLOW_PRIVATE: 'true',
        FEED_POSTS_PER_POLL: '3',
        FEED_POLL_MINUTES: '60',
      },
    });

  beforeAll(async () => {
    site = await startLocalWebServer();
    for (let n = 1; n <= 40; n++) {
      const topic = n <= 2 ? 'Harbour' : n <= 3 ? 'Forum' : n <= 11 ? 'Flood' : 'Mixed';
      site.routes.set(`/a/${n}`, (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(n, topic)),
      );
    }
    for (const path of ['/news.rss', '/forum.rss', '/flood.rss', '/mixed.rss', '/health.rss']) {
      site.routes.set(path, (_req, res) => {
        if (broken.has(path)) return res.writeHead(500).end('down');
        res
          .writeHead(200, { 'content-type': 'application/rss+xml' })
          .end(rss(`Feed ${path}`, site.origin, feeds.get(path) ?? []));
      });
    }
    root = await mkdtemp(join(tmpdir(), 'newsdesk-feed-posts-'));
    corpus = join(root, 'corpus');
    await cp('corpus', corpus, { recursive: true });
    harness = await start();
  });

  afterAll(async () => {
    await harness?.stop();
    await site?.close();
    await rm(root, { recursive: true, force: true });
  });

  const feedsCommand = async (
    subcommand: string,
    options: Record<string, string | boolean | ChannelRef>,
    sender = moderator,
  ) =>
    (await harness.discord.interact(chatInputSubcommand('feeds', subcommand, options, sender)).final()).data;
  const botPosts = (channelId: string): APIMessage[] =>
    harness.discord
      .messagesIn(channelId)
      .filter((message) => message.author.id === ids.bot && (message.embeds?.length ?? 0) > 0);
  /** Makes every feed due now and polls, as FEED_POLL_MINUTES later would. */
  const pollAgain = async () => {
    const path = feedStatePath(corpus);
    const state = JSON.parse(await readFile(path, 'utf8')) as { feeds: { nextPollAt: string }[] };
    for (const feed of state.feeds) feed.nextPollAt = new Date(Date.now() - 1000).toISOString();
    await writeFile(path, JSON.stringify(state));
    await harness.ctx.feeds!.refresh();
    return harness.ctx.feeds!.pollDue();
  };

  it('WHEN a moderator follows a feed with channel:#news thread:true THEN its two new articles are posted as embeds, each with a thread of its own', async () => {
    feeds.set('/news.rss', [
      { n: 2, topic: 'Harbour' },
      { n: 1, topic: 'Harbour' },
    ]);
    const reply = await feedsCommand('add', {
      url: site.url('/news.rss'),
      channel: new ChannelRef(ids.channel),
      thread: true,
    });
    expect(textOf(reply)).toMatch(
      /Each new article is posted in <#300000000000000001>, with a thread of its own, at most 3 per read/,
    );
    const posts = await until(() => {
      const found = botPosts(ids.channel).filter((m) => m.embeds[0]?.title?.startsWith('Harbour'));
      return found.length === 2 && found.every((m) => harness.discord.threads.has(m.id)) ? found : undefined;
    }, 'two posts with threads');
    const embeds = posts.map((post) => post.embeds[0] as APIEmbed);
    // Oldest first, as published: story 1 then story 2.
    expect(embeds.map((embed) => embed.title)).toEqual(['Harbour story 1', 'Harbour story 2']);
    expect(embeds[0]).toMatchObject({
      url: site.url('/a/1'),
      author: { name: 'Feed Test Gazette' },
      timestamp: '2026-11-11T00:00:00.000Z',
    });
    expect(embeds[0]?.description).toMatch(/^The harbour story number 1 opens with a lede/);
    expect(posts.map((post) => harness.discord.threads.get(post.id)?.name)).toEqual([
      'Harbour story 1',
      'Harbour story 2',
    ]);
    // Nothing pings: no mention is parsed in a post.
    const request = harness.discord.requests.find(
      (r) => r.method === 'POST' && r.route === `/channels/${ids.channel}/messages`,
    );
    expect((request?.body as { allowed_mentions?: unknown } | undefined)?.allowed_mentions).toEqual({
      parse: [],
    });
  });

  it('WHEN the channel is a forum THEN each article is a forum post: a thread whose first message is the embed', async () => {
    feeds.set('/forum.rss', [{ n: 3, topic: 'Forum' }]);
    const reply = await feedsCommand('add', {
      url: site.url('/forum.rss'),
      channel: new ChannelRef(ids.forum),
    });
    expect(textOf(reply)).toMatch(/Each new article is a post of its own in <#300000000000000002>/);
    const thread = await until(
      () => [...harness.discord.threads.values()].find((t) => t.parent_id === ids.forum),
      'a forum post',
    );
    expect(thread.name).toBe('Forum story 3');
    expect(harness.discord.messages.get(thread.id)?.embeds[0]).toMatchObject({
      title: 'Forum story 3',
      url: site.url('/a/3'),
    });
    // Nothing was sent to the forum as a plain message (Discord refuses that).
    expect(harness.discord.requests.filter((r) => r.route === `/channels/${ids.forum}/messages`)).toEqual([]);
  });

  it('WHEN a feed suddenly lists 8 new items THEN at most 3 are posted per read, the rest at the next reads, none twice, also across a restart', async () => {
    feeds.set(
      '/flood.rss',
      [4, 5, 6, 7, 8, 9, 10, 11].reverse().map((n) => ({ n, topic: 'Flood' })),
    );
    await feedsCommand('add', { url: site.url('/flood.rss'), channel: new ChannelRef(ids.mods) });
    const flood = () => botPosts(ids.mods).map((m) => m.embeds[0]?.title);
    await until(() => (flood().length >= 3 ? true : undefined), 'the first batch');
    await harness.ctx.feeds!.pollDue();
    expect(flood()).toEqual(['Flood story 4', 'Flood story 5', 'Flood story 6']);
    const listed = await feedsCommand('list', {});
    expect(textOf(listed)).toMatch(/posted: 3 · waiting: 5/);
    // A restart: a new process (and a fresh stand-in, which holds none of the earlier posts).
    await harness.stop();
    harness = await start();
    await pollAgain();
    await pollAgain();
    await pollAgain();
    expect(flood()).toEqual([
      'Flood story 7',
      'Flood story 8',
      'Flood story 9',
      'Flood story 10',
      'Flood story 11',
    ]);
    // The other feeds posted nothing again.
    expect(botPosts(ids.channel)).toEqual([]);
  });

  it('WHEN a feed has a filter THEN an item naming an excluded word is skipped without its page being fetched, and counted in /feeds list', async () => {
    feeds.set('/mixed.rss', [
      { n: 12, topic: 'Mixed', summary: 'The council approves the new ferry berths.' },
      { n: 13, topic: 'Mixed', summary: 'Football: the local club wins its derby.' },
    ]);
    await feedsCommand('add', { url: site.url('/mixed.rss'), channel: new ChannelRef(ids.channel) });
    await harness.ctx.feeds!.pollDue();
    // Before the filter: back to an unread state for the two items by listing new ones.
    feeds.set('/mixed.rss', [
      { n: 14, topic: 'Mixed', summary: 'The council approves a new sea wall.' },
      { n: 15, topic: 'Mixed', summary: 'Football: the club signs a striker.' },
    ]);
    const refused = await feedsCommand('filter', { url: site.url('/mixed.rss'), include: 'sea, ,!!' });
    expect(textOf(refused)).toBe(
      '“!!” in `include` has no letter or digit to look for; give words or short phrases, separated by commas.',
    );
    const both = await feedsCommand('filter', {
      url: site.url('/mixed.rss'),
      include: 'Football',
      exclude: 'football',
    });
    expect(textOf(both)).toBe('“Football” is both included and excluded; keep it on one side.');
    const set = await feedsCommand('filter', { url: site.url('/mixed.rss'), exclude: 'football' });
    expect(textOf(set)).toMatch(/Items naming “football” are skipped\./);
    await pollAgain();
    const titles = botPosts(ids.channel).map((m) => m.embeds[0]?.title);
    expect(titles).toContain('Mixed story 14');
    expect(titles).not.toContain('Mixed story 15');
    expect(site.requests.some((r) => r.url === '/a/15')).toBe(false);
    const listed = textOf(await feedsCommand('list', {}));
    expect(listed).toMatch(/Skipped by the filter: 1 \(latest: “Mixed story 15”\)/);
    expect(listed).toMatch(/Filter: Items naming “football” are skipped\./);
    // A member may not change filters.
    expect(
      textOf(await feedsCommand('filter', { url: site.url('/mixed.rss'), clear: true }, member)),
    ).toMatch(/^Only moderators/);
  });

  it('WHEN a feed fails three reads in a row THEN the moderators’ channel hears it once, and once when it recovers, never again after a restart', async () => {
    const modsMessages = () =>
      harness.discord
        .messagesIn(ids.mods)
        .filter((m) => m.author.id === ids.bot && (m.embeds?.length ?? 0) === 0)
        .map((m) => m.content);
    const refused = await feedsCommand('alerts', { channel: new ChannelRef(ids.forum) });
    expect(textOf(refused)).toBe(
      'The alerts channel was not set: Alerts go to a text channel, not a forum: name a text channel.',
    );
    const set = await feedsCommand('alerts', { channel: new ChannelRef(ids.mods) });
    expect(textOf(set)).toMatch(
      /^Feed alerts go to <#300000000000000003>: a message when a feed fails 3 reads in a row or brings nothing new for 48 hours/,
    );
    feeds.set('/health.rss', [{ n: 16, topic: 'Mixed', summary: 'A sea wall story.' }]);
    await feedsCommand('add', { url: site.url('/health.rss') });
    await harness.ctx.feeds!.pollDue();
    broken.add('/health.rss');
    await pollAgain();
    await pollAgain();
    expect(modsMessages()).toEqual([]);
    await pollAgain();
    expect(modsMessages()).toEqual([
      expect.stringMatching(
        /^⚠️ The feed \*\*Feed \/health\.rss\*\* \(.*\) failed 3 reads in a row\. Last error: /,
      ),
    ]);
    await pollAgain();
    expect(modsMessages()).toHaveLength(1);
    broken.delete('/health.rss');
    await pollAgain();
    expect(modsMessages()).toEqual([
      expect.stringMatching(/^⚠️ The feed/),
      expect.stringMatching(/^✅ The feed \*\*Feed \/health\.rss\*\* .* has recovered: it reads again\.$/),
    ]);
    await harness.stop();
    harness = await start();
    await pollAgain();
    expect(modsMessages()).toEqual([]);
  });
});

describe('GIVEN the bot on a test clock following a feed, with FEED_SILENT_HOURS=2 and an alerts channel', () => {
  let site: LocalWebServer;
  let copy: Awaited<ReturnType<typeof copyOfBundledCorpus>>;
  let harness: Harness;
  let clock = Date.parse('2026-11-20T08:00:00Z');
  let listed: SiteItem[] = [{ n: 1, topic: 'Quiet' }];

  const start = () =>
    startHarness({
      corpusPath: copy.corpus,
      env: {
        MODERATOR_ROLE_IDS: ids.moderatorRole,
        FETCH_ALLOW_PRIVATE: 'true',
        FEED_POLL_MINUTES: '60',
        FEED_SILENT_HOURS: '2',
      },
      now: () => clock,
    });

  beforeAll(async () => {
    site = await startLocalWebServer();
    for (const n of [1, 2]) {
      site.routes.set(`/a/${n}`, (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(n, 'Quiet')),
      );
    }
    site.routes.set('/quiet.rss', (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/rss+xml' })
        .end(rss('Quiet Courier', site.origin, listed)),
    );
    copy = await copyOfBundledCorpus();
    harness = await start();
  });

  afterAll(async () => {
    await harness?.stop();
    await site?.close();
    await copy?.cleanup();
  });

  const alerts = () =>
    harness.discord
      .messagesIn(ids.mods)
      .filter((m) => m.author.id === ids.bot)
      .map((m) => m.content);
  /** Moves the test clock on by `minutes` (a poll is due every 60) and polls what is due. */
  const later = async (minutes: number) => {
    clock += minutes * 60_000;
    return harness.ctx.feeds!.pollDue();
  };

  it('WHEN it brings nothing for longer than 2 hours THEN the moderators hear it once, not again on later polls nor after a restart, and once when it brings an item again', async () => {
    const set = await harness.discord
      .interact(chatInputSubcommand('feeds', 'alerts', { channel: new ChannelRef(ids.mods) }, moderator))
      .final();
    expect(textOf(set.data)).toMatch(/brings nothing new for 2 hours/);
    await harness.discord
      .interact(chatInputSubcommand('feeds', 'add', { url: site.url('/quiet.rss') }, moderator))
      .final();
    // The first read (started by the add, awaited here) brings story 1: the feed is new, nothing is said.
    await harness.ctx.feeds!.pollDue();
    expect(harness.ctx.feeds!.list()[0]?.itemsAdded).toBe(1);
    expect((await later(60)).map((report) => report.added)).toEqual([[]]);
    expect(alerts()).toEqual([]);
    // 2 hours and 1 minute since story 1 came, at the third read of the same list.
    expect(await later(61)).toHaveLength(1);
    expect(alerts()).toEqual([
      '⚠️ The feed **Quiet Courier** (' +
        site.url('/quiet.rss') +
        `) has brought nothing new for 2 hours (since <t:${clock / 1000 - 121 * 60}:R>).`,
    ]);
    await later(60);
    await later(60);
    expect(alerts()).toHaveLength(1);
    // A restart: a new process, a fresh stand-in (which holds none of the earlier messages).
    await harness.stop();
    harness = await start();
    await later(60);
    expect(alerts()).toEqual([]);
    listed = [{ n: 2, topic: 'Quiet' }, ...listed];
    const [recovered] = await later(60);
    expect(recovered?.added).toHaveLength(1);
    expect(alerts()).toEqual([
      `✅ The feed **Quiet Courier** (${site.url('/quiet.rss')}) has recovered: it brings new items again.`,
    ]);
    // Quiet again for less than 2 hours: nothing more.
    await later(60);
    expect(alerts()).toHaveLength(1);
  });
});
