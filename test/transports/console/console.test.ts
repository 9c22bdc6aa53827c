import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../../commands/index.ts';
import { loadConfig } from '../../../src/config.ts';
import { createDispatchContext } from '../../../src/interactions/context.ts';
import type { DispatchContext } from '../../../src/interactions/dispatch.ts';
import { Library } from '../../../src/library.ts';
import { CorpusLifecycle } from '../../../src/lifecycle/corpus-lifecycle.ts';
import { memoryLogger, silentLogger } from '../../../src/logging/logger.ts';
import { runConsole } from '../../../src/transports/console/console.ts';
import { type ConsoleIdentity, parseLine } from '../../../src/transports/console/parse-line.ts';
import { COLOUR, markdown, PLAIN } from '../../../src/transports/console/render-text.ts';
import { decodePng } from '../../support/png.ts';
import { copyOfBundledCorpus, DATED_CORPUS, LIGHTHOUSE } from '../../support/temp-corpus.ts';

const identity: ConsoleIdentity = {
  userId: 'console',
  userName: 'console',
  guildId: 'console',
  memberRoleIds: [],
  memberPermissions: 32n,
};

async function session(ctx: DispatchContext, lines: string[], colour = false): Promise<string> {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  input.end(`${lines.join('\n')}\n`);
  await runConsole({ ctx, input, output, colour, interactive: false });
  return text;
}

describe('the local console', () => {
  let ctx: DispatchContext;

  beforeAll(async () => {
    const library = await Library.open('corpus');
    ctx = createDispatchContext({
      commands,
      library,
      config: loadConfig({ RATE_LIMIT_QUESTIONS: '100' }),
      logger: memoryLogger(),
    });
  });

  it('parses options as name:value, the leading text going to the main text option', () => {
    expect(
      parseLine('/ask who threatened the mayor? limit:2 private:yes', ctx.commands, identity),
    ).toMatchObject({
      kind: 'interaction',
      interaction: {
        kind: 'chat-input',
        commandName: 'ask',
        options: { question: 'who threatened the mayor?', limit: 2, private: true },
      },
    });
    expect(parseLine('who is Dhersin?', ctx.commands, identity)).toMatchObject({
      interaction: { commandName: 'ask', options: { question: 'who is Dhersin?' } },
    });
    expect(parseLine('/corpus remove id:calais', ctx.commands, identity)).toMatchObject({
      interaction: { commandName: 'corpus', options: { subcommand: 'remove', id: 'calais' } },
    });
    expect(parseLine('/corpus add notes/story.md', ctx.commands, identity)).toMatchObject({
      interaction: {
        options: {
          subcommand: 'add',
          file: { kind: 'attachment', filename: 'story.md', url: /^file:.*notes\/story\.md$/ },
        },
      },
    });
    expect(parseLine('/nope', ctx.commands, identity)).toEqual({
      kind: 'error',
      message: 'Unknown command /nope. Type /help for the list.',
    });
  });

  it('refuses an option the command does not have, instead of asking it as part of the question', () => {
    expect(parseLine('/ask who threatened the mayor? bogus:1', ctx.commands, identity)).toEqual({
      kind: 'error',
      message:
        '/ask has no option bogus. Its options: question, limit, source, since, until, private. ' +
        'Text with a colon goes in question:…',
    });
    // Given as the option itself, the text is taken as typed; a time or a link is no option.
    expect(parseLine('/ask question:what did bogus:1 mean?', ctx.commands, identity)).toMatchObject({
      interaction: { options: { question: 'what did bogus:1 mean?' } },
    });
    expect(
      parseLine('/ask what happened at 10:30 on https://example.com/x', ctx.commands, identity),
    ).toMatchObject({
      interaction: { options: { question: 'what happened at 10:30 on https://example.com/x' } },
    });
  });

  it('presses buttons of the last reply only: after a reply without buttons, there is none to press', async () => {
    const out = await session(ctx, ['/ask migrants Calais', '/about', '/press 1']);
    expect(out).toContain('Results 1–3');
    expect(out).not.toContain('Results 4–6');
    expect(out).toContain('The last reply has no buttons.');
  });

  it('answers a question, then presses "More results" and "Show context" on the reply', async () => {
    // Buttons: 1 More results, 2 Timeline, 3 Follow up, 4 Show context 1, ... 7 Dismiss, 8-10 the stories.
    const out = await session(ctx, ['/ask migrants Calais', '/press 1', '/press 11', '/press 4']);
    expect(out).toContain('Results 1–3');
    expect(out).toContain('Results 4–6');
    expect(out).toMatch(/\(only you can see this\)\nContext of teteghem|Context of calais/);
    expect(out).toContain('There is no such button on the last reply.');
  });

  it('shows closest coverage under its plain first line, and "Which story?" answered by /choose or /press', async () => {
    const out = await session(ctx, [
      "/ask What colour were the cars' windows?",
      '/ask What did the mayor threaten?',
      '/choose 2',
      '/choose 1',
      '/ask What did the mayor threaten?',
      // Buttons: 1 More results, 2 Timeline, 3 Follow up, 4-6 Show context, 7 Dismiss, then the menu's options: 8 Teteghem, 9 Calais.
      '/press 8',
    ]);
    const replies = out.split(/\n(?=I found nothing|\d passages answer|The last reply)/);
    expect(replies[0]).toMatch(/^I found nothing that clearly answers this\. Closest coverage:\n/);
    expect(replies[0]).toContain('Closest coverage · may not answer the question');
    expect(replies[0]).not.toContain('Which story?');
    expect(replies[1]).toMatch(/^I found nothing that clearly answers this\. Closest coverage:\n/);
    expect(replies[1]).toContain('Your question fits several stories.');
    expect(replies[1]).toContain(
      "[1] Which story? 1. French mayor says he was threatened with a gun by 'English mafia' smuggling migrants into Britain (/choose 1 or /press 8)",
    );
    expect(replies[1]).toContain('[2] Which story? 2. The Mayor of Calais has said');
    expect(replies[2]).toMatch(/^3 passages answer your question in The Mayor of Calais has said/);
    expect(replies[2]).toContain('cite calais-mayor-renews-border-threat#1');
    expect(replies[2]).not.toMatch(/cite (teteghem|calais-mayor-threatens)/);
    expect(replies[3]).toBe('The last reply has no menu.');
    expect(replies[5]).toMatch(/^3 passages answer your question in French mayor says he was threatened/);
    expect(replies[5]).toContain('Franck Dhersin');
  });

  /** The console's context on the dated fixture corpus. */
  const datedContext = async () =>
    createDispatchContext({
      commands,
      library: await Library.open(DATED_CORPUS),
      config: loadConfig({ RATE_LIMIT_QUESTIONS: '100' }),
      logger: memoryLogger(),
    });

  it('narrows /ask to a period with since: and until:, dating every citation', async () => {
    const dated = await datedContext();
    const out = await session(dated, [
      '/ask Gravelines dock strike since:2015-08 until:2015-08-01',
      '/ask Gravelines dock strike until:yesterday',
    ]);
    expect(out).toContain(
      '2 passages answer your question among articles published from 2015-08 to 2015-08-01:',
    );
    expect(out).toContain('— Harbour Gazette, 2015-08-01 · cite dock-strike-returns#1');
    expect(out).not.toMatch(/cite (dock-strike-ends|wire-2015|dock-strike-undated)/);
    expect(out).toContain(
      "Until must be a year (2003), a month (2015-08) or a date (2015-08-01); got 'yesterday'.",
    );
  });

  it("shows a /timeline page by page, and an answer's Timeline button", async () => {
    const dated = await datedContext();
    const out = await session(dated, [
      '/timeline Gravelines',
      '/press 2',
      '/ask Gravelines dock strike in 2003 limit:1',
      '/press 2',
    ]);
    expect(out).toContain('Coverage of “Gravelines” in date order:');
    expect(out).toContain(
      '1987-02-26 · publisher unknown · “Dock workers at the French port of Gravelines went on strike over pay, port officials said.” · cite wire-1987#1 · first report',
    );
    expect(out).toContain('Page 1 of 2 · 9 dated articles, 1 undated, oldest first');
    expect(out).toContain('Undated (when these appeared is not known):');
    expect(out).toContain('Page 2 of 2');
    expect(out).toContain('Coverage from 2003 first.\nOne passage answers your question:');
    expect(out).toMatch(/\(only you can see this\)\nCoverage of “Gravelines dock strike” in date order:/);
  });

  it('writes a /timeline chart to a file and prints its path; a topic with nothing dated says there is nothing to draw', async () => {
    const dated = await datedContext();
    const out = await session(dated, ['/timeline Gravelines', '/press 2', '/timeline ferries']);
    const paths = [...out.matchAll(/^chart: (.+\.png)$/gm)].map((match) => match[1]!);
    // The first page and the next, each its own file; "ferries" has only an undated article.
    expect(paths).toHaveLength(2);
    expect(new Set(paths).size).toBe(2);
    for (const file of paths) {
      expect(path.isAbsolute(file) && file.startsWith(tmpdir())).toBe(true);
      const png = await decodePng(await readFile(file));
      expect([png.width, png.height]).toEqual([800, 400]);
    }
    expect(out).toContain('No chart: none of these articles is dated, so there is nothing to draw.');
  });

  it('checks a claim as "Find coverage" does, and shows what autocomplete suggests', async () => {
    const out = await session(ctx, [
      '/find the mayor of Calais wants to open the borders',
      '/complete ask source calais',
    ]);
    expect(out).toContain('passages answer that message:');
    expect(out).toContain('calais-mayor-threatens-to-open-borders');
  });

  it('applies a confirmed /corpus change after "working…", printing its progress and then its outcome', async () => {
    const { corpus, cleanup } = await copyOfBundledCorpus();
    try {
      const library = await Library.open(corpus);
      const editable = createDispatchContext({
        commands,
        library,
        corpus: new CorpusLifecycle(library, { corpusPath: corpus, logger: silentLogger }),
        config: loadConfig({}),
        logger: memoryLogger(),
      });
      const out = await session(editable, [
        '/corpus remove id:teteghem-mayor-threatened-with-gun',
        '/press 1',
      ]);
      const afterPress = out.slice(out.indexOf('working…'));
      expect(afterPress).toMatch(/^working…\nRemoving teteghem-mayor-threatened-with-gun \(file /);
      expect(afterPress).toContain('Removed teteghem-mayor-threatened-with-gun.\nReloaded in');
      expect(editable.library.engine.article('teteghem-mayor-threatened-with-gun')).toBeUndefined();
    } finally {
      await cleanup();
    }
  });

  it('adds an article from a file the operator names by path: preview, then confirm', async () => {
    const { corpus, cleanup } = await copyOfBundledCorpus();
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'newsdesk-upload-'));
    try {
      await writeFile(path.join(elsewhere, 'lighthouse.md'), LIGHTHOUSE);
      const library = await Library.open(corpus);
      const editable = createDispatchContext({
        commands,
        library,
        corpus: new CorpusLifecycle(library, { corpusPath: corpus, logger: silentLogger }),
        config: loadConfig({}),
        logger: memoryLogger(),
      });
      const out = await session(editable, [
        `/corpus add ${path.join(elsewhere, 'missing.md')}`,
        `/corpus add ${path.join(elsewhere, 'lighthouse.md')}`,
        '/press 1',
      ]);
      expect(out).toContain(`Cannot read ${path.join(elsewhere, 'missing.md')}: no such file.`);
      expect(out).toContain('Add this article to the corpus?');
      expect(out).toContain('Added lighthouse.');
      expect(editable.library.engine.article('lighthouse')).toBeDefined();
    } finally {
      await cleanup();
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('follows up the last answer: /followup <question>, or its Follow up button then the next line', async () => {
    const typed = await session(ctx, [
      'who pulled a gun on the teteghem mayor? limit:1',
      '/followup what did they threaten to do to the reporter with him?',
    ]);
    expect(typed).toContain('Follow up (About: French mayor says he was threatened');
    expect(typed).toContain('Assuming you mean: French mayor says he was threatened');
    expect(typed).toContain('threatened to rape the reporter');
    expect(typed).toContain('Ask without that story');
    // Pressed as a button: the form is the next line; /cancel drops it and asks nothing.
    const pressed = await session(ctx, [
      'who pulled a gun on the teteghem mayor? limit:1',
      '/press 3',
      '/cancel',
      '/press 3',
      'what did they threaten to do to the reporter with him?',
    ]);
    expect(pressed).toContain('Cancelled.');
    expect(pressed.match(/Assuming you mean/g)).toHaveLength(1);
  });

  it('puts no rate limit on its operator, however RATE_LIMIT_QUESTIONS is set', async () => {
    const unlimited = createDispatchContext({
      commands,
      library: ctx.library,
      config: loadConfig({ RATE_LIMIT_QUESTIONS: '1' }),
      logger: memoryLogger(),
      rateLimited: false,
    });
    const out = await session(
      unlimited,
      Array.from({ length: 8 }, () => 'who threatened the mayor?'),
    );
    expect(out).not.toContain('Please wait');
    expect(out.match(/teteghem-mayor-threatened-with-gun#/g)?.length ?? 0).toBeGreaterThanOrEqual(8);
  });

  it('writes relative times as Discord shows them, to come as well as past (/feeds list: "next: in 30 minutes")', () => {
    const at = (minutes: number) => `<t:${Math.round((Date.now() + minutes * 60_000) / 1000)}:R>`;
    expect(markdown(`Last read: ${at(0)} · next: ${at(30)}`, PLAIN)).toBe(
      'Last read: just now · next: in 30 minutes',
    );
    expect([at(-5), at(-160), at(3 * 24 * 60), at(-800 * 24 * 60)].map((t) => markdown(t, PLAIN))).toEqual([
      '5 minutes ago',
      '3 hours ago',
      'in 3 days',
      '2 years ago',
    ]);
  });

  it('renders markdown as terminal styles, and escapes as the characters they protect', () => {
    expect(markdown('**bold** \\*not\\* `id` > x', PLAIN)).toBe('bold *not* id > x');
    expect(markdown('**bold**', COLOUR)).toBe('\u001b[1mbold\u001b[22m');
    expect(markdown('> quoted\n-# small', PLAIN)).toBe('│ quoted\nsmall');
    expect(markdown('[link](<https://example.com/a>)', PLAIN)).toBe('link (https://example.com/a)');
  });
});
