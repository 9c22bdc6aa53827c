import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import { userMessage } from '../support/stand-in-discord/fixtures.ts';
import { chatInput, messageCommand } from '../support/stand-in-discord/interactions.ts';
import { type Harness, member, startHarness, textOf } from './harness.ts';

const EPHEMERAL = 64;
const claimant = {
  id: '800000000000000009',
  username: 'claimant',
  discriminator: '0',
  global_name: null,
  avatar: null,
};

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

  it('"Check quote" on a message finds the quoted words altered, privately, with the diff, speaker and citation', async () => {
    const target = userMessage(
      '600000000000000002',
      'lol the mayor literally said the traffickers were "very violent and only want to make @everyone money"',
      claimant,
    );
    const { data } = await send(messageCommand('Check quote', target, member)).final();
    expect((data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    expect(payloadViolations(data)).toEqual([]);
    expect(String(data.content)).toMatch(/^\*\*Altered\*\*/);
    const text = textOf(data);
    expect(text).toContain('~~just~~ __only__');
    expect(text).toContain('__@\u200beveryone__');
    expect(text).toContain('Speaker: Dhersin');
    expect(text).toContain('cite `teteghem-mayor-threatened-with-gun#4`');
  });

  it("/checkquote says verbatim for the article's words in other quotation marks and case, publicly", async () => {
    const { data } = await send(
      chatInput('checkquote', { text: '“the mayor of teteghem, franck dhersin, told the bbc”' }, member),
    ).final();
    expect(((data.flags as number | undefined) ?? 0) & EPHEMERAL).toBe(0);
    expect(payloadViolations(data)).toEqual([]);
    expect(String(data.content)).toMatch(/^\*\*Verbatim\*\*/);
    expect(textOf(data)).toContain('Speaker: Franck Dhersin');
  });

  it('/checkquote says not found for words the coverage does not carry', async () => {
    const { data } = await send(
      chatInput(
        'checkquote',
        { text: 'The chancellor promised lower taxes for every family in Wales.' },
        member,
      ),
    ).final();
    expect(payloadViolations(data)).toEqual([]);
    expect(String(data.content)).toMatch(/^\*\*Not found\*\*/);
  });
});
