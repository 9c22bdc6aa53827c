import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { APIEmbed, APIInteraction, APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommunity } from '../../src/community/start-community.ts';
import { loadConfig } from '../../src/config.ts';
import { createDispatchContext } from '../../src/interactions/context.ts';
import { memoryLogger } from '../../src/interactions/logger.ts';
import type { Library } from '../../src/library.ts';
import { openLibrary } from '../../src/lifecycle/start-lifecycle.ts';
import { createInteractionServer } from '../../src/transports/http/server.ts';
import { restPoster } from '../../src/transports/rest-poster.ts';
import { copyOfBundledCorpus, LIGHTHOUSE } from '../lifecycle/fixtures/temp-corpus.ts';
import { botUser, ids, userMessage } from '../support/stand-in-discord/fixtures.ts';
import { button, chatInput } from '../support/stand-in-discord/interactions.ts';
import { StandInDiscord } from '../support/stand-in-discord/server.ts';
import { close, listen, send } from './support/http-client.ts';
import { Signer } from './support/signer.ts';

const reader = { userId: '500000000000000001', roles: [ids.memberRole] };

describe('GIVEN the HTTP endpoint with a community database, wired as `npm run start:http` wires it', () => {
  const signer = new Signer();
  let discord: StandInDiscord;
  let library: Library;
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
    const logger = memoryLogger();
    library = await openLibrary({ config, logger });
    const records = startCommunity({
      config,
      logger,
      poster: restPoster({ apiBase: config.DISCORD_API_BASE, token: discord.token }),
      onReloaded: (listener) => library.lifecycle?.onReloaded(listener) ?? (() => undefined),
    });
    const server = createInteractionServer({
      publicKey: signer.publicKeyHex,
      library,
      apiBase: config.DISCORD_API_BASE,
      context: createDispatchContext({
        library,
        config,
        logger,
        ...(records.community ? { community: records.community } : {}),
      }),
    });
    url = `${await listen(server)}/interactions`;
    stop = async () => {
      await close(server);
      records.stop();
      library.engine.close();
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

    await writeFile(path.join(library.corpusPath ?? '', 'gravelines-lighthouse-rescue.md'), LIGHTHOUSE);
    expect((await library.reload()).status).toBe('reloaded');
    const posts = () =>
      discord.requests.filter((request) => request.route === `/channels/${ids.channel}/messages`);
    const deadline = Date.now() + 15_000;
    while (posts().length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await library.reload()).status).toBe('reloaded');
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(posts()).toHaveLength(1);
    const [post] = posts();
    expect(post?.authorization).toBe(`Bot ${discord.token}`);
    const body = post?.body as { content: string; allowed_mentions: unknown };
    expect(body.allowed_mentions).toEqual({ parse: [], users: [reader.userId] });
    expect(body.content).toMatch(new RegExp(`^<@${reader.userId}> the archive now covers`));
  });
});
