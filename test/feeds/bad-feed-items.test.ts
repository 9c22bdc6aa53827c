import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedPoller } from '../../src/feeds/feed-poller.ts';
import { FeedState } from '../../src/feeds/feed-state.ts';
import { feedStatePath } from '../../src/feeds/start-feeds.ts';
import { renderFeedList } from '../../src/interactions/render/feeds.ts';
import { Library } from '../../src/library.ts';
import { CorpusLifecycle } from '../../src/lifecycle/corpus-lifecycle.ts';
import { type LocalWebServer, serve, startLocalWebServer } from '../support/local-web-server.ts';
import { nestedPage } from '../support/nested-page.ts';

const MINUTE = 60_000;
const BAD = ['/empty', '/plain', '/nested'];

function rss(origin: string): string {
  const item = (path: string, n: number) =>
    `<item><title>Item ${n}</title><link>${origin}${path}</link><guid isPermaLink="false">item-${n}</guid><pubDate>Sat, 28 Nov 2026 1${n}:00:00 GMT</pubDate></item>`;
  // Newest first, as feeds list them: the good item is the oldest, read after the three bad ones.
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Mixed feed</title>${[...BAD, '/harbour']
    .map(item)
    .join('')}</channel></rss>`;
}

describe('GIVEN a feed whose items include an empty page, plain text served as text/html and a page of 1,500 nested divs', () => {
  let site: LocalWebServer;
  let root: string;
  let folder: string;
  let library: Library;
  let poller: FeedPoller;
  let clock = Date.parse('2026-11-30T09:00:00Z');

  beforeAll(async () => {
    site = await startLocalWebServer({
      '/empty': serve('', 'text/html; charset=utf-8'),
      '/plain': serve(
        'This is not a web page.\nIt is plain text, served as text/html by a misconfigured server.\n',
        'text/html',
      ),
      '/nested': serve(nestedPage(1500), 'text/html; charset=utf-8'),
      '/harbour': serve(await readFile('test/fixtures/web/harbour-works.html'), 'text/html; charset=utf-8'),
    });
    site.routes.set('/feed.rss', serve(rss(site.origin), 'application/rss+xml'));
    root = await mkdtemp(join(tmpdir(), 'newsdesk-bad-items-'));
    folder = join(root, 'corpus');
    await cp('corpus', folder, { recursive: true });
    library = await Library.open(folder);
    const lifecycle = new CorpusLifecycle(library, { corpusPath: folder });
    poller = new FeedPoller({
      state: await FeedState.open(feedStatePath(folder)),
      store: lifecycle.store,
      editor: lifecycle.editor,
      articles: () => library.engine.corpus.articles,
      policy: { allowPrivate: false, trustedOrigins: [site.origin] },
      intervalMs: 15 * MINUTE,
      now: () => clock,
    });
    await poller.add(site.url('/feed.rss'), { id: '1', name: 'ann' });
  });

  afterAll(async () => {
    library?.engine.close();
    await site?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('WHEN it is polled THEN the good item is added, each bad one is recorded as unreadable with its reason, and the feed does not back off', async () => {
    const [report] = await poller.pollDue();
    expect(report).toMatchObject({
      status: 'polled',
      added: ['calais-harbour-works-delayed'],
      unreadable: 3,
    });
    const [record] = poller.list();
    expect(record).toMatchObject({
      errors: 0,
      itemsAdded: 1,
      nextPollAt: new Date(clock + 15 * MINUTE).toISOString(),
    });
    expect(record?.lastError).toBe(
      '3 items could not be read (not added, not tried again): ' +
        `${site.url('/nested')}: The page nests its elements more than 128 deep (a news page nests a few dozen); it was not read (EXTRACT_MAX_DEPTH).; ` +
        `${site.url('/plain')}: This page holds no article: the page is plain text, not HTML.; ` +
        `${site.url('/empty')}: This page holds no article: the page is empty.`,
    );
    for (const path of BAD) expect(record?.seen).toContain(site.url(path));
    expect(library.engine.article('calais-harbour-works-delayed')).toBeDefined();
  });

  it('THEN /feeds list shows the reasons', () => {
    const shown = JSON.stringify(renderFeedList(poller.list(), new Date(clock)));
    expect(shown).toContain('3 items could not be read');
    expect(shown).toContain('the page is plain text, not HTML');
  });

  it('WHEN it is polled again THEN the bad items are not fetched again and nothing fails', async () => {
    clock += 15 * MINUTE;
    const before = site.requests.length;
    const [report] = await poller.pollDue();
    expect(report).toMatchObject({ status: 'polled', added: [], unreadable: 0 });
    expect(site.requests.slice(before).map((request) => request.url)).toEqual(['/feed.rss']);
    expect(poller.list()[0]).toMatchObject({ errors: 0 });
    expect(poller.list()[0]?.lastError).toBeUndefined();
  });
});
