import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import { ids } from '../support/stand-in-discord/fixtures.ts';
import { chatInput } from '../support/stand-in-discord/interactions.ts';
import { type Harness, member, moderator, serverManager, startHarness, textOf } from './harness.ts';

const EPHEMERAL = 64;

/** Progress edits ("Reloading the corpus: indexing…") come first; the last edit is the outcome. */
const isFinalReload = (data: Record<string, unknown>) =>
  !String(data.content ?? '').startsWith('Reloading the corpus');

describe('GIVEN moderators configured as a role, and a corpus folder the bot can reload', () => {
  let harness: Harness;
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'newsdesk-moderation-'));
    await cp('corpus', folder, { recursive: true });
    harness = await startHarness({ corpusPath: folder, env: { MODERATOR_ROLE_IDS: ids.moderatorRole } });
  });

  afterAll(async () => {
    await harness?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  it('/reload is hidden from members by default_member_permissions (Manage Server) and is guild-only', () => {
    const reload = harness.ctx.commands.command('reload')!.data.toJSON();
    expect(reload.default_member_permissions).toBe('32');
    expect(reload.contexts).toEqual([0]);
  });

  it('WHEN a member runs /reload THEN it is refused privately and nothing is reloaded', async () => {
    const before = harness.library.engine;
    await writeFile(
      join(folder, 'sneaky.md'),
      '---\ntitle: Added by a member\n---\n\nShould never be served.\n',
    );
    const exchange = harness.discord.interact(chatInput('reload', {}, member));
    const { type, data } = await exchange.final();
    expect(type).toBe(4);
    expect((data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    expect(String(data.content)).toBe('Only moderators can use `/reload`: it needs a moderator role.');
    expect(harness.library.engine).toBe(before);
    await rm(join(folder, 'sneaky.md'));
  });

  it('WHEN someone with Manage Server but not the moderator role runs /reload THEN it is refused too', async () => {
    const { data } = await harness.discord.interact(chatInput('reload', {}, serverManager)).final();
    expect(String(data.content)).toMatch(/^Only moderators can use/);
  });

  it('WHEN a moderator runs /reload THEN the reply is deferred privately and then says what changed', async () => {
    await writeFile(
      join(folder, 'harbour-reopens.md'),
      '---\ntitle: Harbour reopens after storm\npublisher: Coast Gazette\n---\n\nThe harbour reopened on Monday after the storm.\n',
    );
    const exchange = harness.discord.interact(chatInput('reload', {}, moderator));
    const { data, deferred } = await exchange.final({ until: isFinalReload, timeoutMs: 30_000 });
    expect(deferred).toBe(true);
    expect(exchange.callbacks[0]).toEqual({ type: 5, data: { flags: EPHEMERAL } });
    expect(payloadViolations(data)).toEqual([]);
    const text = textOf(data);
    expect(text).toContain('Corpus reloaded');
    expect(text).toContain('Added (1)');
    expect(text).toContain('`harbour-reopens`');
    expect(text).toContain('3 → 4');
    // The new article answers at once.
    const answer = await harness.discord
      .interact(chatInput('ask', { question: 'When did the harbour reopen?' }, member))
      .final();
    expect(textOf(answer.data)).toContain('cite `harbour-reopens#1`');
  });

  it('WHEN the corpus on disk is broken THEN /reload is refused with every problem and the old index keeps serving', async () => {
    const serving = harness.library.engine;
    await writeFile(join(folder, 'broken.md'), '---\npublisher: Nobody\n---\n\nNo title here.\n');
    const { data } = await harness.discord
      .interact(chatInput('reload', {}, moderator))
      .final({ until: isFinalReload, timeoutMs: 30_000 });
    expect(String(data.content)).toMatch(/^\*\*Reload refused\*\*/);
    expect(textOf(data)).toContain('broken.md');
    expect(harness.library.engine).toBe(serving);
    await rm(join(folder, 'broken.md'));
  });
});
