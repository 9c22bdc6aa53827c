import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import { type LocalWebServer, serve, startLocalWebServer } from '../support/local-web-server.ts';
import { nestedPage } from '../support/nested-page.ts';
import { ids } from '../support/stand-in-discord/fixtures.ts';
import { button, chatInput, chatInputSubcommand } from '../support/stand-in-discord/interactions.ts';
import { customIdsOf, type Harness, member, moderator, startHarness, textOf } from './harness.ts';

const EPHEMERAL = 64;
const ID = 'dunkirk-opens-winter-shelter-for-400-migrants';
/** Private from the first response on: the reply itself, or the deferral when fetching took a while. */
const isPrivate = (exchange: { callbacks: { data?: { flags?: number } }[] }) =>
  ((exchange.callbacks[0]?.data?.flags ?? 0) & EPHEMERAL) === EPHEMERAL;
const isOutcome = (data: Record<string, unknown>) => !String(data.content ?? '').startsWith('Adding ');

describe('GIVEN a moderator adding a news page by its link with /corpus add url:, through the real discord.js client', () => {
  let harness: Harness;
  let folder: string;
  let site: LocalWebServer;
  let link: string;

  beforeAll(async () => {
    site = await startLocalWebServer({
      '/news/dunkirk-shelter': serve(
        await readFile('test/fixtures/web/news-article.html'),
        'text/html; charset=utf-8',
      ),
      '/france': serve(await readFile('test/fixtures/web/section-front.html'), 'text/html; charset=utf-8'),
    });
    link = site.url('/news/dunkirk-shelter?ref=home');
    folder = await mkdtemp(join(tmpdir(), 'newsdesk-add-url-'));
    await cp('corpus', folder, { recursive: true });
    // The test site is on 127.0.0.1: allowed here, as on an intranet.
    harness = await startHarness({
      corpusPath: folder,
      env: {
        MODERATOR_ROLE_IDS: ids.moderatorRole,
        FETCH_ALLOW_PRIVATE: 'true',
        RATE_LIMIT_QUESTIONS: '100',
      },
    });
  });

  afterAll(async () => {
    await harness?.stop();
    await site?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('WHEN the link is given THEN a private preview shows the extracted article, its metadata and its id from the canonical URL', async () => {
    const asked = harness.discord.interact(chatInputSubcommand('corpus', 'add', { url: link }, moderator));
    const { data } = await asked.final();
    expect(isPrivate(asked)).toBe(true);
    expect(payloadViolations(data)).toEqual([]);
    expect(String(data.content)).toMatch(/^Add this article to the corpus\?/);
    const text = textOf(data);
    expect(text).toContain('Dunkirk opens winter shelter for 400 migrants after council vote');
    expect(text).toContain('The Channel Courier · 2026-11-28 · by Claire Vasseur, Tom Ashby');
    expect(text).toContain(`id \`${ID}\` · file \`${ID}.md\` · 8 paragraphs`);
    expect(text).toContain("Dunkirk's urban council voted on Friday evening");
    expect(text).not.toContain('cookies');
    expect(site.requests.at(-1)?.headers['user-agent']).toMatch(/^NewsdeskBot\//);

    const [confirm] = customIdsOf(data);
    const pressed = harness.discord.interact(button(asked.message as APIMessage, confirm!, moderator));
    const outcome = await pressed.final({ until: isOutcome, timeoutMs: 60_000 });
    expect(String(outcome.data.content)).toMatch(new RegExp(`^Added \`${ID}\`\\.\\nReloaded in `));

    const stored = await readFile(join(folder, `${ID}.md`), 'utf8');
    expect(stored).toContain(`url: "${link}"`);
    expect(stored).toContain('title: "Dunkirk opens winter shelter for 400 migrants after council vote"');
  });

  it('WHEN a member then asks THEN the answer cites the new article with its date and link', async () => {
    const { data } = await harness.discord
      .interact(chatInput('ask', { question: 'How much will the Dunkirk winter shelter cost?' }, member))
      .final();
    const text = textOf(data);
    expect(text).toContain('€1.2m');
    expect(text).toContain(`The Channel Courier, 2026-11-28 · [link](<${link}>) · cite \`${ID}#2\``);
  });

  it('WHEN the same article is added again THEN a replace is offered', async () => {
    const { data } = await harness.discord
      .interact(chatInputSubcommand('corpus', 'add', { url: site.url('/news/dunkirk-shelter') }, moderator))
      .final();
    expect(String(data.content)).toMatch(new RegExp(`^\\*\\*Replace\\*\\* the existing article \`${ID}\``));
  });

  it('WHEN the link is a page with no article THEN it is refused in plain words and nothing changes', async () => {
    const version = harness.library.engine.version;
    const { data } = await harness.discord
      .interact(chatInputSubcommand('corpus', 'add', { url: site.url('/france') }, moderator))
      .final();
    expect(String(data.content)).toContain(
      'The link was not added: This page does not look like a news article: no body of several paragraphs was found on it.',
    );
    expect(harness.library.engine.version).toBe(version);
  });
});

describe('GIVEN the bot with private addresses not allowed (the default)', () => {
  let harness: Harness;
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'newsdesk-add-url-'));
    await cp('corpus', folder, { recursive: true });
    harness = await startHarness({ corpusPath: folder, env: { MODERATOR_ROLE_IDS: ids.moderatorRole } });
  });

  afterAll(async () => {
    await harness?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  it('WHEN a link to the cloud metadata address is given THEN it is refused with the reason, privately', async () => {
    const asked = harness.discord.interact(
      chatInputSubcommand('corpus', 'add', { url: 'http://169.254.169.254/latest/meta-data/' }, moderator),
    );
    const { data } = await asked.final();
    expect(isPrivate(asked)).toBe(true);
    expect(String(data.content)).toContain(
      'The link was not added: 169.254.169.254 leads to 169.254.169.254, a private, local or reserved address; the bot only fetches from the public internet.',
    );
  });

  it('WHEN both a file and a link, or neither, are given THEN it says to give one', async () => {
    const { data } = await harness.discord
      .interact(chatInputSubcommand('corpus', 'add', {}, moderator))
      .final();
    expect(String(data.content)).toContain(
      'Give either a `file` to upload or a `url` to fetch (one of the two).',
    );
  });
});

describe('GIVEN a link to a page of deeply nested divs (issue 31), with the depth bound raised to 1,000 and a 1.5 s time limit', () => {
  let harness: Harness;
  let folder: string;
  let site: LocalWebServer;

  beforeAll(async () => {
    site = await startLocalWebServer({
      '/nested-1500': serve(nestedPage(1500), 'text/html; charset=utf-8'),
      '/nested-900': serve(nestedPage(900), 'text/html; charset=utf-8'),
    });
    folder = await mkdtemp(join(tmpdir(), 'newsdesk-add-url-'));
    await cp('corpus', folder, { recursive: true });
    harness = await startHarness({
      corpusPath: folder,
      env: {
        MODERATOR_ROLE_IDS: ids.moderatorRole,
        FETCH_ALLOW_PRIVATE: 'true',
        RATE_LIMIT_QUESTIONS: '100',
        EXTRACT_MAX_DEPTH: '1000',
        EXTRACT_TIME_LIMIT_MS: '1500',
      },
    });
  });

  afterAll(async () => {
    await harness?.stop();
    await site?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('WHEN the page is deeper than the bound THEN it is refused at once, in plain words, before it is parsed', async () => {
    const started = performance.now();
    const { data } = await harness.discord
      .interact(chatInputSubcommand('corpus', 'add', { url: site.url('/nested-1500') }, moderator))
      .final();
    expect(String(data.content)).toBe(
      'The link was not added: The page nests its elements more than 1000 deep (a news page nests a few dozen); it was not read (EXTRACT_MAX_DEPTH).',
    );
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("WHEN the page is within the bound but slow to read THEN another member's /ask is answered meanwhile, and the reading is ended at the time limit", async () => {
    const started = performance.now();
    const adding = harness.discord
      .interact(chatInputSubcommand('corpus', 'add', { url: site.url('/nested-900') }, moderator))
      .final({ until: isOutcome, timeoutMs: 60_000 })
      .then((reply) => ({ reply, at: performance.now() - started }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const asked = await harness.discord
      .interact(chatInput('ask', { question: 'Who threatened the mayor of Teteghem?' }, member))
      .final();
    const askedAt = performance.now() - started;
    const added = await adding;
    expect(textOf(asked.data)).toContain('Teteghem');
    // Reading 900 nested divs takes Readability tens of seconds; on the serving thread the question
    // waited for all of them. Off it, the question is answered while the page is being read.
    expect(askedAt).toBeLessThan(added.at);
    expect(String(added.reply.data.content)).toBe(
      'The link was not added: Reading the page took longer than 1.5 s; it was given up (EXTRACT_TIME_LIMIT_MS).',
    );
    expect(added.at).toBeLessThan(15_000);
  });
});
