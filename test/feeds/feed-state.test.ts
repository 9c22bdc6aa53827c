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
});
