import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import { loadConfig } from '../../src/config.ts';
import { createDispatchContext } from '../../src/interactions/context.ts';
import type { DispatchContext } from '../../src/interactions/dispatch.ts';
import { Library } from '../../src/library.ts';
import { memoryLogger } from '../../src/logging/logger.ts';
import { runConsole } from '../../src/transports/console/console.ts';

/** What the console prints for each line, as an operator sees it (the console dispatches as Discord does). */
async function typed(ctx: DispatchContext, line: string): Promise<string> {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  input.end(`${line}\n`);
  await runConsole({ ctx, input, output, colour: false, interactive: false });
  return text;
}

/** The console shows Discord's inline code without its backticks. */
const plain = (text: string) => text.replaceAll('`', '');

describe('messages for bad options, in plain words', () => {
  let ctx: DispatchContext;

  beforeAll(async () => {
    ctx = createDispatchContext({
      commands,
      library: await Library.open('corpus'),
      config: loadConfig({}),
      logger: memoryLogger(),
    });
  });

  it('/ask with no question says a question is needed', async () => {
    const out = await typed(ctx, '/ask');
    expect(out).toContain(plain('`/ask` needs `question` (What you want to know).'));
    expect(out).not.toMatch(/Invalid input|expected string|undefined/);
  });

  it('/ask limit:9 mayor is refused for its limit, saying what is allowed and what was given', async () => {
    const out = await typed(ctx, '/ask limit:9 mayor');
    expect(out).toContain(plain('`limit` must be a whole number from 1 to 5; got 9.'));
    expect(out).not.toContain(plain('question'));
  });

  it('/ask with a question that is only spaces, and one too long', async () => {
    expect(await typed(ctx, '/ask question:   ')).toContain(
      plain('`/ask` needs `question` (What you want to know); it was empty.'),
    );
    const long = await typed(ctx, `/ask ${'why '.repeat(100)}`);
    expect(long).toContain(plain('`question` must be at most 300 characters; got 399.'));
  });

  it('/ask private:maybe says it takes true or false', async () => {
    expect(await typed(ctx, '/ask mayor private:maybe')).toContain(
      plain('`private` must be true or false; got "maybe".'),
    );
  });

  it('/cite alone asks for a citation', async () => {
    expect(await typed(ctx, '/cite')).toContain(plain('`/cite` needs `id` (Citation, e.g. article-id#3).'));
  });

  it('/corpus add alone asks for the file', async () => {
    expect(await typed(ctx, '/corpus add')).toContain(
      plain('`/corpus add` needs `file` (Markdown with front matter, or text with the headline first).'),
    );
  });
});
