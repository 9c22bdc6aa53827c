import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { questionHash } from '../../src/community/community-store.ts';
import { APOLOGY } from '../../src/interactions/dispatch.ts';
import type { EngineView, LibraryView } from '../../src/interactions/library-view.ts';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import type { Library } from '../../src/library.ts';
import { button, chatInput } from '../support/stand-in-discord/interactions.ts';
import { customIdsOf, type Harness, startHarness, textOf } from './harness.ts';

const EPHEMERAL = 64;

const HOSTILE = [
  '---',
  'title: "**Bold** claims about @everyone"',
  'publisher: The <@&123> Times',
  '---',
  '',
  'Protesters shouted @everyone and @here at the harbour, tagging <@&123> and <@456> and <#789>, while a sign read **free ferries** and _now_ ~~later~~ `rm -rf` ||spoiler|| [click here](https://evil.example/phish).',
  '',
].join('\n');

/** One run-on sentence of about 5,000 characters: too long for any embed field, with no sentence end to cut at. */
// One sentence of ~1,500 characters: one passage (under the 2,000-character bound), too long to quote whole.
const RUN_ON = `The ferry committee met on Tuesday${', and then it discussed the harbour timetable again'.repeat(30)}.`;

/** Counts questions reaching the engine and throws for one that contains "explode". */
function instrumented(library: Library, counter: { answers: number }): LibraryView {
  return {
    get loadedAt() {
      return library.loadedAt;
    },
    get engine(): EngineView {
      const engine = library.engine;
      return new Proxy(engine, {
        get(target, property) {
          if (property === 'answer' || property === 'answerAsync') {
            return (question: string, options?: Parameters<EngineView['answer']>[1]) => {
              counter.answers += 1;
              if (question.includes('explode')) throw new Error('index shard unreadable (injected)');
              return target[property](question, options);
            };
          }
          const value = Reflect.get(target, property, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    },
  };
}

describe('GIVEN a corpus with hostile text, a very long paragraph and 25 articles, and a limit of 3 questions a minute', () => {
  let harness: Harness;
  let folder: string;
  const counter = { answers: 0 };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'newsdesk-safety-'));
    await writeFile(join(folder, 'hostile.md'), HOSTILE);
    await writeFile(
      join(folder, 'long-meeting.md'),
      `---\ntitle: Ferry committee marathon\n---\n\n${RUN_ON}\n`,
    );
    for (let index = 1; index <= 23; index += 1) {
      const name = `filler-${String(index).padStart(2, '0')}`;
      await writeFile(
        join(folder, `${name}.md`),
        `---\ntitle: Lighthouse note ${index}\n---\n\nLighthouse keeper number ${index} logged calm seas.\n`,
      );
    }
    harness = await startHarness({
      corpusPath: folder,
      env: { RATE_LIMIT_QUESTIONS: '3', RATE_LIMIT_WINDOW_SECONDS: '60' },
      wrap: (library) => instrumented(library, counter),
    });
  });

  afterAll(async () => {
    await harness?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  it('quotes a paragraph full of mentions and markdown harmlessly', async () => {
    const { data } = await harness.discord
      .interact(
        chatInput(
          'ask',
          { question: 'What did protesters shout at the harbour?' },
          { userId: '810000000000000001' },
        ),
      )
      .final();
    expect(data.allowed_mentions).toEqual({ parse: [] });
    expect(payloadViolations(data)).toEqual([]);
    const text = textOf(data);
    expect(text).toContain('@\u200beveryone');
    expect(text).toContain('@\u200bhere');
    expect(text).toContain('<\u200b@&123>');
    expect(text).toContain('<\u200b@456>');
    expect(text).toContain('<\u200b#789>');
    expect(text).toContain('\\*\\*free ferries\\*\\*');
    expect(text).toContain('\\_now\\_');
    expect(text).toContain('\\~\\~later\\~\\~');
    expect(text).toContain('\\`rm -rf\\`');
    expect(text).toContain('\\|\\|spoiler\\|\\|');
    expect(text).toContain('\\[click here\\](https://evil.example/phish)');
    expect(text).toContain('— The <\u200b@&123> Times, undated · cite `hostile#1`');
    const title = (data.embeds as { title: string }[])[0]!.title;
    expect(title).toBe('1. \\*\\*Bold\\*\\* claims about @\u200beveryone');
  });

  it('cuts a passage too long for Discord after a word, with a note pointing to /cite', async () => {
    const { data } = await harness.discord
      .interact(
        chatInput(
          'ask',
          { question: 'ferry committee harbour timetable', limit: 1 },
          { userId: '810000000000000002' },
        ),
      )
      .final();
    expect(payloadViolations(data)).toEqual([]);
    const description = (data.embeds as { description: string }[])[0]!.description;
    expect(description).toMatch(
      /\w(\*\*)?,? … \*\(cut; `\/cite long-meeting#1` shows it all\)\*\n— publisher unknown, undated · cite `long-meeting#1`$/,
    );
    expect(description.length).toBeLessThan(1000);

    const cited = await harness.discord
      .interact(chatInput('cite', { id: 'long-meeting#1' }, { userId: '810000000000000002' }))
      .final();
    expect(payloadViolations(cited.data)).toEqual([]);
    expect(textOf(cited.data)).toContain('¶1 (cited)');
  });

  it('pages /sources ten at a time with Previous / Next buttons that replace the list', async () => {
    const first = harness.discord.interact(chatInput('sources', {}, { userId: '810000000000000003' }));
    const { data } = await first.final();
    expect(textOf(data)).toContain('Sources: 25 articles');
    expect(textOf(data)).toContain('Page 1 of 3');
    expect(customIdsOf(data)).toEqual(['sources:page:-1:', 'sources:page:1:']);
    const next = await harness.discord
      .interact(button(first.message as APIMessage, 'sources:page:1:', { userId: '810000000000000004' }))
      .final();
    expect(next.type).toBe(7);
    expect(textOf(next.data)).toContain('Page 2 of 3');
    expect(textOf(next.data)).toMatch(/^11\. /m);

    const filtered = await harness.discord
      .interact(chatInput('sources', { query: 'lighthouse note 2' }, { userId: '810000000000000003' }))
      .final();
    expect(textOf(filtered.data)).toContain('Sources matching “lighthouse note 2”: 5 of 25');
  });

  it('answers the fourth question in a minute with a private "please wait", without searching', async () => {
    const asker = { userId: '820000000000000001' };
    for (let index = 0; index < 3; index += 1) {
      const { data } = await harness.discord
        .interact(chatInput('ask', { question: 'What did protesters shout?' }, asker))
        .final();
      expect(String(data.content)).toMatch(/answers? your question/);
    }
    const before = counter.answers;
    const { data } = await harness.discord
      .interact(chatInput('ask', { question: 'What did protesters shout?' }, asker))
      .final();
    expect((data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    expect(String(data.content)).toMatch(
      /^You're asking faster than I can keep up with\. Please wait (60|59) seconds/,
    );
    expect(counter.answers).toBe(before);
    // Someone else is not held back.
    const other = await harness.discord
      .interact(
        chatInput('ask', { question: 'What did protesters shout?' }, { userId: '820000000000000002' }),
      )
      .final();
    expect(String(other.data.content)).toMatch(/answers? your question/);
  });

  it('answers an unexpected failure with a private apology, logs it with context, and keeps serving', async () => {
    const user = { userId: '830000000000000001' };
    const { data } = await harness.discord
      .interact(chatInput('ask', { question: 'will this explode?' }, user))
      .final();
    expect((data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    expect(data.content).toBe(APOLOGY);
    expect(data.content).not.toContain('injected');
    const logged = harness.logger.events.find((event) => event.message === 'interaction failed');
    expect(logged?.level).toBe('error');
    expect(logged?.context).toMatchObject({
      command: 'ask',
      user: user.userId,
      // The question is personal data: its length and hash are logged, not its text (LOG_QUESTIONS=false).
      options: { question: { length: 18, hash: questionHash('will this explode?') } },
    });
    expect(JSON.stringify(logged)).not.toContain('will this explode');
    expect(String((logged?.context?.error as Error | undefined)?.message)).toContain('injected');

    const after = await harness.discord
      .interact(chatInput('ask', { question: 'What did protesters shout?' }, user))
      .final();
    expect(String(after.data.content)).toMatch(/answers? your question/);
  });
});
