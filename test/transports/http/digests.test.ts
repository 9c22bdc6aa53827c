import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIInteraction, APIMessage } from 'discord.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bootstrapped, bootstrap } from '../../../src/bootstrap.ts';
import { loadConfig } from '../../../src/config.ts';
import { memoryLogger } from '../../../src/logging/logger.ts';
import { createInteractionServer } from '../../../src/transports/http/server.ts';
import { restPoster } from '../../../src/transports/rest-poster.ts';
import { serversInstalled, startPostgres, type TestServer } from '../../support/servers.ts';
import { ids } from '../../support/stand-in-discord/fixtures.ts';
import { button, ChannelRef, chatInputSubcommand } from '../../support/stand-in-discord/interactions.ts';
import { StandInDiscord } from '../../support/stand-in-discord/server.ts';
import { DATED_CORPUS } from '../../support/temp-corpus.ts';
import { close, listen, send } from './support/http-client.ts';
import { Signer } from './support/signer.ts';

const moderator = { userId: '500000000000000002', roles: [ids.moderatorRole] };
const reader = { userId: '500000000000000001', roles: [ids.memberRole] };
/** 08:00 UTC on 1 June 2026. */
const DIGEST_TIME = Date.parse('2026-06-01T08:00:00Z');
const NEW = ['port-sale-wire.md', 'port-sale-courier.md', 'port-sale-gazette.md'];

/** One `npm run start:http` in this process: the shared bootstrap, its endpoint, posting through REST. */
interface Endpoint {
  app: Bootstrapped;
  url: string;
  stop(): Promise<void>;
}

/**
 * Two HTTP endpoints sharing one community database (`records`: DATA_DIR or DATABASE_URL), one folder
 * of articles and one test clock: two replicas, checking the same digest at the same moment.
 */
function twoReplicas(name: string, records: () => Promise<Record<string, string>>) {
  describe(`GIVEN two HTTP endpoints sharing ${name}, a test clock and a daily digest`, () => {
    const signer = new Signer();
    let discord: StandInDiscord;
    let root: string;
    let corpus: string;
    let replicas: Endpoint[];
    let clock = DIGEST_TIME - 60 * 60_000;

    const start = async (env: Record<string, string>): Promise<Endpoint> => {
      const config = loadConfig({
        DISCORD_PUBLIC_KEY: signer.publicKeyHex,
        DISCORD_TOKEN: discord.token,
        DISCORD_API_BASE: discord.apiBase,
        MODERATOR_ROLE_IDS: ids.moderatorRole,
        CORPUS_PATH: corpus,
        INDEX_CACHE_DIR: '',
        INDEX_THREAD: 'main',
        ...env,
      });
      const app = await bootstrap({
        config,
        logger: memoryLogger(),
        poster: restPoster({ apiBase: config.DISCORD_API_BASE, token: discord.token }),
        now: () => clock,
      });
      const server = createInteractionServer({
        publicKey: signer.publicKeyHex,
        library: app.library,
        apiBase: config.DISCORD_API_BASE,
        context: app.ctx,
      });
      const url = `${await listen(server)}/interactions`;
      return {
        app,
        url,
        stop: async () => {
          await close(server);
          await app.records.stop();
          app.library.engine.close();
        },
      };
    };

    beforeAll(async () => {
      discord = await StandInDiscord.start();
      root = await mkdtemp(path.join(tmpdir(), 'newsdesk-http-digests-'));
      corpus = path.join(root, 'corpus');
      await mkdir(corpus);
      await copyFile(
        path.join(DATED_CORPUS, 'dock-strike-begins.md'),
        path.join(corpus, 'dock-strike-begins.md'),
      );
      const env = { ...(await records()), DATA_DIR: path.join(root, 'data') };
      replicas = [await start(env), await start(env)];
    });
    afterAll(async () => {
      for (const replica of replicas ?? []) await replica.stop();
      await discord?.close();
      await rm(root, { recursive: true, force: true });
    });

    const interact = async (replica: Endpoint, raw: APIInteraction) => {
      const body = JSON.stringify(raw);
      const reply = await send(replica.url, { headers: signer.headersFor(body), body });
      expect(reply.status, reply.text).toBe(200);
      return JSON.parse(reply.text) as { type: number; data: Record<string, unknown> };
    };
    const posts = () =>
      discord.requests.filter(
        (request) => request.method === 'POST' && request.route === `/channels/${ids.channel}/messages`,
      );

    it('added over HTTP on one replica, the digest is sent once at its time though both check at once, through REST with the bot token', async () => {
      const added = await interact(
        replicas[0] as Endpoint,
        chatInputSubcommand(
          'digest',
          'add',
          { channel: new ChannelRef(ids.channel), every: 'day', at: '08:00' },
          moderator,
        ),
      );
      expect(added.data.content).toMatch(
        /^Digest \d+ set up: .* every day at 08:00 \(UTC\), next 2026-06-01 08:00\./,
      );
      clock += 30 * 60_000;
      for (const file of NEW) await copyFile(path.join(DATED_CORPUS, file), path.join(corpus, file));
      for (const replica of replicas) expect((await replica.app.lifecycle.reload()).status).toBe('reloaded');
      clock = DIGEST_TIME + 5_000;
      const sent = await Promise.all(replicas.map((replica) => replica.app.digests?.check()));
      expect(sent.reduce((sum = 0, n = 0) => sum + n, 0)).toBe(1);
      expect(posts()).toHaveLength(1);
      const [post] = posts();
      expect(post?.authorization).toBe(`Bot ${discord.token}`);
      const body = post?.body as {
        embeds: { title: string; fields: { name: string; value: string }[] }[];
        allowed_mentions: unknown;
      };
      expect(body.allowed_mentions).toEqual({ parse: [] });
      expect(body.embeds[0]?.title).toBe('Digest: 1 story, 3 new articles');
      expect(body.embeds[0]?.fields[0]?.value).toContain('Reported by 3 outlets.');
      // Checked again by either, later that day: nothing more.
      clock += 60 * 60_000;
      await Promise.all(replicas.map((replica) => replica.app.digests?.check()));
      expect(posts()).toHaveLength(1);
    });

    it('a "More" pressed on the other replica pages the same period', async () => {
      const message = [...discord.messages.values()].find((m: APIMessage) =>
        m.embeds[0]?.title?.startsWith('Digest:'),
      );
      if (!message) throw new Error('no digest message');
      // The period the first page covered: from the digest's creation to its time (one story fits that page).
      const digestId = Number(/digest (\d+),/.exec(message.embeds[0]?.footer?.text ?? '')?.[1]);
      const period = (DIGEST_TIME - 60 * 60_000).toString(36);
      expect(digestId).toBeGreaterThan(0);
      const answered = await interact(
        replicas[1] as Endpoint,
        button(message, `digest:more:${digestId}:${period}:${DIGEST_TIME.toString(36)}:0`, reader),
      );
      expect(answered.data.flags).toBe(64);
      expect(JSON.stringify(answered.data.embeds)).toContain(
        'Belgian operator buys Gravelines container terminal',
      );
      const past = await interact(
        replicas[1] as Endpoint,
        button(message, `digest:more:${digestId}:${period}:${DIGEST_TIME.toString(36)}:5`, reader),
      );
      expect(past.data.content).toMatch(/no longer in the archive/);
    });
  });
}

twoReplicas('one SQLite file (DATA_DIR)', async () => ({}));

describe.skipIf(!serversInstalled())('a real PostgreSQL server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server?.remove());
  twoReplicas('PostgreSQL (DATABASE_URL)', async () => {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE http_digests');
    await admin.end();
    return { DATABASE_URL: server.url.replace(/\/postgres$/, '/http_digests') };
  });
});
