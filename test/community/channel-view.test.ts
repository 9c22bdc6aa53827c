import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { channelView, SETTINGS_READ_TIMEOUT_MS } from '../../src/community/channel-settings.ts';
import { Community } from '../../src/community/community.ts';
import { PostgresCommunity } from '../../src/community/postgres-community.ts';
import { RecordKeeper } from '../../src/community/record-keeper.ts';
import { memoryLogger } from '../../src/logging/logger.ts';

let dir: string;
let community: Community;
let keeper: RecordKeeper;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'newsdesk-view-'));
  community = Community.open({ file: path.join(dir, 'newsdesk.sqlite') });
  keeper = new RecordKeeper({ store: community, logger: memoryLogger(), askTimeoutMs: 500 });
});
afterEach(() => {
  try {
    community.close();
  } catch {
    // closed by the test
  }
  rmSync(dir, { recursive: true, force: true });
});

const here = { guildId: 'g', channelId: 'c' };
const defaults = { threadMode: false, visibility: 'public', outlets: [] };

describe('GIVEN the settings a command reads where it answers', () => {
  it('WHEN nothing is stored, the bot stores nothing or it is a direct message THEN the defaults, answered everywhere', async () => {
    expect(await channelView(keeper, here)).toEqual({ settings: defaults, answerChannels: [] });
    expect(await channelView(undefined, here)).toEqual({ settings: defaults, answerChannels: [] });
    community.settings.change(here, { threadMode: true }, new Date());
    expect(await channelView(keeper, { guildId: null, channelId: 'dm' })).toEqual({
      settings: defaults,
      answerChannels: [],
    });
  });

  it('WHEN the database stops answering THEN the channel and its guild keep the settings last read, not none', async () => {
    community.settings.change(here, { outlets: ['The Wire'] }, new Date());
    community.settings.addAnswerChannel({ guildId: 'g', channelId: 'news' }, new Date());
    const read = await channelView(keeper, here);
    expect(read).toEqual({
      settings: { threadMode: false, visibility: 'public', outlets: ['The Wire'] },
      answerChannels: ['news'],
    });
    community.close();
    expect(await channelView(keeper, here)).toEqual(read);
    // A channel never read before gets the defaults, and its guild's answer channels as last read.
    expect(await channelView(keeper, { guildId: 'g', channelId: 'other' })).toEqual({
      settings: defaults,
      answerChannels: ['news'],
    });
  });
});

describe('GIVEN a PostgreSQL server that accepts connections and never answers', () => {
  let server: Server;
  const sockets: Socket[] = [];
  let port = 0;
  beforeEach(async () => {
    server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('WHEN a question reads its channel’s settings THEN it waits the short settings timeout, not the keeper’s, and gets the defaults', async () => {
    const stalled = new PostgresCommunity({ url: `postgres://newsdesk:secret@127.0.0.1:${port}/newsdesk` });
    const slowKeeper = new RecordKeeper({ store: stalled, logger: memoryLogger(), askTimeoutMs: 10_000 });
    const started = Date.now();
    const read = await Promise.race([
      channelView(slowKeeper, here),
      new Promise<'keeper timeout'>((resolve) => setTimeout(() => resolve('keeper timeout'), 8_000)),
    ]);
    expect(read).toEqual({ settings: defaults, answerChannels: [] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(SETTINGS_READ_TIMEOUT_MS - 50);
    void stalled.close().catch(() => undefined);
  });
});
