import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import { userMessage } from '../support/stand-in-discord/fixtures.ts';
import { autocomplete, button, chatInput, messageCommand } from '../support/stand-in-discord/interactions.ts';
import { customIdsOf, type Harness, member, startHarness, textOf } from './harness.ts';

const EPHEMERAL = 64;
const TETEGHEM = 'teteghem-mayor-threatened-with-gun';

describe('GIVEN the bot on the bundled corpus, logged in to the stand-in Discord', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness({ env: { RATE_LIMIT_QUESTIONS: '100' } });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const send = (interaction: Parameters<Harness['discord']['interact']>[0]) =>
    harness.discord.interact(interaction);

  it('/ask answers with quoted, cited passages, publicly, pinging nobody and within every limit', async () => {
    const exchange = send(chatInput('ask', { question: 'Who threatened the mayor of Teteghem?' }, member));
    const { type, data } = await exchange.final();
    expect(type).toBe(4);
    expect(data.allowed_mentions).toEqual({ parse: [] });
    expect(payloadViolations(data)).toEqual([]);
    expect(((data.flags as number | undefined) ?? 0) & EPHEMERAL).toBe(0);
    const text = textOf(data);
    expect(text).toContain(`cite \`${TETEGHEM}#2\``);
    expect(text).toMatch(/Franck Dhersin/);
    expect(text).toMatch(/\*\*[^*]+\*\*/); // matched terms in bold
    expect(text).toContain('Asked: Who threatened the mayor of Teteghem?');
    expect(customIdsOf(data)).toContain('ask:more:3:3');
    expect(customIdsOf(data)).toContain(`ask:ctx:${TETEGHEM}#2`);
  });

  it('/ask private:true answers only to the asker, and limit:1 gives one passage', async () => {
    const { data } = await send(
      chatInput('ask', { question: 'Who threatened the mayor?', limit: 1, private: true }, member),
    ).final();
    expect((data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    expect(data.embeds).toHaveLength(1);
    expect(String(data.content)).toBe('One passage answers your question:');
  });

  it('"More results" replaces the message with the next page, reading the question back from it', async () => {
    const first = send(chatInput('ask', { question: 'migrants Calais' }, member));
    await first.final();
    const message = first.message as APIMessage;
    const more = send(button(message, 'ask:more:3:3', member));
    const { type, data } = await more.final();
    expect(type).toBe(7);
    expect(payloadViolations(data)).toEqual([]);
    expect(textOf(data)).toContain('Results 4–6');
    expect(textOf(data)).toContain('Asked: migrants Calais');
    expect((data.embeds as { title: string }[])[0]!.title).toMatch(/^4\. /);
    // The page shown replaced the first one in the stand-in's copy of the message.
    expect(harness.discord.messages.get(message.id)?.embeds[0]?.title).toMatch(/^4\. /);
  });

  it('"Show context" answers privately with the paragraphs around the result', async () => {
    const first = send(chatInput('ask', { question: 'Who threatened the mayor of Teteghem?' }, member));
    await first.final();
    const context = send(button(first.message as APIMessage, `ask:ctx:${TETEGHEM}#2`, member));
    const { type, data } = await context.final();
    expect(type).toBe(4);
    expect((data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    const text = textOf(data);
    expect(text).toContain('¶2 (cited)');
    expect(text).toContain('¶1');
    expect(text).toContain('¶4');
    expect(text).toContain('Local police have advised the mayor');
    expect(payloadViolations(data)).toEqual([]);
  });

  it('says "No coverage found", with the closest headlines, when nothing answers', async () => {
    const { data } = await send(
      chatInput('ask', { question: 'What is the capital of Australia?' }, member),
    ).final();
    expect(String(data.content)).toMatch(/^\*\*No coverage found\*\*/);
    expect(textOf(data)).not.toMatch(/cite `/);
    // Only Dismiss: nothing to page, vote on or open (and without records, no Notify me).
    expect(customIdsOf(data)).toEqual([`ask:dismiss:${member.userId}`]);
    expect(payloadViolations(data)).toEqual([]);
  });

  it('autocompletes /ask source with articles, and source limits the answer to that article', async () => {
    const { type, data } = await send(
      autocomplete('ask', { question: 'mayor', source: 'calais' }, 'source', member),
    ).final();
    expect(type).toBe(8);
    const choices = data.choices as { name: string; value: string }[];
    expect(choices.map((choice) => choice.value)).toEqual(
      expect.arrayContaining(['calais-mayor-renews-border-threat', 'calais-mayor-threatens-to-open-borders']),
    );
    for (const choice of choices) expect(choice.name.length).toBeLessThanOrEqual(100);

    const answer = await send(
      chatInput(
        'ask',
        { question: 'open the borders', source: 'calais-mayor-threatens-to-open-borders' },
        member,
      ),
    ).final();
    const cited = [...textOf(answer.data).matchAll(/cite `([^`#]+)#/g)].map((match) => match[1]);
    expect(cited.length).toBeGreaterThan(0);
    expect(new Set(cited)).toEqual(new Set(['calais-mayor-threatens-to-open-borders']));
    expect(textOf(answer.data)).toContain('Source: calais-mayor-threatens-to-open-borders');
  });

  it('refuses a bad option privately with a message naming it', async () => {
    const { data } = await send(chatInput('ask', { question: 'mayor', limit: 9 }, member)).final();
    expect((data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    expect(String(data.content)).toBe('`limit` must be a whole number from 1 to 5; got 9.');
  });

  it('/cite shows the passage in full with its neighbours and metadata, and autocompletes citations', async () => {
    const { data } = await send(chatInput('cite', { id: `${TETEGHEM}#4` }, member)).final();
    const text = textOf(data);
    expect(text).toContain('¶4 (cited)');
    expect(text).toContain('¶3');
    expect(text).toContain('¶5');
    expect(text).toContain('"very violent and just want to make money."');
    expect(text).toContain('paragraph 4 of 11');
    expect(payloadViolations(data)).toEqual([]);

    const suggestions = await send(autocomplete('cite', { id: `${TETEGHEM}#1` }, 'id', member)).final();
    const values = (suggestions.data.choices as { value: string }[]).map((choice) => choice.value);
    expect(values).toContain(`${TETEGHEM}#1`);
    expect(values).toContain(`${TETEGHEM}#10`);
  });

  it('/cite with an unknown citation explains the format, privately', async () => {
    const { data } = await send(chatInput('cite', { id: 'nope#99' }, member)).final();
    expect((data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    expect(String(data.content)).toMatch(/no passage `nope#99`/);
  });

  it('/sources lists every article with publisher and paragraph count', async () => {
    const { data } = await send(chatInput('sources', {}, member)).final();
    const text = textOf(data);
    expect(text).toContain('Sources: 3 articles');
    expect(text).toContain(
      'The Telegraph, undated · 30 paragraphs · `calais-mayor-threatens-to-open-borders`',
    );
    expect(customIdsOf(data)).toEqual([]); // one page only
  });

  it('/about reports corpus size, version, last reload and uptime', async () => {
    const { data } = await send(chatInput('about', {}, member)).final();
    const fields = (data.embeds as { fields: { name: string; value: string }[] }[])[0]!.fields;
    const byName = Object.fromEntries(fields.map((field) => [field.name, field.value]));
    expect(byName.Articles).toBe('3');
    expect(byName.Passages).toBe(String(harness.library.engine.passageCount));
    expect(byName['Corpus version']).toBe(`\`${harness.library.engine.version.slice(0, 16)}\``);
    expect(byName['Last reload']).toMatch(/^<t:\d+:f> \(<t:\d+:R>\)$/);
    expect(byName.Uptime).toMatch(/^\d+[dhms]( \d+[hms])*$/);
  });

  it('"Find coverage" checks the text of someone\'s message, privately', async () => {
    const target = userMessage(
      '600000000000000001',
      'Apparently the mayor of Calais wants to open the borders to migrants',
      {
        id: '800000000000000009',
        username: 'claimant',
        discriminator: '0',
        global_name: null,
        avatar: null,
      },
    );
    const { data } = await send(messageCommand('Find coverage', target, member)).final();
    expect((data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    expect(String(data.content)).toMatch(/answers? that message:$/);
    expect(textOf(data)).toMatch(/cite `calais-mayor-/);
    expect(payloadViolations(data)).toEqual([]);
  });
});
