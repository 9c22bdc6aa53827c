import { beforeAll, describe, expect, it } from 'vitest';
import about from '../../commands/about.ts';
import ask from '../../commands/ask.ts';
import findCoverage from '../../commands/find-coverage.ts';
import { commands } from '../../commands/index.ts';
import reload from '../../commands/reload.ts';
import sources from '../../commands/sources.ts';
import { loadConfig } from '../../src/config.ts';
import type { CommandContext } from '../../src/interactions/command.ts';
import type { ButtonIncoming, MessageContextMenuIncoming } from '../../src/interactions/incoming.ts';
import { finalizeReply, payloadViolations } from '../../src/interactions/render/payload.ts';
import { Library } from '../../src/library.ts';
import { memoryLogger } from '../../src/logging/logger.ts';

const base = {
  id: '1',
  userId: 'u',
  userName: 'ann',
  guildId: 'g',
  memberRoleIds: [],
  memberPermissions: 32n,
};
const noProgress = () => undefined;

describe('the commands, on the bundled corpus', () => {
  let library: Library;
  let ctx: CommandContext;

  beforeAll(async () => {
    library = await Library.open('corpus');
    ctx = {
      library,
      config: loadConfig({}),
      logger: memoryLogger(),
      startedAt: new Date(0),
      now: () => new Date(90_061_000),
    };
  });

  it('every command definition is valid for Discord: names, descriptions and option limits', () => {
    for (const command of commands) {
      const json = command.data.toJSON();
      expect(json.name.length).toBeLessThanOrEqual(32);
      if ('description' in json) expect(json.description?.length ?? 0).toBeLessThanOrEqual(100);
    }
    expect(new Set(commands.map((command) => command.data.name)).size).toBe(commands.length);
  });

  it('every option with autocomplete declares a maximum length (what it costs to suggest is bounded)', () => {
    type Option = { name: string; autocomplete?: boolean; max_length?: number; options?: Option[] };
    const unbounded: string[] = [];
    const visit = (command: string, options: Option[] = []): void => {
      for (const option of options) {
        if (option.autocomplete && !(option.max_length && option.max_length <= 2000))
          unbounded.push(`/${command} ${option.name}`);
        visit(command, option.options);
      }
    };
    for (const command of commands) {
      const json = command.data.toJSON() as { name: string; options?: Option[] };
      visit(json.name, json.options);
    }
    expect(unbounded).toEqual([]);
  });

  it('/ask validates its options: a blank question or a limit over 5 is refused', () => {
    expect(ask.options.safeParse({ question: '   ' }).success).toBe(false);
    expect(ask.options.safeParse({ question: 'who?', limit: 6 }).success).toBe(false);
    expect(ask.options.parse({ question: ' who? ' })).toEqual({ question: 'who?', limit: 3 });
  });

  it('/ask with a source that is neither an article nor an outlet says so instead of answering from everything', async () => {
    await expect(
      ask.execute(
        ctx,
        { question: 'mayor', limit: 3, private: false, source: 'gone-article' },
        { ...base, kind: 'chat-input', commandName: 'ask', options: {} },
      ),
    ).rejects.toThrow(
      '“gone-article” is neither an article nor an outlet in the archive (an article may have been removed by a reload). Pick one from the list as you type, or leave it out.',
    );
  });

  it('"More results" on a message without a stored question asks to ask again', async () => {
    const press: ButtonIncoming = {
      ...base,
      kind: 'button',
      customId: 'ask:more:3:3',
      message: { id: 'm', content: '', embeds: [] },
    };
    await expect(ask.buttons['ask:more'].execute(ctx, ['3', '3'], press)).rejects.toThrow(
      /ask the question again/,
    );
  });

  it('"More results" past the last result says there are no more', async () => {
    const press: ButtonIncoming = {
      ...base,
      kind: 'button',
      customId: 'ask:more:900:3',
      message: { id: 'm', content: '', embeds: [{ footer: { text: 'Asked: who threatened the mayor?' } }] },
    };
    await expect(ask.buttons['ask:more'].execute(ctx, ['900', '3'], press)).rejects.toThrow(
      /no more results/,
    );
  });

  it('/sources matches publisher as well as title and id, ignoring case and accents', async () => {
    const reply = await sources.execute(ctx, { query: 'TÉLÉGRAPH' });
    // The Telegraph's own article first (its publisher matches), then one whose text names the paper.
    expect(reply.embeds?.[0]?.title).toBe('Sources matching “TÉLÉGRAPH”: 2 of 3');
    expect(reply.embeds?.[0]?.description?.split('\n')[0]).toContain('The Telegraph');
    const byId = await sources.execute(ctx, { query: 'teteghem' });
    expect(byId.embeds?.[0]?.description).toContain('`teteghem-mayor-threatened-with-gun`');
  });

  it('/about formats uptime in days, hours and minutes', async () => {
    const reply = await about.execute(ctx);
    expect(reply.embeds?.[0]?.fields?.find((field) => field.name === 'Uptime')?.value).toBe('1d 1h 1m');
    expect(payloadViolations(finalizeReply(reply))).toEqual([]);
  });

  it('/reload on a library that cannot reload says so', async () => {
    const frozen: CommandContext = {
      ...ctx,
      library: { engine: library.engine, loadedAt: library.loadedAt },
    };
    await expect(
      reload.execute(
        frozen,
        {},
        { ...base, kind: 'chat-input', commandName: 'reload', options: {} },
        noProgress,
      ),
    ).rejects.toThrow(/cannot reload its corpus/);
  });

  it('"Find coverage" on a message with no text explains why it cannot check it', () => {
    const empty: MessageContextMenuIncoming = {
      ...base,
      kind: 'message-context-menu',
      commandName: 'Find coverage',
      targetMessage: { id: 'm', content: '  ', embeds: [] },
    };
    expect(() => findCoverage.execute(ctx, {}, empty)).toThrow(/no text I can check/);
  });

  it('"Find coverage" searches a long message from its start, cut after a sentence', async () => {
    const long: MessageContextMenuIncoming = {
      ...base,
      kind: 'message-context-menu',
      commandName: 'Find coverage',
      targetMessage: {
        id: 'm',
        content: `The mayor of Teteghem was threatened with a gun. ${'Unrelated chatter. '.repeat(60)}`,
        embeds: [],
      },
    };
    const reply = await findCoverage.execute(ctx, {}, long);
    const footer = reply.embeds?.at(-1)?.footer?.text ?? '';
    expect(footer.split('\n')[0]!.length).toBeLessThanOrEqual('Asked: '.length + 500);
    expect(footer.split('\n')[0]).toMatch(/\.$/);
    expect(reply.embeds?.[0]?.description).toContain('cite `teteghem-mayor-threatened-with-gun#');
  });
});
