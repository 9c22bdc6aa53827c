import { readFile, writeFile } from 'node:fs/promises';
import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedRecord } from '../../src/feeds/feed-state.ts';
import { feedStatePath } from '../../src/feeds/start-feeds.ts';
import { articlePage, rss, type SiteItem } from '../support/feed-site.ts';
import { type LocalWebServer, startLocalWebServer } from '../support/local-web-server.ts';
import { ids } from '../support/stand-in-discord/fixtures.ts';
import { ChannelRef, chatInputSubcommand } from '../support/stand-in-discord/interactions.ts';
import type { RecordedRequest } from '../support/stand-in-discord/server.ts';
import { StandInDiscord } from '../support/stand-in-discord/server.ts';
import { copyOfBundledCorpus } from '../support/temp-corpus.ts';
import { type Harness, moderator, startHarness } from './harness.ts';

/**
 * A crash between a post reaching Discord and the state file recording it, reproduced exactly: the
 * stand-in holds its answer to the post, the state file is copied as it is at that moment (the article
 * marked as tried, still queued), the bot finishes and stops, and the copy is put back before the next
 * process starts against the same stand-in (which keeps what was posted, as Discord does).
 */
describe('GIVEN the bot crashing after a feed post reached Discord and before the state file recorded it', () => {
  let site: LocalWebServer;
  let copy: Awaited<ReturnType<typeof copyOfBundledCorpus>>;
  let discord: StandInDiscord;
  let harness: Harness;
  /** What each feed lists now, by path. */
  const listed = new Map<string, SiteItem[]>();
  /** Feeds that answer 500 while listed here. */
  const broken = new Set<string>();

  const start = async () => {
    const started = await startHarness({
      corpusPath: copy.corpus,
      discord,
      env: { MODERATOR_ROLE_IDS: ids.moderatorRole, FETCH_ALLOW_PRIVATE: 'true', FEED_POLL_MINUTES: '60' },
    });
    // The check of due feeds that start-up runs (none is due yet), over before a test makes them due.
    await started.ctx.feeds!.pollDue();
    return started;
  };

  beforeAll(async () => {
    site = await startLocalWebServer();
    for (let n = 1; n <= 8; n++) {
      site.routes.set(`/a/${n}`, (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(n, 'Crash')),
      );
    }
    for (const path of ['/forum.rss', '/text.rss', '/health.rss']) {
      site.routes.set(path, (_req, res) => {
        if (broken.has(path)) return res.writeHead(500).end('down');
        res
          .writeHead(200, { 'content-type': 'application/rss+xml' })
          .end(rss(`Feed ${path}`, site.origin, listed.get(path) ?? []));
      });
    }
    copy = await copyOfBundledCorpus();
    discord = await StandInDiscord.start();
    harness = await start();
    for (const [path, channel] of [
      ['/forum.rss', ids.forum],
      ['/text.rss', ids.channel],
    ] as const) {
      await harness.discord
        .interact(
          chatInputSubcommand(
            'feeds',
            'add',
            { url: site.url(path), channel: new ChannelRef(channel) },
            moderator,
          ),
        )
        .final();
    }
    // The reads the adds started: both feeds list nothing yet.
    await harness.ctx.feeds!.pollDue();
  });

  afterAll(async () => {
    await harness?.stop();
    await discord?.close();
    await site?.close();
    await copy?.cleanup();
  });

  const statePath = () => feedStatePath(copy.corpus);
  const feed = async (path: string): Promise<FeedRecord> => {
    const file = JSON.parse(await readFile(statePath(), 'utf8')) as { feeds: FeedRecord[] };
    return file.feeds.find((record) => record.url === site.url(path))!;
  };
  /** Makes every feed due and polls, as FEED_POLL_MINUTES later would. */
  const pollAgain = async () => {
    const file = JSON.parse(await readFile(statePath(), 'utf8')) as { feeds: FeedRecord[] };
    for (const record of file.feeds) record.nextPollAt = new Date(Date.now() - 1000).toISOString();
    await writeFile(statePath(), JSON.stringify(file));
    await harness.ctx.feeds!.refresh();
    return harness.ctx.feeds!.pollDue();
  };
  /**
   * Lists `item` in the feed at `path`, polls, and returns the state file as it was when Discord took
   * the post (`isPost` picks its request), the bot being stopped once the poll is over.
   */
  const crashAfterPost = async (
    path: string,
    item: SiteItem | undefined,
    isPost: (request: RecordedRequest) => boolean,
  ) => {
    if (item) listed.set(path, [item, ...(listed.get(path) ?? [])]);
    let atCrash: string | undefined;
    discord.holdAnswer = (request) =>
      isPost(request) && atCrash === undefined
        ? readFile(statePath(), 'utf8').then((text) => {
            atCrash = text;
          })
        : undefined;
    await pollAgain();
    discord.holdAnswer = undefined;
    expect(atCrash).toBeDefined();
    await harness.stop();
    await writeFile(statePath(), atCrash!);
    return atCrash!;
  };
  const forumPosts = (title: string) =>
    [...discord.threads.values()].filter((thread) => thread.parent_id === ids.forum && thread.name === title);
  const textPosts = (title: string): APIMessage[] =>
    discord.messagesIn(ids.channel).filter((message) => message.embeds?.[0]?.title === title);
  const isForumPost = (request: RecordedRequest) =>
    request.method === 'POST' && request.route === `/channels/${ids.forum}/threads`;

  it('WHEN the post is a forum post still active THEN the next process finds it among the guild’s active threads and does not post it again', async () => {
    const atCrash = await crashAfterPost('/forum.rss', { n: 1, topic: 'Crash' }, isForumPost);
    // What the crash left: the article tried and still queued.
    const left = (JSON.parse(atCrash) as { feeds: FeedRecord[] }).feeds.find((f) =>
      f.url.endsWith('/forum.rss'),
    );
    expect(left?.queue).toEqual([
      expect.objectContaining({ title: 'Crash story 1', attemptedAt: expect.any(String) }),
    ]);
    expect(forumPosts('Crash story 1')).toHaveLength(1);
    harness = await start();
    await pollAgain();
    expect(forumPosts('Crash story 1')).toHaveLength(1);
    expect(await feed('/forum.rss')).toMatchObject({ queue: [], postsMade: 1 });
    expect(
      discord.requests.some((r) => r.method === 'GET' && r.route === `/guilds/${ids.guild}/threads/active`),
    ).toBe(true);
  });

  it('WHEN a moderator closed (archived) the forum post before the restart THEN it is found among the forum’s archived threads', async () => {
    await crashAfterPost('/forum.rss', { n: 2, topic: 'Crash' }, isForumPost);
    const [post] = forumPosts('Crash story 2');
    discord.archiveThread(post!.id);
    harness = await start();
    await pollAgain();
    expect(forumPosts('Crash story 2')).toHaveLength(1);
    expect(await feed('/forum.rss')).toMatchObject({ queue: [], postsMade: 2 });
    expect(
      discord.requests.some(
        (r) => r.method === 'GET' && r.route === `/channels/${ids.forum}/threads/archived/public`,
      ),
    ).toBe(true);
  });

  it('WHEN the forum post never reached Discord THEN the next process posts it, once', async () => {
    await crashAfterPost('/forum.rss', { n: 3, topic: 'Crash' }, isForumPost);
    // As if the crash came before Discord took the request: nothing of it there.
    const [post] = forumPosts('Crash story 3');
    discord.threads.delete(post!.id);
    discord.messages.delete(post!.id);
    // A post of the bot's with the same name but another article (its first message links story 1)
    // is not taken for it.
    const [other] = forumPosts('Crash story 1');
    discord.threads.set(other!.id, { ...other!, name: 'Crash story 3' });
    harness = await start();
    await pollAgain();
    const posts = forumPosts('Crash story 3');
    expect(posts).toHaveLength(2);
    expect(posts.map((thread) => discord.messages.get(thread.id)?.embeds[0]?.url).sort()).toEqual(
      [site.url('/a/1'), site.url('/a/3')].sort(),
    );
    expect(await feed('/forum.rss')).toMatchObject({ queue: [], postsMade: 3 });
  });

  it('WHEN the post is a text channel’s message THEN the next process finds it among the channel’s last messages', async () => {
    await crashAfterPost(
      '/text.rss',
      { n: 4, topic: 'Crash' },
      (request) => request.method === 'POST' && request.route === `/channels/${ids.channel}/messages`,
    );
    expect(textPosts('Crash story 4')).toHaveLength(1);
    harness = await start();
    await pollAgain();
    expect(textPosts('Crash story 4')).toHaveLength(1);
    expect(await feed('/text.rss')).toMatchObject({ queue: [], postsMade: 1 });
  });

  describe('WHEN the crash comes between a health alert reaching the moderators’ channel and its record', () => {
    const alerts = () =>
      discord
        .messagesIn(ids.mods)
        .filter(
          (message) => message.author.id === ids.bot && message.content.includes(site.url('/health.rss')),
        );
    const isAlert = (request: RecordedRequest) =>
      request.method === 'POST' && request.route === `/channels/${ids.mods}/messages`;
    /** Fails the feed's reads until the third, whose alert is cut short by the crash. */
    const crashAtFailingAlert = async () => {
      const before = alerts().length;
      broken.add('/health.rss');
      await pollAgain();
      await pollAgain();
      expect(alerts()).toHaveLength(before);
      return crashAfterPost('/health.rss', undefined, isAlert);
    };

    beforeAll(async () => {
      await harness.discord
        .interact(chatInputSubcommand('feeds', 'alerts', { channel: new ChannelRef(ids.mods) }, moderator))
        .final();
      await harness.discord
        .interact(chatInputSubcommand('feeds', 'add', { url: site.url('/health.rss') }, moderator))
        .final();
      await harness.ctx.feeds!.pollDue();
    });

    it('THEN the next process finds the alert among the channel’s last messages and does not send it again', async () => {
      const atCrash = await crashAtFailingAlert();
      // What the crash left: the alert tried, still owed.
      const left = (JSON.parse(atCrash) as { feeds: FeedRecord[] }).feeds.find((f) =>
        f.url.endsWith('/health.rss'),
      );
      expect(left?.health).toMatchObject({ status: 'failing', owed: true, attemptedAt: expect.any(String) });
      expect(alerts()).toHaveLength(1);
      harness = await start();
      // The fourth failed read: the alert owed is looked for, found, and recorded as delivered.
      await pollAgain();
      expect(alerts().map((message) => message.content)).toEqual([
        expect.stringMatching(/^⚠️ The feed .* failed 3 reads in a row\./),
      ]);
      const health = (await feed('/health.rss')).health;
      expect(health).toMatchObject({ status: 'failing', owed: false, alerted: true });
      expect(health?.attemptedAt).toBeUndefined();
      // Recovered: its message is sent, once.
      broken.delete('/health.rss');
      await pollAgain();
      await pollAgain();
      expect(alerts().map((message) => message.content)).toEqual([
        expect.stringMatching(/^⚠️ The feed .* failed 3 reads in a row\./),
        expect.stringMatching(/^✅ The feed .* has recovered: it reads again\.$/),
      ]);
    });

    it('THEN an alert that never reached the channel is sent, and an earlier episode’s alert of the same words is not taken for it', async () => {
      const before = alerts().length;
      await crashAtFailingAlert();
      const sent = alerts();
      expect(sent).toHaveLength(before + 1);
      // As if the crash came before Discord took it: the new message is not there ...
      discord.messages.delete(sent.at(-1)!.id);
      // ... and the first episode's failing alert, with the same opening, was sent an hour ago.
      const first = sent[0]!;
      discord.messages.set(first.id, { ...first, timestamp: new Date(Date.now() - 3_600_000).toISOString() });
      harness = await start();
      await pollAgain();
      const now = alerts().map((message) => message.content);
      expect(now).toHaveLength(before + 1);
      expect(now.at(-1)).toMatch(/^⚠️ The feed .* failed 4 reads in a row\./);
      expect((await feed('/health.rss')).health).toMatchObject({
        status: 'failing',
        owed: false,
        alerted: true,
      });
    });
  });
});
