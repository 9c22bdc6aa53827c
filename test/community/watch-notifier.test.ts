import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Community } from '../../src/community/community.ts';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { WatchNotifier } from '../../src/interactions/watch-notifier.ts';
import { memoryLogger } from '../../src/logging/logger.ts';
import { Engine } from '../../src/search/engine.ts';
import { restPoster } from '../../src/transports/rest-poster.ts';
import { ids } from '../support/stand-in-discord/fixtures.ts';
import { StandInDiscord } from '../support/stand-in-discord/server.ts';
import { copyOfBundledCorpus, LIGHTHOUSE } from '../support/temp-corpus.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const WATCHER = '800000000000000001';

describe('GIVEN two HTTP-endpoint replicas sharing one database, posting through REST with the bot token', () => {
  let discord: StandInDiscord;
  let dir: string;
  let engine: Engine;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    discord = await StandInDiscord.start();
    dir = mkdtempSync(path.join(tmpdir(), 'newsdesk-notifier-'));
    const copy = await copyOfBundledCorpus();
    cleanup = copy.cleanup;
    await writeFile(path.join(copy.corpus, 'gravelines-lighthouse-rescue.md'), LIGHTHOUSE);
    engine = Engine.build(await loadCorpus(copy.corpus));
  });

  afterAll(async () => {
    await discord.close();
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('both check after the same reload; the answer is posted once, authorised by the bot token', async () => {
    const file = path.join(dir, 'newsdesk.sqlite');
    const replicas = [Community.open({ file }), Community.open({ file })];
    const [first, second] = replicas as [Community, Community];
    first.watches.add({
      userId: WATCHER,
      guildId: ids.guild,
      channelId: ids.channel,
      question: 'Who rescued the kayakers off Gravelines?',
      at: new Date(),
    });
    first.watches.add({
      userId: '800000000000000009',
      guildId: ids.guild,
      channelId: ids.channel,
      question: 'When does the Dunkirk ferry strike end?',
      at: new Date(),
    });
    const notifiers = replicas.map(
      (community) =>
        new WatchNotifier({
          community,
          logger: memoryLogger(),
          poster: restPoster({ apiBase: discord.apiBase, token: discord.token }),
        }),
    );
    const posted = await Promise.all(notifiers.map((notifier) => notifier.check(engine)));
    expect(posted.reduce((sum, n) => sum + n, 0)).toBe(1);

    const posts = discord.requests.filter((request) => request.route === `/channels/${ids.channel}/messages`);
    expect(posts).toHaveLength(1);
    expect(posts[0]?.authorization).toBe(`Bot ${discord.token}`);
    expect((posts[0]?.body as { allowed_mentions?: unknown } | undefined)?.allowed_mentions).toEqual({
      parse: [],
      users: [WATCHER],
    });
    // The unanswered watch stays, the answered one is gone, and the posted answer counts as answered.
    expect(second.watches.due(new Date()).map((watch) => watch.question)).toEqual([
      'When does the Dunkirk ferry strike end?',
    ]);
    expect(second.records.countsSince(new Date(0)).answered).toBe(1);
    for (const community of replicas) community.close();
  });

  it('`npm run gaps -- --json` prints the report the moderators see, from the same file', () => {
    const file = path.join(dir, 'gaps', 'newsdesk.sqlite');
    const community = Community.open({ file });
    for (const question of ['When will the bridge reopen?', 'bridge reopening date', 'who won the marathon'])
      community.records.recordUnanswered({
        guildId: 'g',
        channelId: 'c',
        question,
        askedAt: new Date(),
        corpusVersion: 'v',
      });
    community.close();
    const run = (args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/gaps.ts', ...args], {
        cwd: REPO,
        encoding: 'utf8',
        env: { ...process.env, DATA_DIR: path.dirname(file) },
      });
    const json = run(['--json', '--days', '7']);
    expect(json.status).toBe(0);
    const report = JSON.parse(json.stdout) as {
      days: number;
      unanswered: number;
      groups: { count: number; words: string[] }[];
    };
    expect(report.days).toBe(7);
    expect(report.unanswered).toBe(3);
    expect(report.groups.map((group) => [group.count, group.words])).toEqual([
      [2, ['bridge', 'reopening', 'date']],
      [1, ['won', 'marathon']],
    ]);
    const text = run([]);
    expect(text.stdout).toMatch(/Questions without coverage: 3 asked, in 2 groups/);
    expect(text.stdout).toMatch(/ {2}1\. 2x {2}"bridge reopening date"/);
    const missing = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/gaps.ts'], {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: path.join(dir, 'nowhere') },
    });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/no database at .*nowhere.*newsdesk\.sqlite yet/);
  }, 120_000);
});
