import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import feedsCommand from '../../commands/feeds.ts';
import { loadConfig } from '../../src/config.ts';
import { FeedPoller } from '../../src/feeds/feed-poller.ts';
import { FeedState } from '../../src/feeds/feed-state.ts';
import { feedStatePath } from '../../src/feeds/start-feeds.ts';
import { createDispatchContext } from '../../src/interactions/context.ts';
import { type DispatchContext, dispatchInteraction } from '../../src/interactions/dispatch.ts';
import type {
  AutocompleteChoice,
  IncomingInteraction,
  ReplyPayload,
  Responder,
} from '../../src/interactions/incoming.ts';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import { Library } from '../../src/library.ts';
import { AuditLog } from '../../src/lifecycle/audit-log.ts';
import { CorpusLifecycle } from '../../src/lifecycle/corpus-lifecycle.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { startCoverageSite } from '../support/coverage-site.ts';
import type { LocalWebServer } from '../support/local-web-server.ts';

const MODERATOR_ROLE = '900000000000000001';
const moderator = {
  userId: '800000000000000001',
  userName: 'ann',
  guildId: '700000000000000001',
  memberRoleIds: [MODERATOR_ROLE],
  memberPermissions: 0n,
};
const member = { ...moderator, userId: '800000000000000002', memberRoleIds: [] };

describe('/feeds', () => {
  let site: LocalWebServer;
  let root: string;
  let library: Library;
  let ctx: DispatchContext;
  let poller: FeedPoller;

  beforeAll(async () => {
    site = await startCoverageSite();
    root = await mkdtemp(join(tmpdir(), 'newsdesk-feeds-cmd-'));
    const folder = join(root, 'corpus');
    await cp('corpus', folder, { recursive: true });
    library = await Library.open(folder);
    const lifecycle = new CorpusLifecycle(library, {
      corpusPath: folder,
      audit: new AuditLog({ logger: silentLogger }),
    });
    poller = new FeedPoller({
      state: await FeedState.open(feedStatePath(folder)),
      store: lifecycle.store,
      editor: lifecycle.editor,
      articles: () => library.engine.corpus.articles,
      policy: { allowPrivate: true },
      intervalMs: 15 * 60_000,
    });
    ctx = createDispatchContext({
      commands: [feedsCommand],
      library,
      config: loadConfig({ MODERATOR_ROLE_IDS: MODERATOR_ROLE }),
      logger: silentLogger,
      feeds: poller,
    });
  });

  afterAll(async () => {
    library?.engine.close();
    await site?.close();
    await rm(root, { recursive: true, force: true });
  });

  async function feeds(options: Record<string, unknown>, who = moderator): Promise<ReplyPayload> {
    const sent: ReplyPayload[] = [];
    const record = async (payload: ReplyPayload) => void sent.push(payload);
    const responder: Responder = {
      reply: record,
      defer: async () => undefined,
      editReply: record,
      update: record,
      deferUpdate: async () => undefined,
      autocomplete: async () => undefined,
    };
    const incoming = {
      kind: 'chat-input',
      commandName: 'feeds',
      options,
      id: `${Math.random()}`,
      ...who,
    } as IncomingInteraction;
    await dispatchInteraction(incoming, responder, ctx);
    const reply = sent.at(-1)!;
    expect(payloadViolations(reply)).toEqual([]);
    expect(reply.flags).toBe(64);
    return reply;
  }

  it('is for moderators only', async () => {
    expect((await feeds({ subcommand: 'list' }, member)).content).toMatch(
      /^Only moderators can use `\/feeds`/,
    );
  });

  it('adds a feed, says what it holds, and lists it with its last read, articles added and errors', async () => {
    expect((await feeds({ subcommand: 'list' })).content).toBe(
      'No feeds are followed. Add one with `/feeds add url:`.',
    );
    const added = await feeds({ subcommand: 'add', url: site.url('/feeds/france.rss') });
    expect(added.content).toMatch(
      /^Following \*\*The Channel Courier – France\*\* \(.*\): 2 items listed now\. It is read now and then every 15 minutes/,
    );
    await poller.pollDue();
    const listed = await feeds({ subcommand: 'list' });
    expect(listed.content).toBe('1 feed followed:');
    const field = listed.embeds?.[0]?.fields?.[0];
    expect(field?.name).toBe('The Channel Courier – France');
    expect(field?.value).toMatch(
      /Last read: <t:\d+:R> · next: <t:\d+:R>\nArticles added: 2 · added by ann\nNo errors$/,
    );
  });

  it('suggests followed feed URLs to moderators typing /feeds remove url:, and nothing to other members', async () => {
    const typing = async (who: typeof moderator): Promise<AutocompleteChoice[]> => {
      let offered: AutocompleteChoice[] | undefined;
      const responder: Responder = {
        reply: async () => undefined,
        defer: async () => undefined,
        editReply: async () => undefined,
        update: async () => undefined,
        deferUpdate: async () => undefined,
        autocomplete: async (choices) => {
          offered = choices;
        },
      };
      const incoming = {
        kind: 'autocomplete',
        commandName: 'feeds',
        options: { subcommand: 'remove', url: 'feeds' },
        focused: { name: 'url', value: 'feeds' },
        id: `${Math.random()}`,
        ...who,
      } as IncomingInteraction;
      await dispatchInteraction(incoming, responder, ctx);
      return offered ?? [];
    };
    expect((await typing(moderator)).map((choice) => choice.value)).toEqual([site.url('/feeds/france.rss')]);
    expect(await typing(member)).toEqual([]);
  });

  it('refuses a link that is not a feed, and removing a feed that is not followed, in plain words', async () => {
    expect((await feeds({ subcommand: 'add', url: site.url('/feeds/broken.xml') })).content).toBe(
      'The feed was not added: This is not a feed the bot can read (RSS, Atom or JSON Feed): it is malformed.',
    );
    expect((await feeds({ subcommand: 'remove', url: 'https://nowhere.example/feed' })).content).toBe(
      'No followed feed has the link `https://nowhere.example/feed`.',
    );
  });

  it('removes a feed, keeping its articles', async () => {
    const removed = await feeds({ subcommand: 'remove', url: site.url('/feeds/france.rss') });
    expect(removed.content).toMatch(/^Stopped following .*\. The articles it brought stay in the corpus\.$/);
    expect(library.engine.article('dunkirk-opens-winter-shelter-for-400-migrants')).toBeDefined();
    expect((await feeds({ subcommand: 'list' })).content).toBe(
      'No feeds are followed. Add one with `/feeds add url:`.',
    );
  });
});
