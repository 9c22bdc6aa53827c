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
});
