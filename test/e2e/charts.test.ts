import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERIES_COLOURS } from '../../src/chart/palette.ts';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import { inkShare, pixelsOf } from '../support/png.ts';
import { ids } from '../support/stand-in-discord/fixtures.ts';
import { button, chatInput } from '../support/stand-in-discord/interactions.ts';
import { DATED_CORPUS } from '../support/temp-corpus.ts';
import { barsTotal, chartOf, listed } from './chart-replies.ts';
import { type Harness, member, moderator, startHarness, textOf } from './harness.ts';

const EPHEMERAL = 64;

describe('GIVEN the bot on the dated fixture (a dock strike and a port sale, 1987-2016), logged in to the stand-in Discord', () => {
  let harness: Harness;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'newsdesk-charts-'));
    harness = await startHarness({
      corpusPath: DATED_CORPUS,
      env: { RATE_LIMIT_QUESTIONS: '100', DATA_DIR: dataDir, MODERATOR_ROLE_IDS: ids.moderatorRole },
    });
  });

  afterAll(async () => {
    await harness?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const send = (interaction: Parameters<Harness['discord']['interact']>[0]) =>
    harness.discord.interact(interaction);

  it('/timeline attaches an 800x400 PNG whose bars add up to the dated articles listed, the undated counted in words', async () => {
    const exchange = send(chatInput('timeline', { topic: 'Gravelines' }, member));
    const { data, files } = await exchange.final();
    expect(payloadViolations(data)).toEqual([]);
    const { upload, attachment, png, alt } = await chartOf(exchange, files, data);
    expect(upload.filename).toBe('timeline.png');
    expect(upload.contentType).toBe('image/png');
    expect([attachment.width, attachment.height]).toEqual([800, 400]);
    expect(attachment.size).toBeLessThan(10 * 1024 * 1024);
    expect([png.width, png.height]).toEqual([800, 400]);
    expect(inkShare(png)).toBeGreaterThan(0.05);
    // The data behind the picture: 9 dated articles listed, 9 counted by the bars, by outlet.
    expect(listed(data)).toEqual({ dated: 9, undated: 1 });
    expect(barsTotal(alt)).toBe(9);
    expect(alt).toBe(
      'Bar chart: Gravelines, 1987 – 2016. 9 dated articles per year, by outlet. Totals: Harbour Gazette 3, Coastal Courier 3, Wire 2, publisher unknown 1 (9 in all). Bars: 1987 1, 2003 2, 2015 3, 2016 3. First report 26 Feb 1987. 1 undated article is listed but not drawn.',
    );
    // Four outlets, four colours in the picture.
    for (const colour of SERIES_COLOURS.slice(0, 4))
      expect(pixelsOf(png, colour), colour).toBeGreaterThan(100);
  });

  it('the next page shows the same chart, and the message keeps only the new upload', async () => {
    const first = send(chatInput('timeline', { topic: 'Gravelines' }, member));
    const { files: before } = await first.final();
    const press = send(button(first.message as APIMessage, 'timeline:page:1', member));
    const { data, files } = await press.final();
    expect(payloadViolations(data)).toEqual([]);
    expect(textOf(data)).toContain('Page 2 of 2');
    expect(files[0]?.data.equals(before[0]!.data)).toBe(true);
    const message = harness.discord.messages.get((first.message as APIMessage).id)!;
    expect(message.attachments.map((a) => a.filename)).toEqual(['timeline.png']);
  });

  it("an answer's Timeline button opens the timeline with its chart, privately", async () => {
    const asked = send(
      chatInput('ask', { question: "What's the latest on the Gravelines dock strike?" }, member),
    );
    await asked.final();
    const press = send(button(asked.message as APIMessage, 'ask:timeline', member));
    const { data, files } = await press.final();
    expect((data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    const { alt, png } = await chartOf(press, files, data);
    expect(listed(data)).toEqual({ dated: 6, undated: 1 });
    expect(barsTotal(alt)).toBe(6);
    expect([png.width, png.height]).toEqual([800, 400]);
  });

  it('a topic whose coverage is all undated gets the text reply and a line saying there is nothing to draw, no picture', async () => {
    const exchange = send(chatInput('timeline', { topic: 'ferries' }, member));
    const { data, files } = await exchange.final();
    expect(files).toEqual([]);
    expect(String(data.content)).toBe(
      'Coverage of “ferries” in date order:\nNo chart: none of these articles is dated, so there is nothing to draw.',
    );
    expect(textOf(data)).toContain('cite `dock-strike-undated#1`');
    expect((exchange.message as APIMessage).attachments).toEqual([]);
  });

  it('a topic with no coverage at all: "No coverage found", nothing to draw', async () => {
    const { data, files } = await send(
      chatInput('timeline', { topic: 'lighthouse keepers' }, member),
    ).final();
    expect(files).toEqual([]);
    expect(String(data.content)).toMatch(
      /^\*\*No coverage found\*\* for “lighthouse keepers”.*\nNo chart: there is nothing to draw\.$/,
    );
  });

  it('/about attaches the articles per month as an 800x200 strip', async () => {
    const exchange = send(chatInput('about', {}, member));
    const { data, files } = await exchange.final();
    expect(payloadViolations(data)).toEqual([]);
    const { png, alt, upload } = await chartOf(exchange, files, data);
    expect(upload.filename).toBe('articles.png');
    expect([png.width, png.height]).toEqual([800, 200]);
    const articles = harness.library.engine.articles();
    expect(barsTotal(alt)).toBe(articles.filter((article) => article.published !== null).length);
    expect(alt).toMatch(/^Bar chart: Articles per year, 1987 – 2016\./);
  });

  it('/gaps attaches moderators the questions without coverage per week, by subject', async () => {
    for (const question of [
      'Gravelines bridge reopening date',
      'is the bridge at Gravelines reopened yet',
      'kayak rescue Gravelines',
    ])
      await send(chatInput('ask', { question }, member)).final();
    const exchange = send(chatInput('gaps', { days: 30 }, moderator));
    const { data, files } = await exchange.final();
    expect((data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    expect(payloadViolations(data)).toEqual([]);
    const { png, alt, upload } = await chartOf(exchange, files, data);
    expect(upload.filename).toBe('gaps.png');
    expect([png.width, png.height]).toEqual([800, 400]);
    const unanswered = Number(/\((\d+) asked\)/.exec(textOf(data))?.[1]);
    expect(unanswered).toBeGreaterThanOrEqual(3);
    expect(barsTotal(alt)).toBe(unanswered);
    expect(alt).toMatch(/per week, by subject/);
  });
});
