import { describe, expect, it } from 'vitest';
import about from '../../commands/about.ts';
import { commands } from '../../commands/index.ts';
import { loadConfig } from '../../src/config.ts';
import { createDispatchContext } from '../../src/interactions/context.ts';
import { Library } from '../../src/library.ts';
import { memoryLogger } from '../../src/logging/logger.ts';

describe('createDispatchContext', () => {
  it("counts /about's uptime from the process's start, not from when the corpus was ready", async () => {
    // The context is made after a slow start (72 s of reading and indexing here): uptime includes it.
    const ctx = createDispatchContext({
      commands,
      library: await Library.open('corpus'),
      config: loadConfig({}),
      logger: memoryLogger(),
      now: () => Math.round(performance.timeOrigin) + 72_000,
    });
    expect(Math.abs(ctx.startedAt.getTime() - (Date.now() - process.uptime() * 1000))).toBeLessThan(1000);
    const reply = await about.execute(ctx);
    expect(reply.embeds?.[0]?.fields?.find((field) => field.name === 'Uptime')?.value).toBe('1m 12s');
  });
});
