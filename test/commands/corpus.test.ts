import { readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import corpusCommand from '../../commands/corpus.ts';
import { loadConfig } from '../../src/config.ts';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { type DispatchContext, dispatchInteraction } from '../../src/interactions/dispatch.ts';
import type { IncomingInteraction, ReplyPayload, Responder } from '../../src/interactions/incoming.ts';
import { MANAGE_GUILD } from '../../src/interactions/permissions.ts';
import { RateLimiter } from '../../src/interactions/rate-limiter.ts';
import { CommandRegistry } from '../../src/interactions/registry.ts';
import type { Library } from '../../src/library.ts';
import type { AuditEntry } from '../../src/lifecycle/audit-log.ts';
import type { CorpusLifecycle } from '../../src/lifecycle/corpus-lifecycle.ts';
import { memoryLogger } from '../../src/logging/logger.ts';
import { auditedLibrary, copyOfBundledCorpus, LIGHTHOUSE } from '../support/temp-corpus.ts';

const MODERATOR_ROLE = '900000000000000001';
const MEMBER_ROLE = '900000000000000002';
const ALICE = '800000000000000001';
const BOB = '800000000000000002';
const GUILD = '700000000000000001';

/** Serves uploaded files on loopback, standing in for Discord's attachment CDN. */
let cdn: Server;
let cdnBase: string;
const uploads = new Map<string, Uint8Array>();

beforeAll(async () => {
  cdn = createServer((request, response) => {
    const body = uploads.get(request.url ?? '');
    if (body === undefined) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
  cdnBase = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => cdn.close(() => resolve())));

let folder: string;
let cleanup: () => Promise<void>;
let library: Library;
let lifecycle: CorpusLifecycle;
let ctx: DispatchContext;
let audit: AuditEntry[];

beforeEach(async () => {
  ({ corpus: folder, cleanup } = await copyOfBundledCorpus());
  ({ library, lifecycle, audit } = await auditedLibrary(folder));
  ctx = {
    library,
    corpus: lifecycle,
    config: loadConfig({ MODERATOR_ROLE_IDS: MODERATOR_ROLE }),
    logger: memoryLogger(),
    startedAt: new Date(),
    now: () => new Date(),
    commands: new CommandRegistry([corpusCommand]),
    rateLimiter: new RateLimiter({ limit: 5, windowMs: 30_000 }),
  };
});
afterEach(() => cleanup());

/** Records what the bot sent back, as a transport would send it to Discord. */
function recorder() {
  const sent: { kind: string; payload: ReplyPayload }[] = [];
  const responder: Responder = {
    reply: async (payload) => void sent.push({ kind: 'reply', payload }),
    defer: async () => void sent.push({ kind: 'defer', payload: {} }),
    editReply: async (payload) => void sent.push({ kind: 'edit', payload }),
    update: async (payload) => void sent.push({ kind: 'update', payload }),
    deferUpdate: async () => void sent.push({ kind: 'deferUpdate', payload: {} }),
    autocomplete: async (choices) =>
      void sent.push({ kind: 'autocomplete', payload: { content: JSON.stringify(choices) } }),
  };
  return { sent, responder, last: () => sent.at(-1)!.payload };
}

const member = (userId: string, roles: string[], permissions = 0n) => ({
  id: `${Math.random()}`,
  userId,
  guildId: GUILD,
  memberRoleIds: roles,
  memberPermissions: permissions,
});

function upload(name: string, body: string | Uint8Array) {
  const path = `/attachments/${uploads.size}/${encodeURIComponent(name)}`;
  uploads.set(path, typeof body === 'string' ? new TextEncoder().encode(body) : body);
  const size = uploads.get(path)!.byteLength;
  return {
    kind: 'attachment' as const,
    id: '1',
    filename: name,
    url: `${cdnBase}${path}`,
    size,
    contentType: 'text/markdown',
  };
}

async function run(incoming: IncomingInteraction) {
  const r = recorder();
  const outcome = await dispatchInteraction(incoming, r.responder, ctx);
  return { outcome, ...r };
}

const add = (userId: string, roles: string[], file: ReturnType<typeof upload>, permissions = 0n) =>
  run({
    kind: 'chat-input',
    commandName: 'corpus',
    options: { subcommand: 'add', file },
    ...member(userId, roles, permissions),
  });
const press = (userId: string, roles: string[], customId: string) =>
  run({ kind: 'button', customId, message: { id: '1', content: '', embeds: [] }, ...member(userId, roles) });

function buttonIds(payload: ReplyPayload): string[] {
  return (payload.components ?? []).flatMap((row) =>
    'components' in row ? row.components.flatMap((c) => ('custom_id' in c ? [c.custom_id] : [])) : [],
  );
}

describe('/corpus permissions', () => {
  it('is hidden from members by default_member_permissions Manage Server and unavailable in DMs', () => {
    const json = corpusCommand.data.toJSON();
    expect(json.default_member_permissions).toBe(MANAGE_GUILD.toString());
    expect(json.contexts).toEqual([0]);
  });

  it('refuses a member without a moderator role even with Manage Server, and writes nothing', async () => {
    const { outcome, last } = await add(
      BOB,
      [MEMBER_ROLE],
      upload('lighthouse.md', LIGHTHOUSE),
      MANAGE_GUILD,
    );
    expect(outcome).toMatchObject({ outcome: 'user-error', code: 'forbidden' });
    expect(last().content).toMatch(/^Only moderators can use `\/corpus`/);
    expect(last().flags).toBe(64);
    expect(await readdir(folder)).toHaveLength(3);
  });

  it('refuses the confirm button to a member who is not a moderator', async () => {
    const preview = await add(ALICE, [MODERATOR_ROLE], upload('lighthouse.md', LIGHTHOUSE));
    const [confirm] = buttonIds(preview.last());
    const pressed = await press(BOB, [MEMBER_ROLE], confirm!);
    expect(pressed.outcome).toMatchObject({ outcome: 'user-error', code: 'forbidden' });
    expect(await readdir(folder)).toHaveLength(3);
  });
});

describe('/corpus add', () => {
  it('previews the article privately, then adds it and reloads when the same moderator confirms', async () => {
    const preview = await add(ALICE, [MODERATOR_ROLE], upload('Lighthouse Rescue.md', LIGHTHOUSE));
    expect(preview.outcome.outcome).toBe('ok');
    const payload = preview.last();
    expect(payload.flags).toBe(64);
    expect(payload.content).toMatch(/^Add this article to the corpus\?/);
    expect(payload.embeds?.[0]?.title).toBe('Lighthouse keeper rescues stranded kayakers off Gravelines');
    expect(payload.embeds?.[0]?.description).toContain('`lighthouse-rescue.md`');
    expect(payload.embeds?.[0]?.fields?.[0]?.value).toMatch(/^A lighthouse keeper at Gravelines/);
    expect(await readdir(folder)).toHaveLength(3);

    const [confirm] = buttonIds(payload);
    const versionBefore = library.engine.version;
    // Another moderator cannot confirm Alice's preview.
    expect((await press(BOB, [MODERATOR_ROLE], confirm!)).last().content).toMatch(
      /expired, was already used, or belongs to someone else/,
    );
    const done = await press(ALICE, [MODERATOR_ROLE], confirm!);
    // Acknowledged at once, then the preview is edited: progress first, the outcome last.
    expect(done.sent[0]?.kind).toBe('deferUpdate');
    expect(done.sent.at(-1)?.kind).toBe('edit');
    expect(done.last().content).toMatch(/^Added `lighthouse-rescue`\.\nReloaded in/);
    expect(done.last().components).toEqual([]);
    expect(library.engine.answer('who rescued the stranded kayakers?').results[0]?.article).toBe(
      'lighthouse-rescue',
    );
    expect(audit.map((entry) => [entry.action, entry.outcome, entry.actor.id])).toEqual([
      ['reload', 'ok', ALICE],
      ['add', 'ok', ALICE],
    ]);
    expect(audit[1]).toMatchObject({
      target: 'lighthouse-rescue',
      versionBefore,
      versionAfter: library.engine.version,
    });
    // A confirmation works once.
    expect((await press(ALICE, [MODERATOR_ROLE], confirm!)).last().content).toMatch(/expired/);
  });

  it.each([
    [
      'not UTF-8',
      'cafe.md',
      Uint8Array.from([0x2d, 0x2d, 0x2d, 0x0a, 0xe9, 0x0a]),
      'not-utf8',
      /not UTF-8 text/,
    ],
    [
      'without a title',
      'untitled.md',
      '---\npublisher: Nobody\n---\n\nSome text.\n',
      'invalid-article',
      /title is required/,
    ],
    [
      'too large',
      'huge.md',
      `---\ntitle: Huge\n---\n\n${'word '.repeat(120_000)}`,
      'too-large',
      /at most 512 KiB/,
    ],
    ['with a hostile name', '../../etc/passwd.md', LIGHTHOUSE, 'hostile-name', /must not contain "\/"/],
    ['of the wrong type', 'payload.exe', LIGHTHOUSE, 'hostile-name', /must be \.md, \.markdown, \.txt/],
  ])(
    'refuses a file %s with a clear private message and changes nothing',
    async (_what, name, body, code, message) => {
      const { outcome, last } = await add(ALICE, [MODERATOR_ROLE], upload(name, body));
      expect(outcome).toMatchObject({ outcome: 'user-error', code });
      expect(last().content).toMatch(message);
      expect(last().flags).toBe(64);
      expect(await readdir(folder)).toHaveLength(3);
      expect(audit).toEqual([]);
    },
  );

  it('undoes the write when the reload refuses the corpus, keeping the old version serving', async () => {
    const preview = await add(ALICE, [MODERATOR_ROLE], upload('lighthouse.md', LIGHTHOUSE));
    // Someone breaks the folder by hand between preview and confirmation.
    const { writeFile } = await import('node:fs/promises');
    await writeFile(`${folder}/broken.md`, '---\n---\n');
    const version = library.engine.version;
    const done = await press(ALICE, [MODERATOR_ROLE], buttonIds(preview.last())[0]!);
    expect(done.sent.at(-1)?.kind).toBe('edit');
    expect(done.last().content).toMatch(
      /^The change to `lighthouse` was undone because the corpus could not be reloaded/,
    );
    expect(done.last().content).toContain('broken.md:');
    expect(library.engine.version).toBe(version);
    expect((await readdir(folder)).sort()).toContain('broken.md');
    expect(await readdir(folder)).not.toContain('lighthouse.md');
    expect(audit.at(-1)).toMatchObject({ action: 'add', outcome: 'refused', versionAfter: version });
  });
});

describe('/corpus confirm on a slow reload', () => {
  it('acknowledges at once, shows progress on the preview, and ends by editing it with the outcome', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    ({ library: ctx.library, lifecycle: ctx.corpus } = await auditedLibrary(folder, {
      engine: library.engine,
      audit,
      lifecycle: { load: async (path: string) => gate.then(() => loadCorpus(path)) },
    }));
    const preview = await add(ALICE, [MODERATOR_ROLE], upload('lighthouse.md', LIGHTHOUSE));
    const r = recorder();
    const pressed = dispatchInteraction(
      {
        kind: 'button',
        customId: buttonIds(preview.last())[0]!,
        message: { id: '1', content: preview.last().content ?? '', embeds: preview.last().embeds ?? [] },
        ...member(ALICE, [MODERATOR_ROLE]),
      },
      r.responder,
      ctx,
    );
    // The reload waits on the gate: the press is acknowledged and the preview shows where it is.
    await vi.waitFor(
      () => expect(r.sent.map((s) => s.payload.content ?? '').join('\n')).toContain('reading and validating'),
      { timeout: 3000 },
    );
    expect(r.sent[0]?.kind).toBe('deferUpdate');
    const [writing, reading] = r.sent.slice(1);
    expect(writing?.kind).toBe('edit');
    expect(writing?.payload.content).toBe(
      'Adding `lighthouse` (file `lighthouse.md`); this message will show the outcome.\nWriting the file…',
    );
    // The buttons are gone, the article being added is still shown.
    expect(writing?.payload.components).toEqual([]);
    expect(writing?.payload.embeds?.[0]?.title).toBe(preview.last().embeds?.[0]?.title);
    expect(writing?.payload.allowed_mentions).toEqual({ parse: [] });
    expect(reading?.payload.content).toMatch(/\nReloading the corpus: reading and validating it…$/);
    expect(audit).toEqual([]);

    release();
    expect(await pressed).toEqual({ name: 'corpus:confirm', outcome: 'ok' });
    const final = r.sent.at(-1)!;
    expect(final.kind).toBe('edit');
    expect(final.payload.content).toMatch(/^Added `lighthouse`\.\nReloaded in .* s: version `/);
    expect(final.payload.content).toContain('Added (1): `lighthouse`');
    expect(final.payload).toMatchObject({ embeds: [], components: [], allowed_mentions: { parse: [] } });
    expect(r.sent.map((s) => s.kind)).not.toContain('reply');
    expect(audit.map((entry) => [entry.action, entry.outcome])).toEqual([
      ['reload', 'ok'],
      ['add', 'ok'],
    ]);
    expect((ctx.library as Library).engine.article('lighthouse')).toBeDefined();
  });
});

describe('/corpus remove', () => {
  it('autocompletes article ids', async () => {
    const { last } = await run({
      kind: 'autocomplete',
      commandName: 'corpus',
      options: { subcommand: 'remove', id: 'teteghem' },
      focused: { name: 'id', value: 'teteghem' },
      ...member(ALICE, [MODERATOR_ROLE]),
    });
    const choices = JSON.parse(last().content!) as { value: string }[];
    expect(choices.map((choice) => choice.value)).toContain('teteghem-mayor-threatened-with-gun');
  });

  it('asks for confirmation, then removes the file and reloads; cancel changes nothing', async () => {
    const id = 'teteghem-mayor-threatened-with-gun';
    const cancelled = await run({
      kind: 'chat-input',
      commandName: 'corpus',
      options: { subcommand: 'remove', id },
      ...member(ALICE, [MODERATOR_ROLE]),
    });
    expect(cancelled.last().content).toMatch(/^\*\*Remove\*\* `teteghem-mayor-threatened-with-gun`/);
    const [, cancel] = buttonIds(cancelled.last());
    expect((await press(ALICE, [MODERATOR_ROLE], cancel!)).last().content).toBe(
      'Cancelled; nothing was changed.',
    );
    expect(library.engine.article(id)).toBeDefined();

    const preview = await run({
      kind: 'chat-input',
      commandName: 'corpus',
      options: { subcommand: 'remove', id },
      ...member(ALICE, [MODERATOR_ROLE]),
    });
    const done = await press(ALICE, [MODERATOR_ROLE], buttonIds(preview.last())[0]!);
    expect(done.last().content).toMatch(
      /^Removed `teteghem-mayor-threatened-with-gun`\.\nReloaded in .*\n.*\nRemoved \(1\): `teteghem-mayor-threatened-with-gun`/,
    );
    expect(library.engine.article(id)).toBeUndefined();
    expect(await readdir(folder)).toHaveLength(2);
  });

  it('edits the preview with the refusal when the file is already gone at confirmation', async () => {
    const id = 'teteghem-mayor-threatened-with-gun';
    const preview = await run({
      kind: 'chat-input',
      commandName: 'corpus',
      options: { subcommand: 'remove', id },
      ...member(ALICE, [MODERATOR_ROLE]),
    });
    await rm(`${folder}/${id}.md`);
    const done = await press(ALICE, [MODERATOR_ROLE], buttonIds(preview.last())[0]!);
    expect(done.outcome.outcome).toBe('ok');
    expect(done.sent.map((s) => s.kind)).toEqual(['deferUpdate', 'edit', 'edit']);
    expect(done.last()).toEqual({
      content: `Nothing was changed: The file of "${id}" is already gone.`,
      embeds: [],
      components: [],
      allowed_mentions: { parse: [] },
    });
    expect(audit.at(-1)).toMatchObject({ action: 'remove', outcome: 'refused', target: id });
  });
});
