import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FeedPoller } from '../../src/feeds/feed-poller.ts';
import type { FeedPublisher } from '../../src/feeds/feed-publisher.ts';
import { type FeedRecord, FeedState } from '../../src/feeds/feed-state.ts';
import { feedStatePath } from '../../src/feeds/start-feeds.ts';
import { Library } from '../../src/library.ts';
import { AuditLog } from '../../src/lifecycle/audit-log.ts';
import { CorpusLifecycle } from '../../src/lifecycle/corpus-lifecycle.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { articlePage, rss, type SiteItem } from '../support/feed-site.ts';
import { type LocalWebServer, startLocalWebServer } from '../support/local-web-server.ts';
import { copyOfBundledCorpus } from '../support/temp-corpus.ts';

const MINUTE = 60_000;
const ann = { id: '1', name: 'ann' };
const FILTER = { include: [], exclude: ['football'] };

/** A promise and the function that settles it: a fetch or a post held open until the test lets it go. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

// A moderator's change to a feed (its filter, removing it) made while that feed is being read or
// posted was once written over by the poll's save of the record it had read before the fetch.
describe('GIVEN a feed being polled while a moderator changes it', () => {
  let site: LocalWebServer;
  let copy: Awaited<ReturnType<typeof copyOfBundledCorpus>>;
  let library: Library;
  let lifecycle: CorpusLifecycle;
  let clock = Date.parse('2026-12-01T09:00:00Z');
  let listed: SiteItem[] = [];
  /** While set, the feed's answer waits for it: the poll is held in its fetch. */
  let held: { opened: Promise<void>; open: () => void } | undefined;
  /** Resolves when the held fetch has reached the site. */
  let reached: (() => void) | undefined;
  const feedUrl = () => site.url('/held.rss');

  beforeAll(async () => {
    site = await startLocalWebServer();
    for (let n = 1; n <= 20; n++) {
      site.routes.set(`/a/${n}`, (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(n, 'Harbour')),
      );
    }
    site.routes.set('/held.rss', (_req, res: ServerResponse) => {
      const answer = () =>
        res
          .writeHead(200, { 'content-type': 'application/rss+xml' })
          .end(rss('Held Courier', site.origin, listed));
      reached?.();
      if (held) void held.opened.then(answer);
      else answer();
    });
    copy = await copyOfBundledCorpus();
    library = await Library.open(copy.corpus);
    lifecycle = new CorpusLifecycle(library, {
      corpusPath: copy.corpus,
      audit: new AuditLog({ logger: silentLogger }),
    });
  });

  afterAll(async () => {
    library?.engine.close();
    await site?.close();
    await copy?.cleanup();
  });

  const poller = (state: FeedState, publisher?: FeedPublisher) =>
    new FeedPoller({
      state,
      store: lifecycle.store,
      editor: lifecycle.editor,
      articles: () => library.engine.corpus.articles,
      policy: { allowPrivate: true },
      intervalMs: 15 * MINUTE,
      now: () => clock,
      publisher,
    });
  const onDisk = async (): Promise<FeedRecord | undefined> => {
    const file = JSON.parse(await readFile(feedStatePath(copy.corpus), 'utf8')) as { feeds: FeedRecord[] };
    return file.feeds.find((feed) => feed.url === feedUrl());
  };
  /** Starts a poll of what is due and resolves once it is held in the feed's fetch. */
  const heldPoll = async (polling: FeedPoller) => {
    held = gate();
    const arrived = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const polled = polling.pollDue();
    await arrived;
    reached = undefined;
    return { polled };
  };

  let n = 0;
  beforeEach(() => {
    // Two new stories for each test, so that every poll has something to add and mark seen.
    n += 2;
    listed = [
      { n, topic: 'Harbour' },
      { n: n - 1, topic: 'Harbour' },
    ];
    clock += 60 * MINUTE;
  });
  afterEach(async () => {
    held?.open();
    held = undefined;
    const state = await FeedState.open(feedStatePath(copy.corpus));
    await state.remove(feedUrl());
  });

  it('WHEN /feeds filter is set during the fetch THEN the filter is kept, in memory and on disk, beside what the poll saw and added', async () => {
    const state = await FeedState.open(feedStatePath(copy.corpus));
    const feeds = poller(state);
    await feeds.add(feedUrl(), ann);
    const { polled } = await heldPoll(feeds);
    expect(await feeds.setFilter(feedUrl(), FILTER)).toMatchObject({ filter: FILTER });
    held!.open();
    const [report] = await polled;
    expect(report?.added).toHaveLength(2);
    expect(state.get(feedUrl())).toMatchObject({ filter: FILTER, itemsAdded: 2 });
    expect(await onDisk()).toMatchObject({ filter: FILTER, itemsAdded: 2 });
    expect((await onDisk())?.seen).toEqual(expect.arrayContaining([`item-${n}`, `item-${n - 1}`]));
  });

  it('WHEN the feed is removed during the fetch THEN it stays removed: the poll does not follow it again', async () => {
    const state = await FeedState.open(feedStatePath(copy.corpus));
    const feeds = poller(state);
    await feeds.add(feedUrl(), ann);
    const { polled } = await heldPoll(feeds);
    expect(await feeds.remove(feedUrl())).toBe(true);
    held!.open();
    await polled;
    expect(state.get(feedUrl())).toBeUndefined();
    expect(await onDisk()).toBeUndefined();
  });

  it('WHEN another replica (REDIS_URL: the same state file) sets the filter during the fetch THEN the polling replica keeps it', async () => {
    const polling = await FeedState.open(feedStatePath(copy.corpus), { shared: true });
    const feeds = poller(polling);
    await feeds.add(feedUrl(), ann);
    const other = poller(await FeedState.open(feedStatePath(copy.corpus), { shared: true }));
    const { polled } = await heldPoll(feeds);
    expect(await other.setFilter(feedUrl(), FILTER)).toMatchObject({ filter: FILTER });
    held!.open();
    const [report] = await polled;
    expect(report?.added).toHaveLength(2);
    expect(await onDisk()).toMatchObject({ filter: FILTER, itemsAdded: 2 });
    expect(polling.get(feedUrl())).toMatchObject({ filter: FILTER, itemsAdded: 2 });
  });

  it('WHEN another replica sets the filter while an article is being posted THEN the filter is kept and the post taken off the queue', async () => {
    let posting: (() => void) | undefined;
    const post = gate();
    const posted: string[] = [];
    const publisher: FeedPublisher = {
      channelKind: async () => 'text',
      async postArticle(_target, queued) {
        posting?.();
        await post.opened;
        posted.push(queued.title);
      },
      postAlert: async () => undefined,
    };
    const state = await FeedState.open(feedStatePath(copy.corpus), { shared: true });
    const feeds = poller(state, publisher);
    await feeds.add(feedUrl(), ann, { post: { channelId: '300000000000000001', thread: false } });
    const other = poller(await FeedState.open(feedStatePath(copy.corpus), { shared: true }));
    const inPost = new Promise<void>((resolve) => {
      posting = resolve;
    });
    const polled = feeds.pollDue();
    await inPost;
    posting = undefined;
    await other.setFilter(feedUrl(), FILTER);
    post.open();
    const [report] = await polled;
    expect(report?.posted).toBe(2);
    expect(posted).toEqual([`Harbour story ${n - 1}`, `Harbour story ${n}`]);
    expect(await onDisk()).toMatchObject({ filter: FILTER, postsMade: 2, queue: [] });
    expect(state.get(feedUrl())).toMatchObject({ filter: FILTER, postsMade: 2, queue: [] });
  });
});
