import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { APIEmbed, APIInteraction, APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bootstrapped, bootstrap } from '../../../src/bootstrap.ts';
import { loadConfig } from '../../../src/config.ts';
import { memoryLogger } from '../../../src/logging/logger.ts';
import { createInteractionServer } from '../../../src/transports/http/server.ts';
import { restPoster } from '../../../src/transports/rest-poster.ts';
import { botUser, ids, userMessage } from '../../support/stand-in-discord/fixtures.ts';
import { button, chatInput } from '../../support/stand-in-discord/interactions.ts';
import { StandInDiscord } from '../../support/stand-in-discord/server.ts';
import { copyOfBundledCorpus, LIGHTHOUSE } from '../../support/temp-corpus.ts';
import { close, listen, send } from './support/http-client.ts';
import { Signer } from './support/signer.ts';

const reader = { userId: '500000000000000001', roles: [ids.memberRole] };

describe('GIVEN the HTTP endpoint with a community database, started as `npm run start:http` starts it', () => {
  const signer = new Signer();
  let discord: StandInDiscord;
  let app: Bootstrapped;
  let corpus: string;
  let url: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    discord = await StandInDiscord.start();
    const copy = await copyOfBundledCorpus();
    const config = loadConfig({
      DISCORD_PUBLIC_KEY: signer.publicKeyHex,
      DISCORD_TOKEN: discord.token,
      DISCORD_API_BASE: discord.apiBase,
      CORPUS_PATH: copy.corpus,
      INDEX_CACHE_DIR: '',
      DATA_DIR: path.join(copy.root, 'data'),
    });
    corpus = copy.corpus;
    // As `npm run start:http` starts: the shared bootstrap, posting through REST with the bot token.
    app = await bootstrap({
      config,
      logger: memoryLogger(),
      poster: restPoster({ apiBase: config.DISCORD_API_BASE, token: discord.token }),
    });
    const server = createInteractionServer({
      publicKey: signer.publicKeyHex,
      library: app.library,
      apiBase: config.DISCORD_API_BASE,
      context: app.ctx,
    });
    url = `${await listen(server)}/interactions`;
    stop = async () => {
      await close(server);
      app.records.stop();
      app.library.engine.close();
      await discord.close();
      await copy.cleanup();
    };
  });
  afterAll(() => stop?.());

  const interact = async (raw: APIInteraction) => {
    const body = JSON.stringify(raw);
    const reply = await send(url, { headers: signer.headersFor(body), body });
    expect(reply.status, reply.text).toBe(200);
    return JSON.parse(reply.text) as {
      type: number;
      data: { content?: string; embeds?: APIEmbed[]; components?: { components: { custom_id: string }[] }[] };
    };
  };

  it('Notify me is taken over HTTP, and after a reload the answer is posted through REST with the bot token, once', async () => {
    const asked = await interact(
      chatInput('ask', { question: 'Who rescued the kayakers off Gravelines?' }, reader),
    );
    expect(asked.data.content).toMatch(/No coverage found/);
    const customIds = (asked.data.components ?? []).flatMap((row) => row.components.map((c) => c.custom_id));
    expect(customIds).toContain('ask:watch');
    const message: APIMessage = {
      ...userMessage('600000000000000001', asked.data.content ?? '', botUser),
      embeds: asked.data.embeds ?? [],
    };
    const watched = await interact(button(message, 'ask:watch', reader));
    expect(watched.data.content).toMatch(/^Watching\./);

    await writeFile(path.join(corpus, 'gravelines-lighthouse-rescue.md'), LIGHTHOUSE);
    expect((await app.lifecycle.reload()).status).toBe('reloaded');
    const posts = () =>
      discord.requests.filter((request) => request.route === `/channels/${ids.channel}/messages`);
    const deadline = Date.now() + 15_000;
    while (posts().length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await app.lifecycle.reload()).status).toBe('reloaded');
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(posts()).toHaveLength(1);
    const [post] = posts();
    expect(post?.authorization).toBe(`Bot ${discord.token}`);
    const body = post?.body as { content: string; allowed_mentions: unknown };
    expect(body.allowed_mentions).toEqual({ parse: [], users: [reader.userId] });
    expect(body.content).toMatch(new RegExp(`^<@${reader.userId}> the archive now covers`));
  });

  it('a public answer is followed through the webhook’s copy of its message; a reload that edits its cited paragraph replies to it once, through REST', async () => {
    const raw = chatInput(
      'ask',
      { question: 'How much did the migrant spend traveling from Syria?' },
      reader,
    );
    const asked = await interact(raw);
    expect(asked.type).toBe(4);
    // Discord creates the message from the HTTP response; the endpoint then reads its id back.
    const message = discord.answeredOverHttp(raw, asked).message as APIMessage;
    const deadline = Date.now() + 15_000;
    while (!app.records.community?.citations.isFollowed(message.id) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(app.records.community?.citations.isFollowed(message.id)).toBe(true);

    const file = path.join(corpus, 'teteghem-mayor-threatened-with-gun.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('$18,000', '$16,000'));
    expect((await app.lifecycle.reload()).status).toBe('reloaded');
    const replies = () =>
      discord.requests.filter(
        (request) =>
          (request.body as { message_reference?: { message_id?: string } } | undefined)?.message_reference
            ?.message_id === message.id,
      );
    while (replies().length === 0 && Date.now() < deadline + 15_000)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(replies()).toHaveLength(1);
    expect(replies()[0]?.authorization).toBe(`Bot ${discord.token}`);
    expect((replies()[0]?.body as { content?: string } | undefined)?.content).toContain(
      '~~$18,000~~ __$16,000__',
    );
  });
});
