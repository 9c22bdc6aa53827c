import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { channelView } from '../../src/community/channel-settings.ts';
import { Community } from '../../src/community/community.ts';
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
