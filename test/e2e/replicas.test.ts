// @module-tag several-hosts (starts real PostgreSQL and Redis servers: skipped where they are not installed, run in CI)
// Issue 29's "Done when", end to end: two `npm run start:http` replicas (real processes) sharing one
// corpus folder, one PostgreSQL and one Redis (real servers on private ports), Discord's signed
// requests (real Ed25519) spread over both, Discord's REST API played by the stand-in.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIInteraction, APIMessage } from 'discord.js';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedStatePath } from '../../src/feeds/start-feeds.ts';
import { startCoverageSite } from '../support/coverage-site.ts';
import type { LocalWebServer } from '../support/local-web-server.ts';
import { bodyAndHeaders, type HttpAnswer, Replica } from '../support/replica.ts';
import { serversInstalled, startPostgres, startRedis, type TestServer } from '../support/servers.ts';
import { ids } from '../support/stand-in-discord/fixtures.ts';
import {
  button,
  chatInput,
  chatInputSubcommand,
  type Sender,
} from '../support/stand-in-discord/interactions.ts';
import { StandInDiscord } from '../support/stand-in-discord/server.ts';
import { copyOfBundledCorpus, LIGHTHOUSE } from '../support/temp-corpus.ts';
import { Signer } from '../transports/http/support/signer.ts';

const EPHEMERAL = 64;
const moderator: Sender = { userId: '800000000000000002', roles: [ids.moderatorRole] };
const sender = (n: number): Sender => ({
  userId: `80000000000000${String(1000 + n)}`,
  roles: [ids.memberRole],
});
const ANSWERED = 'Who threatened the mayor of Teteghem?';
const UNCOVERED = 'Who won the Dunkirk marathon?';

async function until<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
  what: string,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

const textOf = (data: Record<string, unknown> | undefined) => JSON.stringify(data ?? {});
const isPrivate = (answer: HttpAnswer) => ((answer.body.data?.flags as number | undefined) ?? 0) & EPHEMERAL;
const isAnswer = (answer: HttpAnswer) =>
  answer.status === 200 &&
  answer.body.type === 4 &&
  !isPrivate(answer) &&
  textOf(answer.body.data).includes('cite `');

describe.skipIf(!serversInstalled())(
  'GIVEN two HTTP replicas sharing one corpus folder, one PostgreSQL and one Redis',
  () => {
    const signer = new Signer();
    let postgres: TestServer;
    let redis: TestServer;
    let discord: StandInDiscord;
    let site: LocalWebServer;
    let root: string;
    let corpus: string;
    let cleanupCorpus: () => Promise<void>;
    let db: pg.Pool;
    let a: Replica;
    let b: Replica;
    let feedUrl: string;

    beforeAll(async () => {
      [postgres, redis, discord, site] = await Promise.all([
        startPostgres(),
        startRedis(),
        StandInDiscord.start(),
        startCoverageSite(),
      ]);
      const copy = await copyOfBundledCorpus();
      corpus = copy.corpus;
      cleanupCorpus = copy.cleanup;
      root = await mkdtemp(path.join(tmpdir(), 'newsdesk-replicas-'));
      feedUrl = site.url('/feeds/france.rss');
      // A followed feed, due now: the replica holding the lease polls it as it starts.
      const now = new Date().toISOString();
      await writeFile(
        feedStatePath(corpus),
        JSON.stringify({
          version: 1,
          feeds: [
            {
              url: feedUrl,
              addedBy: 'test',
              addedAt: now,
              errors: 0,
              nextPollAt: now,
              itemsAdded: 0,
              seen: [],
            },
          ],
        }),
      );
      db = new pg.Pool({ connectionString: postgres.url });
      // The test stops the server: an idle connection it drops then is not the test's failure.
      db.on('error', () => undefined);
      const env = (name: string) => ({
        DISCORD_PUBLIC_KEY: signer.publicKeyHex,
        DISCORD_TOKEN: discord.token,
        DISCORD_API_BASE: discord.apiBase,
        CORPUS_PATH: corpus,
        INDEX_CACHE_DIR: '',
        INDEX_WORKERS: '1',
        DATA_DIR: path.join(root, name),
        DATABASE_URL: postgres.url,
        REDIS_URL: redis.url,
        FETCH_ALLOW_PRIVATE: 'true',
        MODERATOR_ROLE_IDS: ids.moderatorRole,
        RATE_LIMIT_QUESTIONS: '4',
        RATE_LIMIT_WINDOW_SECONDS: '60',
        LOG_LEVEL: 'info',
      });
      [a, b] = await Promise.all([Replica.start('A', env('a')), Replica.start('B', env('b'))]);
    }, 180_000);

    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await db?.end();
      await Promise.all([postgres?.remove(), redis?.remove(), discord?.close(), site?.close()]);
      await cleanupCorpus?.();
      await rm(root, { recursive: true, force: true });
    });

    /** Sends a signed interaction to one replica and returns its HTTP answer and the stand-in's exchange. */
    const send = async (replica: Replica, raw: APIInteraction) => {
      const exchange = discord.expectOverHttp(raw);
      const answer = await replica.interact(signer, raw);
      if (answer.status === 200) discord.answeredOverHttp(raw, answer.body as { type: number });
      return { answer, exchange };
    };
    const ask = (replica: Replica, question: string, who: Sender) =>
      send(replica, chatInput('ask', { question }, who));
    const versions = async () =>
      Promise.all(
        [a, b].map(
          async (r) => (await r.get('/healthz')).body.corpus as { version: string; articles: number },
        ),
      );
    const holder = () =>
      [a, b].find(
        (r) =>
          r.running &&
          r.logged(/^this replica holds the newsdesk:lease:feeds lease/).length >
            r.logged(/no longer holds/).length,
      );
    const feedPolls = (replica: Replica) => replica.logged(/^feed polled$/).length;
    const records = async () =>
      Number(
        (
          await db.query<{ n: number }>(
            'SELECT (SELECT COUNT(*) FROM answers) + (SELECT COUNT(*) FROM unanswered) AS n',
          )
        ).rows[0]?.n,
      );

    it('a feed is polled by one replica only, and what it adds is served by both (a reload announced)', async () => {
      const polled = await until(() => holder(), 30_000, 'a replica holding the feed lease');
      await until(() => (feedPolls(polled) > 0 ? true : undefined), 30_000, 'the first poll');
      // Both serve the articles the poll added: the other replica reloaded on the announcement.
      const [first, second] = await until(
        async () => {
          const both = await versions();
          return both[0]?.articles === 5 && both[0]?.version === both[1]?.version ? both : undefined;
        },
        30_000,
        'both replicas serving the polled articles',
      );
      expect(first?.version).toBe(second?.version);
      const other = polled === a ? b : a;
      expect(feedPolls(other)).toBe(0);
      expect(site.requests.filter((request) => request.url === '/feeds/france.rss')).toHaveLength(1);
    }, 90_000);

    it('a vote cast on replica A appears in /gaps on replica B', async () => {
      const { answer, exchange } = await ask(a, ANSWERED, sender(1));
      expect(isAnswer(answer)).toBe(true);
      const message = exchange.message as APIMessage;
      const down = (textOf(answer.body.data).match(/ask:vote:0:[^"]+/) ?? [])[0] as string;
      const voted = await send(a, button(message, down, sender(1)));
      expect(textOf(voted.answer.body.data)).toMatch(/you marked this answer not helpful/);
      const gaps = await send(b, chatInput('gaps', { days: 7 }, moderator));
      expect(isPrivate(gaps.answer)).toBeTruthy();
      expect(textOf(gaps.answer.body.data)).toMatch(
        /1 not helpful, 0 helpful: “Who threatened the mayor of Teteghem\?”/,
      );
    });

    it('a member’s burst spread over both replicas is limited as if by one', async () => {
      const burst = sender(2);
      const answers: HttpAnswer[] = [];
      for (let i = 0; i < 8; i += 1)
        answers.push((await ask(i % 2 === 0 ? a : b, `${ANSWERED} (${i})`, burst)).answer);
      expect(answers.map(isAnswer)).toEqual([true, true, true, true, false, false, false, false]);
      for (const refused of answers.slice(4))
        expect(textOf(refused.body.data)).toMatch(/asking faster than I can keep up/);
    });

    it('a request replayed to the other replica is refused', async () => {
      const raw = chatInput('ask', { question: ANSWERED }, sender(3));
      const sent = bodyAndHeaders(signer, raw);
      discord.expectOverHttp(raw);
      expect((await a.interact(signer, raw, sent)).status).toBe(200);
      const replayed = await b.interact(signer, raw, sent);
      expect(replayed.status).toBe(401);
      expect(replayed.body.error).toBe('request already received');
    });

    it('an article added with /corpus add on A is served by B within a few seconds', async () => {
      const preview = await send(
        a,
        chatInputSubcommand('corpus', 'add', { url: site.url('/harbour') }, moderator),
      );
      const previewData = (await preview.exchange.final({ timeoutMs: 20_000 })).data;
      const confirm = (textOf(previewData).match(/corpus:confirm[^"]*/) ?? [])[0] as string;
      expect(confirm).toBeTruthy();
      const pressed = await send(a, button(preview.exchange.message as APIMessage, confirm, moderator));
      const outcome = await pressed.exchange.final({
        until: (data) => !String(data.content ?? '').startsWith('Adding '),
        timeoutMs: 30_000,
      });
      expect(String(outcome.data.content)).toMatch(/^Added `calais-harbour-works-delayed`\./);
      const added = Date.now();
      let n = 0;
      await until(
        async () => {
          n += 1;
          const { answer } = await ask(b, 'Why are the Calais harbour works delayed?', sender(100 + n));
          return textOf(answer.body.data).includes('calais-harbour-works-delayed#') ? true : undefined;
        },
        10_000,
        'B citing the added article',
      );
      const seconds = (Date.now() - added) / 1000;
      process.stdout.write(`replicas e2e: /corpus add on A served by B after ${seconds.toFixed(1)} s\n`);
      expect(seconds).toBeLessThan(10);
    }, 90_000);

    it('an edit of a cited paragraph yields exactly one correction reply, and a watched question one post, though both replicas reload', async () => {
      const raw = chatInput(
        'ask',
        { question: 'How much did the migrant spend traveling from Syria?' },
        sender(4),
      );
      const { answer, exchange } = await send(a, raw);
      expect(isAnswer(answer)).toBe(true);
      const message = exchange.message as APIMessage;
      await until(
        async () =>
          Number(
            (await db.query('SELECT COUNT(*) AS n FROM cited_passages WHERE message_id = $1', [message.id]))
              .rows[0]?.n,
          ) > 0
            ? true
            : undefined,
        15_000,
        'the answer followed in PostgreSQL',
      );
      const unanswered = await ask(b, 'Who rescued the kayakers off Gravelines?', sender(5));
      const watched = await send(
        a,
        button(unanswered.exchange.message as APIMessage, 'ask:watch', sender(5)),
      );
      expect(textOf(watched.answer.body.data)).toMatch(/Watching\./);

      const file = path.join(corpus, 'teteghem-mayor-threatened-with-gun.md');
      await writeFile(file, (await readFile(file, 'utf8')).replace('$18,000', '$16,000'));
      await writeFile(path.join(corpus, 'gravelines-lighthouse-rescue.md'), LIGHTHOUSE);
      const reload = await send(b, chatInput('reload', {}, moderator));
      await reload.exchange.final({
        until: (data) => !String(data.content ?? '').startsWith('Reloading'),
        timeoutMs: 30_000,
      });
      const corrections = () =>
        discord.requests.filter(
          (request) =>
            (request.body as { message_reference?: { message_id?: string } } | undefined)?.message_reference
              ?.message_id === message.id,
        );
      const watchPosts = () =>
        discord.requests.filter(
          (request) =>
            request.method === 'POST' &&
            request.route === `/channels/${ids.channel}/messages` &&
            String((request.body as { content?: string }).content).startsWith(`<@${sender(5).userId}>`),
        );
      await until(
        () => (corrections().length > 0 && watchPosts().length > 0 ? true : undefined),
        30_000,
        'the posts',
      );
      // Both replicas have reloaded and checked by now; give a second post every chance to appear.
      await until(
        async () => {
          const [x, y] = await versions();
          return x?.version === y?.version ? true : undefined;
        },
        20_000,
        'both on the new version',
      );
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(corrections()).toHaveLength(1);
      expect((corrections()[0]?.body as { content?: string } | undefined)?.content).toContain(
        '~~$18,000~~ __$16,000__',
      );
      expect(watchPosts()).toHaveLength(1);
    }, 120_000);

    it('with Redis stopped mid-run every /ask is answered, /healthz names Redis, and it recovers by itself', async () => {
      await redis.stop();
      const answers = [];
      for (let i = 0; i < 4; i += 1)
        answers.push((await ask(i % 2 === 0 ? a : b, ANSWERED, sender(200 + i))).answer);
      expect(answers.every(isAnswer)).toBe(true);
      const health = (await a.get('/healthz')).body as {
        status: string;
        dependencies: { name: string; status: string }[];
      };
      expect(health.status).toBe('degraded');
      expect(health.dependencies).toContainEqual(
        expect.objectContaining({ name: 'redis', status: 'degraded' }),
      );
      expect(health.dependencies).toContainEqual(expect.objectContaining({ name: 'database', status: 'ok' }));
      await redis.start();
      await until(
        async () =>
          (await a.get('/healthz')).body.status === 'ok' && (await b.get('/healthz')).body.status === 'ok'
            ? true
            : undefined,
        20_000,
        'both healthy again',
      );
    }, 60_000);

    it('with PostgreSQL stopped mid-run every /ask is answered, /healthz names the database, and nothing recorded is lost once it returns', async () => {
      const before = await records();
      await postgres.stop();
      const answers = [];
      for (let i = 0; i < 6; i += 1) {
        const question = i % 2 === 0 ? ANSWERED : `${UNCOVERED} (${i})`;
        answers.push((await ask(i % 3 === 0 ? a : b, question, sender(300 + i))).answer);
      }
      expect(
        answers.every((answer) => answer.status === 200 && answer.body.type === 4 && !isPrivate(answer)),
      ).toBe(true);
      const health = (await b.get('/healthz')).body as {
        status: string;
        dependencies: { name: string; kind: string; status: string; pending?: number }[];
      };
      expect(health.status).toBe('degraded');
      const database = health.dependencies.find((dependency) => dependency.name === 'database');
      expect(database).toMatchObject({ kind: 'postgres', status: 'degraded' });
      expect(database?.pending).toBeGreaterThan(0);
      await postgres.start();
      await until(
        async () => {
          const both = await Promise.all(
            [a, b].map(async (r) => (await r.get('/healthz')).body as typeof health),
          );
          return both.every((h) => h.status === 'ok') ? true : undefined;
        },
        30_000,
        'both writing again',
      );
      const after = await records();
      process.stdout.write(
        `replicas e2e: records before the outage ${before}, asked during it 6, after it ${after}\n`,
      );
      expect(after - before).toBe(6);
    }, 90_000);

    it('when the replica polling the feed dies, the other takes the lease over and polls', async () => {
      // Redis's outage above may have moved the lease: whoever holds it now (Redis says) is stopped.
      const keys = new Redis(redis.url);
      const leaseHolder = async () => {
        const value = await keys.get('newsdesk:lease:feeds');
        return [a, b].find((replica) => replica.running && value?.startsWith(`${replica.pid}:`));
      };
      const polled = await until(leaseHolder, 30_000, 'a replica holding the feed lease');
      const other = polled === a ? b : a;
      const [pollsBefore, fetchesBefore] = [
        feedPolls(other),
        site.requests.filter((r) => r.url === '/feeds/france.rss').length,
      ];
      await polled.stop('SIGKILL');
      // Due again (rather than waiting FEED_POLL_MINUTES): written as the dead replica would have left it.
      const state = JSON.parse(await readFile(feedStatePath(corpus), 'utf8')) as {
        feeds: { nextPollAt: string }[];
      };
      for (const feed of state.feeds) feed.nextPollAt = new Date(Date.now() - 1000).toISOString();
      await writeFile(feedStatePath(corpus), JSON.stringify(state));
      await until(
        () => (feedPolls(other) > pollsBefore ? true : undefined),
        40_000,
        'the other replica polling',
      );
      expect(await leaseHolder()).toBe(other);
      keys.disconnect();
      expect(site.requests.filter((request) => request.url === '/feeds/france.rss')).toHaveLength(
        fetchesBefore + 1,
      );
      // The other replica answers on as before.
      expect(isAnswer((await ask(other, ANSWERED, sender(400))).answer)).toBe(true);
    }, 60_000);
  },
);
