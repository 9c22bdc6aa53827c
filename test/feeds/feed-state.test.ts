import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FeedState } from '../../src/feeds/feed-state.ts';

describe('FeedState', () => {
  let root: string | undefined;
  afterEach(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  const record = (url: string) => ({
    url,
    addedBy: 'moderator',
    addedAt: '2026-11-20T08:00:00.000Z',
    errors: 0,
    nextPollAt: '2026-11-20T08:00:00.000Z',
    itemsAdded: 0,
    seen: [],
  });

  // The poller refreshes before each poll (at start-up, and after each `/feeds add`); a moderator's
  // change made while that read is under way was once overwritten by the older file it read, in
  // memory at once and on disk at the next write.
  it('keeps a change made while a refresh is reading the file, in memory and on disk', async () => {
    root = await mkdtemp(join(tmpdir(), 'newsdesk-feed-state-'));
    const path = join(root, 'corpus.feeds.json');
    const state = await FeedState.open(path);
    await state.put(record('https://example.org/a.rss'));
    for (let round = 0; round < 20; round++) {
      const channel = `3000000000000000${String(round).padStart(2, '0')}`;
      const refreshed = state.refresh();
      const changed = state.putSettings({ alertsChannelId: channel });
      const added = state.put(record(`https://example.org/${round}.rss`));
      await Promise.all([refreshed, changed, added]);
      expect(state.settings()).toEqual({ alertsChannelId: channel });
      expect(state.get(`https://example.org/${round}.rss`)).toBeDefined();
    }
    await state.put(record('https://example.org/last.rss'));
    const file = JSON.parse(await readFile(path, 'utf8')) as { feeds: unknown[]; settings: unknown };
    expect(file.settings).toEqual({ alertsChannelId: '300000000000000019' });
    expect(file.feeds).toHaveLength(22);
  });

  // Replicas (REDIS_URL) share the file: each change reads it again, then writes it whole. Two
  // replicas changing different feeds at once once lost one change: the second write was of a file
  // read before the first was written.
  it('keeps changes two replicas make at the same moment, each to its own feed', async () => {
    root = await mkdtemp(join(tmpdir(), 'newsdesk-feed-state-'));
    const path = join(root, 'corpus.feeds.json');
    const a = await FeedState.open(path, { shared: true });
    const b = await FeedState.open(path, { shared: true });
    await a.put(record('https://example.org/a.rss'));
    await b.put(record('https://example.org/b.rss'));
    for (let round = 0; round < 20; round++) {
      await Promise.all([
        a.update('https://example.org/a.rss', (feed) => ({ ...feed, seen: [...feed.seen, `a-${round}`] })),
        b.update('https://example.org/b.rss', (feed) => ({ ...feed, seen: [...feed.seen, `b-${round}`] })),
        b.putSettings({ alertsChannelId: `3000000000000000${String(round).padStart(2, '0')}` }),
      ]);
    }
    const file = JSON.parse(await readFile(path, 'utf8')) as {
      feeds: { url: string; seen: string[] }[];
      settings: unknown;
    };
    const seen = (url: string) => file.feeds.find((feed) => feed.url === url)?.seen;
    expect(seen('https://example.org/a.rss')).toEqual(Array.from({ length: 20 }, (_, n) => `a-${n}`));
    expect(seen('https://example.org/b.rss')).toEqual(Array.from({ length: 20 }, (_, n) => `b-${n}`));
    expect(file.settings).toEqual({ alertsChannelId: '300000000000000019' });
  });
});
