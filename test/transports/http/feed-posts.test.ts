import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { APIEmbed, APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { articlePage, rss } from '../../support/feed-site.ts';
import { type LocalWebServer, startLocalWebServer } from '../../support/local-web-server.ts';
import { ids } from '../../support/stand-in-discord/fixtures.ts';
import { ChannelRef, chatInputSubcommand } from '../../support/stand-in-discord/interactions.ts';
import { StandInDiscord } from '../../support/stand-in-discord/server.ts';
import { copyOfBundledCorpus } from '../../support/temp-corpus.ts';
import { send } from './support/http-client.ts';
import { Signer } from './support/signer.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const MAIN = join(ROOT, 'src', 'transports', 'http', 'main.ts');
/** tsx's loader by absolute URL: the child runs in a folder of its own, where `tsx` does not resolve. */
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const moderator = { userId: '500000000000000002', roles: [ids.moderatorRole] };

// A cold start through tsx took 30 s on the shared machine at load 25 (see main.test.ts).
describe('GIVEN `npm run start:http` as a process, with a bot token, against the stand-in Discord', {
  timeout: 90_000,
}, () => {
  const signer = new Signer();
  let discord: StandInDiscord;
  let site: LocalWebServer;
  let corpus: { root: string; corpus: string; cleanup: () => Promise<void> };
  let child: ChildProcessByStdio<null, null, Readable>;
  let url: string;

  beforeAll(async () => {
    discord = await StandInDiscord.start();
    site = await startLocalWebServer();
    site.routes.set('/a/1', (_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(1, 'Ferry')),
    );
    site.routes.set('/ferry.rss', (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/rss+xml' })
        .end(rss('Ferry Times', site.origin, [{ n: 1, topic: 'Ferry' }])),
    );
    corpus = await copyOfBundledCorpus();
    child = spawn(process.execPath, ['--import', TSX, MAIN], {
      // A folder of its own, so no developer's .env supplies settings.
      cwd: corpus.root,
      env: {
        PATH: process.env.PATH ?? '',
        DISCORD_PUBLIC_KEY: signer.publicKeyHex,
        DISCORD_TOKEN: discord.token,
        DISCORD_API_BASE: discord.apiBase,
        MODERATOR_ROLE_IDS: ids.moderatorRole,
        CORPUS_PATH: corpus.corpus,
        INDEX_CACHE_DIR: '',
        DATA_DIR: '',
        HTTP_PORT: '0',
        FETCH_ALLOW_PRIVATE: 'true',
        FEED_POLL_MINUTES: '60',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    url = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stderr.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const line = text.split('\n').find((entry) => entry.includes('HTTP interactions endpoint listening'));
        if (line) resolve((JSON.parse(line) as { url: string }).url.replace('0.0.0.0', '127.0.0.1'));
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${text}`)));
    });
  }, 90_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    await site?.close();
    await discord?.close();
    await corpus?.cleanup();
  });

  it('WHEN a moderator follows a feed with channel:#news over HTTP THEN its new article is posted there through REST with the bot token', async () => {
    const raw = chatInputSubcommand(
      'feeds',
      'add',
      { url: site.url('/ferry.rss'), channel: new ChannelRef(ids.channel) },
      moderator,
    );
    const exchange = discord.expectOverHttp(raw);
    const body = JSON.stringify(raw);
    const reply = await send(url, { headers: signer.headersFor(body), body });
    expect(reply.status, reply.text).toBe(200);
    discord.answeredOverHttp(raw, JSON.parse(reply.text));
    const { data } = await exchange.final();
    expect(String(data.content)).toMatch(/Each new article is posted in <#300000000000000001>/);
    const post = await vi.waitFor(
      () => {
        const found = discord
          .messagesIn(ids.channel)
          .find((message: APIMessage) => message.embeds[0]?.title === 'Ferry story 1');
        if (!found) throw new Error('no post yet');
        return found;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(post.embeds[0] as APIEmbed).toMatchObject({
      url: site.url('/a/1'),
      author: { name: 'Feed Test Gazette' },
    });
    const request = discord.requests.find(
      (r) => r.method === 'POST' && r.route === `/channels/${ids.channel}/messages`,
    );
    expect(request?.authorization).toBe(`Bot ${discord.token}`);
  });
});
