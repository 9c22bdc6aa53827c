import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import { ids } from '../support/stand-in-discord/fixtures.ts';
import { button, chatInputSubcommand } from '../support/stand-in-discord/interactions.ts';
import { customIdsOf, type Harness, moderator, startHarness } from './harness.ts';

const EPHEMERAL = 64;
const ARTICLE = 'teteghem-mayor-threatened-with-gun';

/** The outcome replaces the progress edits ("Removing `…` (file …); this message will show the outcome."). */
const isOutcome = (data: Record<string, unknown>) => !String(data.content ?? '').startsWith('Removing ');

describe('GIVEN a moderator removing an article with /corpus, through the real discord.js client', () => {
  let harness: Harness;
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'newsdesk-corpus-confirm-'));
    await cp('corpus', folder, { recursive: true });
    harness = await startHarness({ corpusPath: folder, env: { MODERATOR_ROLE_IDS: ids.moderatorRole } });
  });

  afterAll(async () => {
    await harness?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  it('WHEN Confirm is pressed THEN it is acknowledged with a deferred update and the preview is edited into the outcome', async () => {
    const asked = harness.discord.interact(
      chatInputSubcommand('corpus', 'remove', { id: ARTICLE }, moderator),
    );
    const preview = await asked.final();
    expect(preview.type).toBe(4);
    expect((preview.data.flags as number) & EPHEMERAL).toBe(EPHEMERAL);
    const message = asked.message as APIMessage;
    const [confirm] = customIdsOf(preview.data);
    expect(confirm).toMatch(/^corpus:confirm:/);

    const pressed = harness.discord.interact(button(message, confirm!, moderator));
    const { type, data, deferred } = await pressed.final({ until: isOutcome, timeoutMs: 30_000 });
    expect(pressed.callbacks[0]).toEqual({ type: 6 });
    expect(deferred).toBe(true);
    expect(type).toBe(6);
    expect(String(data.content)).toMatch(
      new RegExp(`^Removed \`${ARTICLE}\`\\.\\nReloaded in .*\\n.*\\nRemoved \\(1\\): \`${ARTICLE}\``),
    );
    expect(data.components).toEqual([]);
    // Progress first, without the buttons: the change is under way.
    expect(pressed.edits[0]).toMatchObject({
      content: `Removing \`${ARTICLE}\` (file \`${ARTICLE}.md\`); this message will show the outcome.\nRemoving the file…`,
      components: [],
    });
    // Every edit, progress included, went out safe; the outcome is the last one.
    for (const edit of pressed.edits) {
      expect(edit.allowed_mentions).toEqual({ parse: [] });
      expect(payloadViolations(edit)).toEqual([]);
    }
    expect(pressed.edits.at(-1)).toBe(data);
    expect(pressed.followups).toEqual([]);
    // The edits landed on the preview message itself, not on a new one.
    expect(harness.discord.messages.get(message.id)?.content).toBe(data.content);
    expect(harness.library.engine.article(ARTICLE)).toBeUndefined();
    expect(await readdir(folder)).not.toContain(`${ARTICLE}.md`);
  });

  it('WHEN the same Confirm is pressed again THEN the deferred update ends with the preview saying it has expired', async () => {
    const asked = harness.discord.interact(
      chatInputSubcommand('corpus', 'remove', { id: 'calais-mayor-renews-border-threat' }, moderator),
    );
    const preview = await asked.final();
    const message = asked.message as APIMessage;
    const [confirm, cancel] = customIdsOf(preview.data);
    const cancelled = await harness.discord.interact(button(message, cancel!, moderator)).final();
    expect(cancelled).toMatchObject({ type: 7, data: { content: 'Cancelled; nothing was changed.' } });
    const late = harness.discord.interact(button(message, confirm!, moderator));
    const { data } = await late.final();
    expect(late.callbacks[0]).toEqual({ type: 6 });
    expect(String(data.content)).toMatch(/^This confirmation has expired/);
    expect(harness.library.engine.article('calais-mayor-renews-border-threat')).toBeDefined();
  });
});
