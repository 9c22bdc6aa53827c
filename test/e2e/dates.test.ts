import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import { button, chatInput } from '../support/stand-in-discord/interactions.ts';
import { DATED_CORPUS } from '../support/temp-corpus.ts';
import { customIdsOf, type Harness, member, startHarness, textOf } from './harness.ts';

const EPHEMERAL = 64;

describe('GIVEN the bot on a dated corpus (a dock strike, 1987-2015), logged in to the stand-in Discord', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness({ corpusPath: DATED_CORPUS, env: { RATE_LIMIT_QUESTIONS: '100' } });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const send = (interaction: Parameters<Harness['discord']['interact']>[0]) =>
    harness.discord.interact(interaction);
  const citedArticles = (data: Record<string, unknown>) =>
    new Set([...textOf(data).matchAll(/cite `([^`#]+)#/g)].map((match) => match[1]));

  it('/ask cites every passage with its date, and undated articles as undated', async () => {
    const { data } = await send(
      chatInput('ask', { question: 'Gravelines dock strike', limit: 5 }, member),
    ).final();
    const text = textOf(data);
    expect(text).toContain('— Channel Notes, undated · cite `dock-strike-undated#1`');
    expect(text).toMatch(/— (Harbour Gazette|Coastal Courier|Wire), (2003|2015)-\d\d-\d\d · cite/);
  });

  it('/ask since and until answer only from that period, inclusive, and say so; More results keeps it', async () => {
    const first = send(
      chatInput(
        'ask',
        { question: 'Gravelines dock strike', since: '2003', until: '2003', limit: 1 },
        member,
      ),
    );
    const { data } = await first.final();
    expect(payloadViolations(data)).toEqual([]);
    expect(String(data.content)).toBe(
      'One passage answers your question among articles published from 2003 to 2003:',
    );
    expect(textOf(data)).toContain('Since: 2003\nUntil: 2003');
    expect(customIdsOf(data)).toContain('ask:more:1:1');
    const seen = citedArticles(data);
    for (let offset = 1; offset < 3; offset += 1) {
      const { data: page } = await send(
        button(first.message as APIMessage, `ask:more:${offset}:1`, member),
      ).final();
      for (const article of citedArticles(page)) seen.add(article);
    }
    expect(seen).toEqual(new Set(['dock-strike-begins', 'dock-strike-talks']));
  });

  it('a period with no coverage says "No coverage found" for that period', async () => {
    const { data } = await send(
      chatInput('ask', { question: 'Gravelines dock strike', since: '2010', until: '2014-06' }, member),
    ).final();
    expect(String(data.content)).toContain(
      '**No coverage found** among articles published from 2010 to 2014-06 for “Gravelines dock strike”',
    );
  });

  it('a since that is not a year, month or date is refused privately, in plain words', async () => {
    const { data } = await send(
      chatInput('ask', { question: 'Gravelines dock strike', since: 'last week' }, member),
    ).final();
    expect((data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    expect(String(data.content)).toBe(
      "Since must be a year (2003), a month (2015-08) or a date (2015-08-01); got 'last week'.",
    );
  });

  it('/timeline lists the coverage oldest first, one line per article, first report marked, undated apart, paged by buttons', async () => {
    const first = send(chatInput('timeline', { topic: 'Gravelines' }, member));
    const { data } = await first.final();
    expect(payloadViolations(data)).toEqual([]);
    expect(String(data.content)).toBe('Coverage of “Gravelines” in date order:');
    const lines = String((data.embeds as { description: string }[])[0]?.description).split('\n');
    expect(lines).toHaveLength(8);
    expect(lines[0]).toBe(
      '**1987-02-26** · publisher unknown · “Dock workers at the French port of **Gravelines** went on strike over pay, port officials said.” · cite `wire-1987#1` · **first report**',
    );
    expect(lines[1]).toMatch(/^\*\*2003-03-10\*\* · Harbour Gazette · “.*” · cite `dock-strike-begins#1`$/);
    expect(textOf(data)).toContain(
      'Topic: Gravelines\nPage 1 of 2 · 9 dated articles, 1 undated, oldest first',
    );
    expect(customIdsOf(data)).toEqual([
      'timeline:page:-1',
      'timeline:page:1',
      `ask:dismiss:${member.userId}`,
    ]);
    const { data: second } = await send(
      button(first.message as APIMessage, 'timeline:page:1', member),
    ).final();
    expect(payloadViolations(second)).toEqual([]);
    const rest = String((second.embeds as { description: string }[])[0]?.description).split('\n');
    expect(rest[0]).toContain('cite `port-sale-gazette#1`');
    expect(rest[1]).toBe('**Undated** (when these appeared is not known):');
    expect(rest[2]).toMatch(/^Channel Notes · “Ferry passengers .*” · cite `dock-strike-undated#1`$/);
  });

  it('/timeline since and until narrow it and leave undated articles out', async () => {
    const { data } = await send(
      chatInput(
        'timeline',
        { topic: 'Gravelines dock strike', since: '2015-08', until: '2015-08-15' },
        member,
      ),
    ).final();
    expect(String(data.content)).toBe(
      'Coverage of “Gravelines dock strike” among articles published from 2015-08 to 2015-08-15 in date order:',
    );
    expect(citedArticles(data)).toEqual(new Set(['dock-strike-returns', 'wire-2015']));
    expect(textOf(data)).not.toContain('Undated');
  });

  it('the Timeline button on an answer opens the timeline of its topic (without its time words), privately', async () => {
    const asked = send(
      chatInput('ask', { question: "What's the latest on the Gravelines dock strike?" }, member),
    );
    const { data } = await asked.final();
    expect(String(data.content)).toMatch(/^Newest reports first\.\n/);
    expect(customIdsOf(data)).toContain('ask:timeline');
    const { data: timeline } = await send(
      button(asked.message as APIMessage, 'ask:timeline', member),
    ).final();
    expect((timeline.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    expect(String(timeline.content)).toBe('Coverage of “Gravelines dock strike” in date order:');
    expect(textOf(timeline)).toContain('cite `wire-1987#1` · **first report**');
  });

  it('a year named in a question with no coverage from then says so and when the nearest coverage is from', async () => {
    const { data } = await send(
      chatInput(
        'ask',
        { question: 'who bought the Gravelines container terminal in 2015?', limit: 1 },
        member,
      ),
    ).final();
    expect(String(data.content)).toBe(
      'Nothing from 2015; closest coverage is from 2016:\nOne passage answers your question:',
    );
    expect(textOf(data)).toContain('— Wire, 2016-02-01 · cite `port-sale-wire#1`');
  });

  it('a question refused with a year named says nothing from then answers it, and dates the closest headlines', async () => {
    const { data } = await send(
      chatInput('ask', { question: 'Gravelines dock fire in 1990', limit: 1 }, member),
    ).final();
    expect(String(data.content)).toBe(
      '**No coverage found** for “Gravelines dock fire in 1990”. Nothing in the archive from 1990 answers it, and a guess would be worse than no answer.',
    );
    expect(textOf(data)).toContain(
      '• Pension deal ends Gravelines dock strike (2015-08-31) — `dock-strike-ends`',
    );
  });

  it('a same-fact group names its earliest and latest outlet', async () => {
    const { data } = await send(
      chatInput('ask', { question: 'Who bought the Gravelines container terminal?', limit: 1 }, member),
    ).final();
    expect(textOf(data)).toContain(
      'First reported by Wire (2016-02-01, `port-sale-wire#1`) · latest: Harbour Gazette (2016-06-30, `port-sale-gazette#1`)',
    );
  });

  it('/sources finds articles by words of their text', async () => {
    const { data } = await send(chatInput('sources', { query: 'Antwerp' }, member)).final();
    expect(textOf(data)).toContain('Sources matching “Antwerp”: 3 of 10');
  });
});
