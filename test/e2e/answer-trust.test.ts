import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import { chatInput, stringSelect } from '../support/stand-in-discord/interactions.ts';
import { customIdsOf, type Harness, member, startHarness, textOf } from './harness.ts';

const EPHEMERAL = 64;
const TETEGHEM = 'teteghem-mayor-threatened-with-gun';
const RENEWS = 'calais-mayor-renews-border-threat';
const THREATENS = 'calais-mayor-threatens-to-open-borders';
const CLOSEST_LINE = 'I found nothing that clearly answers this. Closest coverage:';
/** Embed colours: an answer's blurple, closest coverage's yellow. */
const ANSWER_COLOUR = 0x5865f2;
const CLOSEST_COLOUR = 0xf0b232;

// Questions on the bundled corpus, each of one kind as the real engine judges it:
/** Closest coverage from one story (the Fréthun cars have black-tinted windows; no colour of the windows is said). */
const CLOSEST = "What colour were the cars' windows?";
/** Closest coverage fitting two stories alike: the Teteghem mayor and the Calais mayor both threaten. */
const TWO_STORIES = 'What did the mayor threaten?';

interface Embed {
  title?: string;
  color?: number;
  author?: { name: string };
}
interface Menu {
  type: number;
  custom_id: string;
  options?: { label: string; value: string; description?: string }[];
}
const embedsOf = (data: Record<string, unknown>) => (data.embeds ?? []) as Embed[];
const menusOf = (data: Record<string, unknown>) =>
  ((data.components ?? []) as { components: Menu[] }[])
    .flatMap((row) => row.components)
    .filter((component) => component.type === 3);
const citedArticles = (data: Record<string, unknown>) =>
  new Set([...textOf(data).matchAll(/cite `([^`#]+)#/g)].map((match) => match[1]));

describe('GIVEN the bot on the bundled corpus with its community database: replies that say how sure they are', () => {
  let harness: Harness;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'newsdesk-trust-'));
    harness = await startHarness({ env: { RATE_LIMIT_QUESTIONS: '100', DATA_DIR: join(root, 'data') } });
  });

  afterAll(async () => {
    await harness?.stop();
    await rm(root, { recursive: true, force: true });
  });

  const send = (interaction: Parameters<Harness['discord']['interact']>[0]) =>
    harness.discord.interact(interaction);

  it('an answer is an answer: blurple, counted, with Helpful / Not helpful and no menu', async () => {
    const { data } = await send(
      chatInput('ask', { question: 'Who threatened the mayor of Teteghem?' }, member),
    ).final();
    expect(String(data.content)).toBe('3 passages answer your question:');
    expect(embedsOf(data).every((embed) => embed.color === ANSWER_COLOUR && !embed.author)).toBe(true);
    expect(customIdsOf(data).some((id) => id.startsWith('ask:vote:1:'))).toBe(true);
    expect(menusOf(data)).toEqual([]);
  });

  it('closest coverage opens with its plain first line, each passage yellow and labelled, and offers a watch, not a vote', async () => {
    const { data } = await send(chatInput('ask', { question: CLOSEST }, member)).final();
    expect(payloadViolations(data)).toEqual([]);
    expect(String(data.content).split('\n')[0]).toBe(CLOSEST_LINE);
    expect(String(data.content)).not.toMatch(/passages? answers?/);
    const passages = embedsOf(data).filter((embed) => /^\d+\. /.test(embed.title ?? ''));
    expect(passages.length).toBeGreaterThan(0);
    for (const embed of passages) {
      expect(embed.color).toBe(CLOSEST_COLOUR);
      expect(embed.author?.name).toBe('Closest coverage · may not answer the question');
    }
    expect(textOf(data)).toContain('cite `calais-mayor-threatens-to-open-borders#28`');
    expect(customIdsOf(data)).toContain('ask:watch');
    expect(customIdsOf(data).some((id) => id.startsWith('ask:vote:'))).toBe(false);
    expect(menusOf(data)).toEqual([]);
  });

  it('asks "Which story?" with a menu of the stories; choosing one answers within that story, in place', async () => {
    const ask = send(chatInput('ask', { question: TWO_STORIES }, member));
    const { data } = await ask.final();
    expect(payloadViolations(data)).toEqual([]);
    expect(String(data.content).split('\n')[0]).toBe(CLOSEST_LINE);
    const list = embedsOf(data).find((embed) => embed.title === 'Which story?');
    expect(list).toBeDefined();
    expect(textOf(data)).toContain("1. French mayor says he was threatened with a gun by 'English mafia'");
    const [menu, ...others] = menusOf(data);
    expect(others).toEqual([]);
    expect(menu?.custom_id).toBe('ask:story:3:public');
    expect(menu?.options?.map((option) => option.value)).toEqual([TETEGHEM, RENEWS, THREATENS]);
    expect(menu?.options?.[1]?.description).toBe('publisher unknown, undated');
    // The question rides in the footer, so the menu needs nothing kept in memory.
    expect(textOf(data)).toContain(`Asked: ${TWO_STORIES}`);

    const message = ask.message as APIMessage;
    const chosen = await send(stringSelect(message, 'ask:story:3:public', [RENEWS], member)).final();
    expect(chosen.type).toBe(7);
    expect(payloadViolations(chosen.data)).toEqual([]);
    expect(String(chosen.data.content)).toMatch(
      /^\d passages answer your question in \*The Mayor of Calais has said/,
    );
    expect(citedArticles(chosen.data)).toEqual(new Set([RENEWS]));
    expect(embedsOf(chosen.data).every((embed) => embed.color === ANSWER_COLOUR)).toBe(true);
    expect(textOf(chosen.data)).toContain(`Source: ${RENEWS}`);
    expect(menusOf(chosen.data)).toEqual([]);
    expect(customIdsOf(chosen.data).some((id) => id.startsWith('ask:vote:1:'))).toBe(true);
    // The message now holds the answer within the story.
    expect(harness.discord.messages.get(message.id)?.content).toBe(chosen.data.content);
  });

  it('a private question keeps its choice private', async () => {
    const ask = send(chatInput('ask', { question: TWO_STORIES, private: true }, member));
    const { data } = await ask.final();
    expect((data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    const [menu] = menusOf(data);
    expect(menu?.custom_id).toBe('ask:story:3:private');
    const chosen = await send(
      stringSelect(ask.message as APIMessage, 'ask:story:3:private', [TETEGHEM], member),
    ).final();
    expect(citedArticles(chosen.data)).toEqual(new Set([TETEGHEM]));
    expect(textOf(chosen.data)).toContain('Franck Dhersin');
  });

  it('a menu on a message without its question is refused in plain words', async () => {
    const ask = send(chatInput('ask', { question: TWO_STORIES }, member));
    await ask.final();
    const message = { ...(ask.message as APIMessage), embeds: [] };
    const { data } = await send(stringSelect(message, 'ask:story:3:public', [TETEGHEM], member)).final();
    expect((data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    expect(String(data.content)).toBe('This button no longer works; ask the question again.');
  });

  it('a "Which story?" menu still answers after the bot restarts: its state is all in the message', async () => {
    const ask = send(chatInput('ask', { question: TWO_STORIES }, member));
    await ask.final();
    const message = ask.message as APIMessage;
    const restarted = await startHarness({ env: { RATE_LIMIT_QUESTIONS: '100' } });
    try {
      const chosen = await restarted.discord
        .interact(stringSelect(message, 'ask:story:3:public', [TETEGHEM], member))
        .final();
      expect(chosen.type).toBe(7);
      expect(citedArticles(chosen.data)).toEqual(new Set([TETEGHEM]));
    } finally {
      await restarted.stop();
    }
  }, 60_000);
});
