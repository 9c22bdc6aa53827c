import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedPoller, FeedRefusedError } from '../../src/feeds/feed-poller.ts';
import { FeedState } from '../../src/feeds/feed-state.ts';
import { feedStatePath } from '../../src/feeds/start-feeds.ts';
import { Library } from '../../src/library.ts';
import { type AuditEntry, AuditLog } from '../../src/lifecycle/audit-log.ts';
import { CorpusLifecycle } from '../../src/lifecycle/corpus-lifecycle.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { startCoverageSite } from '../support/coverage-site.ts';
import type { LocalWebServer } from '../support/local-web-server.ts';

const MINUTE = 60_000;
const DUNKIRK = 'dunkirk-opens-winter-shelter-for-400-migrants';

describe('GIVEN feeds followed by a bot whose corpus is a folder', () => {
  let site: LocalWebServer;
  let root: string;
  let folder: string;
  let clock = Date.parse('2026-11-30T09:00:00Z');
  const audit: AuditEntry[] = [];

  async function open(): Promise<{ library: Library; poller: FeedPoller; state: FeedState }> {
    const library = await Library.open(folder);
    const log = new AuditLog({ logger: silentLogger });
    log.subscribe((entry) => void audit.push(entry));
    const lifecycle = new CorpusLifecycle(library, { corpusPath: folder, audit: log });
    const state = await FeedState.open(feedStatePath(folder));
    const poller = new FeedPoller({
      state,
      store: lifecycle.store,
      editor: lifecycle.editor,
      articles: () => library.engine.corpus.articles,
      policy: { allowPrivate: false, trustedOrigins: [site.origin] },
      intervalMs: 15 * MINUTE,
      now: () => clock,
    });
    return { library, poller, state };
  }

  let first: Awaited<ReturnType<typeof open>>;

  beforeAll(async () => {
    site = await startCoverageSite();
    root = await mkdtemp(join(tmpdir(), 'newsdesk-feeds-'));
    folder = join(root, 'corpus');
    await cp('corpus', folder, { recursive: true });
    first = await open();
  });

  afterAll(async () => {
    await site?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('WHEN a link that is not a readable feed is added THEN it is refused in plain words and not followed', async () => {
    await expect(first.poller.add(site.url('/feeds/broken.xml'), { id: '1', name: 'ann' })).rejects.toThrow(
      'This is not a feed the bot can read (RSS, Atom or JSON Feed): it is malformed.',
    );
    await expect(
      first.poller.add(site.url('/news/dunkirk-shelter'), { id: '1', name: 'ann' }),
    ).rejects.toThrow(/^The link serves text\/html, not application\/rss\+xml/);
    expect(first.poller.list()).toEqual([]);
  });

  it('WHEN an RSS feed is followed and polled THEN its items are fetched, extracted and added in one batch, audited as the feed', async () => {
    const added = await first.poller.add(site.url('/feeds/france.rss'), { id: '1', name: 'ann' });
    expect(added.items).toBe(2);
    const versionBefore = first.library.engine.version;
    const [report] = await first.poller.pollDue();
    expect(report).toMatchObject({
      status: 'polled',
      added: ['boulogne-fishermen-block-port', DUNKIRK],
      duplicates: 0,
    });
    expect(first.library.engine.article(DUNKIRK)?.url).toBe(
      `${site.origin}/news/dunkirk-shelter?utm_source=rss`,
    );
    const entries = audit.filter((entry) => entry.action === 'add');
    expect(entries.map((entry) => [entry.target, entry.outcome, entry.actor])).toEqual([
      ['boulogne-fishermen-block-port', 'ok', { id: 'system', name: 'feed The Channel Courier – France' }],
      [DUNKIRK, 'ok', { id: 'system', name: 'feed The Channel Courier – France' }],
    ]);
    // One reload for the batch: both entries move the corpus from the same version to the same version.
    expect(new Set(entries.map((entry) => `${entry.versionBefore}>${entry.versionAfter}`))).toEqual(
      new Set([`${versionBefore}>${first.library.engine.version}`]),
    );
    expect(first.poller.list()[0]).toMatchObject({ itemsAdded: 2, etag: '"rss-v1"', errors: 0 });
  });

  it('WHEN the RSS feed is polled again THEN the conditional request is answered 304 and nothing is fetched', async () => {
    clock += 15 * MINUTE;
    const before = site.requests.length;
    const [report] = await first.poller.pollDue();
    expect(report).toMatchObject({ status: 'not-modified', added: [] });
    expect(site.requests.slice(before).map((req) => [req.url, req.headers['if-none-match']])).toEqual([
      ['/feeds/france.rss', '"rss-v1"'],
    ]);
  });

  it('WHEN an Atom feed lists an item already in the corpus THEN only the new one is added, and its second poll is a 304 too', async () => {
    await first.poller.add(site.url('/feeds/opal.atom'), { id: '1', name: 'ann' });
    const reports = await first.poller.pollDue();
    expect(reports).toEqual([
      {
        url: site.url('/feeds/opal.atom'),
        status: 'polled',
        added: ['calais-harbour-works-delayed'],
        duplicates: 1,
        unreadable: 0,
      },
    ]);
    clock += 15 * MINUTE;
    const [rss, atom] = await first.poller.pollDue();
    expect(rss?.status).toBe('not-modified');
    expect(atom?.status).toBe('not-modified');
    expect(site.requests.at(-1)?.headers['if-modified-since']).toBe('Sat, 28 Nov 2026 18:05:00 GMT');
  });

  it('WHEN a feed fails repeatedly THEN it backs off and says why, and the other feeds are still polled', async () => {
    const now = new Date(clock).toISOString();
    await first.state.put({
      url: site.url('/feeds/broken.xml'),
      addedBy: 'ann',
      addedAt: now,
      errors: 0,
      nextPollAt: now,
      itemsAdded: 0,
      seen: [],
    });
    clock += 15 * MINUTE;
    const reports = await first.poller.pollDue();
    expect(reports.map((report) => report.status)).toEqual(['not-modified', 'not-modified', 'failed']);
    const broken = () => first.poller.list().find((feed) => feed.url.endsWith('broken.xml'))!;
    expect(broken()).toMatchObject({
      errors: 1,
      lastError: 'This is not a feed the bot can read (RSS, Atom or JSON Feed): it is malformed.',
      nextPollAt: new Date(clock + 30 * MINUTE).toISOString(),
    });
    clock += 15 * MINUTE; // the others are due, the broken one is not
    expect((await first.poller.pollDue()).map((report) => report.url)).toEqual([
      site.url('/feeds/france.rss'),
      site.url('/feeds/opal.atom'),
    ]);
    clock += 15 * MINUTE;
    await first.poller.pollDue();
    expect(broken()).toMatchObject({ errors: 2, nextPollAt: new Date(clock + 60 * MINUTE).toISOString() });
  });

  it('WHEN the bot restarts and the feeds answer in full again THEN no item is added twice', async () => {
    first.library.engine.close();
    // The feeds forget their validators: every poll now gets the whole feed.
    for (const path of ['/feeds/france.rss', '/feeds/opal.atom']) {
      const route = site.routes.get(path)!;
      site.routes.set(path, (req, res) => {
        delete req.headers['if-none-match'];
        delete req.headers['if-modified-since'];
        route(req, res);
      });
    }
    const files = await readdir(folder);
    const restarted = await open();
    expect(restarted.poller.list().map((feed) => feed.itemsAdded)).toEqual([2, 1, 0]);
    clock += 24 * 60 * MINUTE;
    const reports = await restarted.poller.pollDue();
    expect(reports.map((report) => [report.status, report.added.length, report.duplicates])).toEqual([
      ['polled', 0, 2],
      ['polled', 0, 2],
      ['failed', 0, 0],
    ]);
    expect(await readdir(folder)).toEqual(files);
    const persisted = JSON.parse(await readFile(feedStatePath(folder), 'utf8')) as {
      feeds: { itemsAdded: number }[];
    };
    expect(persisted.feeds.map((feed) => feed.itemsAdded)).toEqual([2, 1, 0]);
    restarted.library.engine.close();
  });

  it('refuses to follow a feed twice', async () => {
    await expect(first.poller.add(site.url('/feeds/france.rss'), { id: '1', name: 'ann' })).rejects.toThrow(
      FeedRefusedError,
    );
  });
});
