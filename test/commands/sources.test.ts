import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sources from '../../commands/sources.ts';
import { loadConfig } from '../../src/config.ts';
import type { CommandContext } from '../../src/interactions/command.ts';
import type { ButtonIncoming, ReplyPayload } from '../../src/interactions/incoming.ts';
import { finalizeReply, payloadViolations } from '../../src/interactions/render/payload.ts';
import { Library } from '../../src/library.ts';
import { memoryLogger } from '../../src/logging/logger.ts';
import { sharedData } from '../support/shared-data.ts';

/** 24 articles, one a month from January 2014, and one undated: three pages of /sources. */
let folder: string;
let ctx: CommandContext;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'newsdesk-sources-'));
  for (let i = 0; i < 24; i += 1) {
    const month = `${2014 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
    await writeFile(
      path.join(folder, `report-${month}.md`),
      `---\ntitle: Harbour report for ${month}\npublisher: Gazette\npublished: ${month}-15\n---\nCargo moved.\n`,
    );
  }
  await writeFile(path.join(folder, 'undated.md'), '---\ntitle: Harbour history\n---\nOld cargo.\n');
  ctx = {
    library: await Library.open(folder),
    config: loadConfig({}),
    logger: memoryLogger(),
    startedAt: new Date(0),
    now: () => new Date(0),
  };
});
afterAll(() => rm(folder, { recursive: true, force: true }));

const ids = (reply: ReplyPayload) =>
  [...(reply.embeds?.[0]?.description ?? '').matchAll(/`([^`]+)`$/gm)].map((m) => m[1]);

describe('/sources by date', () => {
  it('orders newest or oldest first, undated last, and jumps to a page', async () => {
    const newest = await sources.execute(ctx, { query: '', order: 'newest' });
    expect(ids(newest).slice(0, 2)).toEqual(['report-2015-12', 'report-2015-11']);
    const last = await sources.execute(ctx, { query: '', order: 'oldest', page: 3 });
    expect(ids(last)).toEqual([
      'report-2015-09',
      'report-2015-10',
      'report-2015-11',
      'report-2015-12',
      'undated',
    ]);
    expect(last.embeds?.[0]?.footer?.text).toBe(
      'Page 3 of 3 · /cite <article>#<paragraph> quotes a paragraph\nOrder: oldest',
    );
    expect(payloadViolations(finalizeReply(last))).toEqual([]);
  });

  it('lists only a period, inclusive, leaving undated articles out, and its page buttons keep it', async () => {
    const reply = await sources.execute(ctx, {
      query: 'harbour',
      since: '2014-03',
      until: '2015-02-15',
      order: 'newest',
    });
    expect(reply.embeds?.[0]?.title).toBe(
      'Sources matching “harbour” published from 2014-03 until 2015-02-15: 12 of 25',
    );
    expect(ids(reply)[0]).toBe('report-2015-02');
    const press: ButtonIncoming = {
      id: '1',
      userId: 'u',
      userName: 'ann',
      guildId: 'g',
      memberRoleIds: [],
      memberPermissions: 0n,
      kind: 'button',
      customId: 'sources:page:1:harbour',
      message: { id: 'm', content: '', embeds: reply.embeds ?? [] },
    };
    const next = await sources.buttons['sources:page'].execute(ctx, ['1', 'harbour'], press);
    expect('update' in next && ids(next.update)).toEqual(['report-2014-04', 'report-2014-03']);
  });

  it('refuses a bound that is not a year, month or date in plain words', async () => {
    await expect(sources.execute(ctx, { query: '', until: 'now' })).rejects.toThrow(
      "Until must be a year (2003), a month (2015-08) or a date (2015-08-01); got 'now'.",
    );
  });
});

describe('/sources searches article text too', { tags: ['shared-data'] }, () => {
  let bbc: CommandContext;
  let bbcFolder: string;

  beforeAll(async () => {
    // BBC articles from the shared data: one about Mittal Steel whose headline does not name it.
    const lines = (await readFile(sharedData('bbc'), 'utf8')).split('\n');
    bbcFolder = await mkdtemp(path.join(tmpdir(), 'newsdesk-sources-text-'));
    await writeFile(path.join(bbcFolder, 'bbc.jsonl'), `${lines.slice(0, 60).join('\n')}\n`);
    bbc = { ...ctx, library: await Library.open(bbcFolder) };
  });
  afterAll(() => rm(bbcFolder, { recursive: true, force: true }));

  it('/sources mittal finds the article about Mittal Steel by its text, after title matches', async () => {
    const reply = await sources.execute(bbc, { query: 'mittal' });
    expect(ids(reply)).toEqual(['bbc-business-027']);
    expect(reply.embeds?.[0]?.description).toContain("Steel firm 'to cut' 45,000 jobs");
    expect(reply.embeds?.[0]?.title).toBe('Sources matching “mittal”: 1 of 60');
  });

  it('every word of the query must be in the text; a word in no article finds nothing', async () => {
    const both = await sources.execute(bbc, { query: 'Mittal jobs' });
    expect(ids(both)).toEqual(['bbc-business-027']);
    const none = await sources.execute(bbc, { query: 'mittal zeppelin' });
    expect(ids(none)).toEqual([]);
    expect(none.embeds?.[0]?.description).toBe('No article matches; try fewer words.');
  });
});
