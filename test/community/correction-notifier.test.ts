import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Community } from '../../src/community/community.ts';
import { startCommunity } from '../../src/community/start-community.ts';
import type { Article } from '../../src/corpus/article.ts';
import { loadCorpus, makeCorpus } from '../../src/corpus/load-corpus.ts';
import { CorrectionNotifier } from '../../src/interactions/correction-notifier.ts';
import { memoryLogger } from '../../src/logging/logger.ts';
import { Engine } from '../../src/search/engine.ts';
import { restPoster } from '../../src/transports/rest-poster.ts';
import { botUser, ids, userMessage } from '../support/stand-in-discord/fixtures.ts';
import { StandInDiscord } from '../support/stand-in-discord/server.ts';

const TETEGHEM = 'teteghem-mayor-threatened-with-gun';
const DAY = 24 * 60 * 60 * 1000;

describe('GIVEN answers whose citations are followed in a real database file, and the stand-in Discord', () => {
  let discord: StandInDiscord;
  let dir: string;
  let articles: Article[];
  let before: Engine;
  let edited: Engine;

  beforeAll(async () => {
    discord = await StandInDiscord.start();
    dir = mkdtempSync(path.join(tmpdir(), 'newsdesk-corrections-'));
    articles = (await loadCorpus('corpus')).articles;
    before = Engine.build(makeCorpus(articles));
    const changed = structuredClone(articles);
    const passage = changed.find((a) => a.id === TETEGHEM)!.passages[4]!;
    passage.text = passage.text.replace('$18,000', '$16,000');
    edited = Engine.build(makeCorpus(changed));
  });

  afterAll(async () => {
    await discord.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A public answer posted as `messageId` at `at`, citing `citations` as `before` served them. */
  const answered = (community: Community, messageId: string, at: Date, citations: string[]) => {
    discord.messages.set(messageId, {
      ...userMessage(messageId, 'an answer', botUser),
      channel_id: ids.channel,
    });
    community.citations.follow({
      interactionId: `interaction-${messageId}`,
      guildId: ids.guild,
      channelId: ids.channel,
      citedAt: at,
      passages: citations.map((citation) => {
        const found = before.passage(citation)!;
        return {
          citation,
          articleId: found.article.id,
          paragraph: found.passage.paragraph,
          text: found.passage.text,
        };
      }),
    });
    community.citations.attachMessage(`interaction-${messageId}`, messageId);
  };
  const repliesTo = (messageId: string) =>
    discord.requests.filter(
      (request) =>
        request.method === 'POST' &&
        (request.body as { message_reference?: { message_id?: string } }).message_reference?.message_id ===
          messageId,
    );

  it('two replicas checking the same reload reply once; a later reload or a restart sends nothing more; an answer older than 30 days is not followed', async () => {
    const file = path.join(dir, 'replicas.sqlite');
    const now = new Date();
    const replicas = [Community.open({ file }), Community.open({ file })] as const;
    answered(replicas[0], '700000000000000001', now, [`${TETEGHEM}#5`, `${TETEGHEM}#2`]);
    answered(replicas[0], '700000000000000002', new Date(now.getTime() - 31 * DAY), [`${TETEGHEM}#5`]);
    // Cited, but its message id never came: nothing to reply to.
    replicas[0].citations.follow({
      interactionId: 'never-posted',
      guildId: ids.guild,
      channelId: ids.channel,
      citedAt: now,
      passages: [{ citation: `${TETEGHEM}#5`, articleId: TETEGHEM, paragraph: 5, text: 'Old words.' }],
    });
    const notifier = (community: Community) =>
      new CorrectionNotifier({
        community,
        poster: restPoster({ apiBase: discord.apiBase, token: discord.token }),
        logger: memoryLogger(),
      });
    const posted = await Promise.all(replicas.map((community) => notifier(community).check(edited)));
    expect(posted.reduce((a, b) => a + b, 0)).toBe(1);
    const [reply, ...more] = repliesTo('700000000000000001');
    expect(more).toEqual([]);
    expect(reply?.authorization).toBe(`Bot ${discord.token}`);
    expect(reply?.route).toBe(`/channels/${ids.channel}/messages`);
    const body = reply?.body as { content: string; allowed_mentions: unknown };
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.content).toContain('~~$18,000~~ __$16,000__');
    // The unchanged paragraph of the same answer is not mentioned.
    expect(body.content).not.toContain(`${TETEGHEM}#2`);
    expect(repliesTo('700000000000000002')).toEqual([]);

    expect(await notifier(replicas[1]).check(edited)).toBe(0);
    for (const community of replicas) community.close();
    const restarted = Community.open({ file });
    expect(await notifier(restarted).check(edited)).toBe(0);
    restarted.close();
    expect(repliesTo('700000000000000001')).toHaveLength(1);
  });

  it('a reply that fails (the answer was deleted) is tried again at the next reload, and given up after three failures', async () => {
    const community = Community.open({ file: path.join(dir, 'failing.sqlite') });
    answered(community, '700000000000000003', new Date(), [`${TETEGHEM}#5`]);
    discord.messages.delete('700000000000000003');
    const logger = memoryLogger();
    const notifier = new CorrectionNotifier({
      community,
      poster: restPoster({ apiBase: discord.apiBase, token: discord.token }),
      logger,
    });
    for (let attempt = 0; attempt < 4; attempt++) expect(await notifier.check(edited)).toBe(0);
    expect(repliesTo('700000000000000003')).toHaveLength(3);
    expect(community.citations.due(new Date(0))).toEqual([]);
    community.close();
  });

  it('without a way to post (the HTTP endpoint without DISCORD_TOKEN), start-up says corrections will not be posted', () => {
    const logger = memoryLogger();
    const running = startCommunity({
      config: { DATA_DIR: path.join(dir, 'no-token'), RECORD_QUESTIONS: true, RECORD_DAYS: 90 },
      logger,
      onReloaded: () => () => undefined,
    });
    expect(running.community).toBeDefined();
    expect(logger.events).toContainEqual({
      level: 'warn',
      message:
        'watched questions and corrections to cited answers will not be posted: set DISCORD_TOKEN so the bot can post in channels',
    });
    running.stop();
  });
});
