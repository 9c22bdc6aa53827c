import { SlashCommandBuilder } from 'discord.js';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../src/config.ts';
import type { AnyCommand, Command, ProgressReporter } from '../../src/interactions/command.ts';
import { createDispatchContext } from '../../src/interactions/context.ts';
import { APOLOGY, dispatchInteraction } from '../../src/interactions/dispatch.ts';
import { UserError } from '../../src/interactions/errors.ts';
import type {
  AutocompleteChoice,
  IncomingInteraction,
  ReplyPayload,
  Responder,
} from '../../src/interactions/incoming.ts';
import type { LibraryView } from '../../src/interactions/library-view.ts';
import { memoryLogger } from '../../src/logging/logger.ts';

/** Records each call a dispatcher makes, in order. */
class Recorder implements Responder {
  readonly calls: [string, unknown][] = [];
  failReply = false;
  async reply(payload: ReplyPayload) {
    if (this.failReply) throw new Error('network down');
    this.calls.push(['reply', payload]);
  }
  async defer(options: { ephemeral: boolean }) {
    this.calls.push(['defer', options]);
  }
  async editReply(payload: ReplyPayload) {
    this.calls.push(['editReply', payload]);
  }
  async update(payload: ReplyPayload) {
    this.calls.push(['update', payload]);
  }
  async deferUpdate() {
    this.calls.push(['deferUpdate', {}]);
  }
  async autocomplete(choices: AutocompleteChoice[]) {
    this.calls.push(['autocomplete', choices]);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const Empty = z.object({});
const builder = (name: string) => new SlashCommandBuilder().setName(name).setDescription(name);

const commands: AnyCommand[] = [
  { data: builder('fast'), options: Empty, execute: () => ({ content: 'done' }) } satisfies Command<
    typeof Empty
  >,
  {
    data: builder('slow'),
    options: z.object({ secret: z.boolean().default(false) }),
    isPrivate: (options) => options.secret,
    execute: async () => {
      await sleep(60);
      return { content: 'slow done' };
    },
  } satisfies Command<z.ZodObject<{ secret: z.ZodDefault<z.ZodBoolean> }>>,
  {
    data: builder('steps'),
    options: Empty,
    defer: 'always',
    execute: async (_ctx, _options, _interaction, progress) => {
      progress({ content: 'step 1' });
      progress({ content: 'step 2 (throttled away)' });
      await sleep(5);
      return { content: 'all steps done' };
    },
  } satisfies Command<typeof Empty>,
  {
    data: builder('boom'),
    options: Empty,
    execute: () => {
      throw new Error('database on fire');
    },
  } satisfies Command<typeof Empty>,
  {
    data: builder('slow-boom'),
    options: Empty,
    execute: async () => {
      await sleep(60);
      throw new Error('slow fire');
    },
  } satisfies Command<typeof Empty>,
  {
    data: builder('late-boom'),
    options: Empty,
    defer: 'always',
    execute: async () => {
      throw new Error('late fire');
    },
  } satisfies Command<typeof Empty>,
  {
    data: builder('refuse'),
    options: Empty,
    execute: () => {
      throw new UserError('nope', 'You cannot do that here.');
    },
  } satisfies Command<typeof Empty>,
  {
    data: builder('mod'),
    options: Empty,
    access: 'moderators',
    execute: () => ({ content: 'modded' }),
    autocomplete: () => [{ name: 'Private feed', value: 'https://feeds.example/news?key=secret' }],
  } satisfies Command<typeof Empty>,
  {
    data: builder('count').addIntegerOption((o) =>
      o.setName('n').setDescription('how many').setMinValue(1).setMaxValue(3),
    ),
    options: z.object({ n: z.number().int().min(1).max(3) }),
    rateLimited: true,
    execute: (_ctx, options) => ({ content: `n=${options.n}` }),
    autocomplete: (_ctx, focused) => {
      if (focused.value === 'crash') throw new Error('autocomplete crashed');
      return Array.from({ length: 40 }, (_, index) => ({
        name: `${focused.value}${'x'.repeat(150)}`,
        value: `v${index}`,
      }));
    },
    buttons: {
      'count:again': { execute: (_ctx, [n = '']) => ({ update: { content: `again ${n}` } }) },
      'count:mod': { access: 'moderators', execute: () => ({ reply: { content: 'mod button' } }) },
    },
  } satisfies Command<z.ZodObject<{ n: z.ZodNumber }>>,
  {
    data: builder('work'),
    options: Empty,
    execute: () => ({ content: 'work' }),
    buttons: {
      'work:steps': {
        defer: 'always',
        execute: async (_ctx, _args, _press, progress) => {
          progress({ content: 'writing' });
          progress({ content: 'reloading (throttled away)' });
          await sleep(5);
          return { update: { content: 'applied', components: [] } };
        },
      },
      'work:quick-always': { defer: 'always', execute: () => ({ update: { content: 'quick' } }) },
      'work:slow-page': {
        execute: async (_ctx, _args, _press, progress) => {
          progress({ content: 'before the deferral (dropped)' });
          await sleep(60);
          return { update: { content: 'slow page' } };
        },
      },
      'work:slow-private': {
        execute: async () => {
          await sleep(60);
          return { reply: { content: 'just for you', flags: 64 } };
        },
      },
      'work:late-boom': {
        defer: 'always',
        execute: async (_ctx, _args, _press, progress) => {
          progress({ content: 'reloading' });
          await sleep(5);
          throw new Error('disk on fire');
        },
      },
      'work:slow-refuse': {
        execute: async () => {
          await sleep(60);
          throw new UserError('gone', 'That change was already applied.');
        },
      },
      'work:long': {
        defer: 'always',
        execute: async (_ctx, _args, _press, progress) => {
          progress({ content: 'writing' });
          progress({ content: 'reading (superseded)' });
          progress({ content: 'indexing' });
          await sleep(1500);
          return { update: { content: 'applied' } };
        },
      },
      'work:keeps-reporting': {
        defer: 'always',
        execute: (_ctx, _args, _press, progress) => {
          lateProgress = progress;
          return { update: { content: 'finished' } };
        },
      },
    },
  } satisfies Command<typeof Empty>,
];

/** The progress reporter a button handler kept after returning, to report through it too late. */
let lateProgress: ProgressReporter | undefined;

function setup(env: Record<string, string> = {}) {
  const logger = memoryLogger();
  const ctx = createDispatchContext({
    library: {} as LibraryView,
    config: loadConfig({ RATE_LIMIT_QUESTIONS: '2', ...env }),
    logger,
    commands,
    deferAfterMs: 20,
  });
  return { ctx, logger, responder: new Recorder() };
}

const base = {
  id: 'i1',
  userId: 'u1',
  userName: 'ann',
  guildId: 'g1',
  memberRoleIds: [] as string[],
  memberPermissions: 0n,
};
const command = (
  commandName: string,
  options = {},
  extra: Partial<IncomingInteraction> = {},
): IncomingInteraction =>
  ({ ...base, kind: 'chat-input', commandName, options, ...extra }) as IncomingInteraction;
const content = (call: [string, unknown] | undefined) => (call?.[1] as ReplyPayload | undefined)?.content;
const flags = (call: [string, unknown] | undefined) => (call?.[1] as ReplyPayload | undefined)?.flags ?? 0;

describe('dispatchInteraction', () => {
  it('replies at once to a fast command, with mentions disabled', async () => {
    const { ctx, responder } = setup();
    expect(await dispatchInteraction(command('fast'), responder, ctx)).toEqual({
      name: 'fast',
      outcome: 'ok',
    });
    expect(responder.calls).toEqual([['reply', { content: 'done', allowed_mentions: { parse: [] } }]]);
  });

  it('defers a command that runs past the deferral time, privately when its options say so, then edits', async () => {
    const { ctx, responder } = setup();
    await dispatchInteraction(command('slow', { secret: true }), responder, ctx);
    expect(responder.calls.map(([name]) => name)).toEqual(['defer', 'editReply']);
    expect(responder.calls[0]![1]).toEqual({ ephemeral: true });
    expect(content(responder.calls[1])).toBe('slow done');
  });

  it('shows throttled progress on a deferred reply and always ends with the final reply', async () => {
    const { ctx, responder } = setup();
    await dispatchInteraction(command('steps'), responder, ctx);
    expect(
      responder.calls.map(([name, payload]) => `${name}:${(payload as ReplyPayload).content ?? ''}`),
    ).toEqual(['defer:', 'editReply:step 1', 'editReply:all steps done']);
  });

  it('answers an unexpected error with a private apology and logs it with the interaction', async () => {
    const { ctx, responder, logger } = setup();
    expect(await dispatchInteraction(command('boom'), responder, ctx)).toEqual({
      name: 'boom',
      outcome: 'error',
    });
    expect(content(responder.calls[0])).toBe(APOLOGY);
    expect(flags(responder.calls[0]) & 64).toBe(64);
    expect(logger.events).toContainEqual(
      expect.objectContaining({
        level: 'error',
        message: 'interaction failed',
        context: expect.objectContaining({ command: 'boom', user: 'u1' }),
      }),
    );
  });

  it('edits the deferred reply with the apology when the error comes after deferring', async () => {
    const { ctx, responder } = setup();
    await dispatchInteraction(command('late-boom'), responder, ctx);
    expect(responder.calls.map(([name]) => name)).toEqual(['defer', 'editReply']);
    expect(content(responder.calls[1])).toBe(APOLOGY);
  });

  it('after a public deferral, replaces the "thinking" message with a private follow-up when it can', async () => {
    const { ctx } = setup();
    const responder = Object.assign(new Recorder(), {
      async followUp(this: Recorder, payload: ReplyPayload) {
        this.calls.push(['followUp', payload]);
      },
      async deleteReply(this: Recorder) {
        this.calls.push(['deleteReply', {}]);
      },
    });
    await dispatchInteraction(command('slow-boom'), responder, ctx);
    expect(responder.calls.map(([name]) => name)).toEqual(['defer', 'followUp', 'deleteReply']);
    expect(responder.calls[0]![1]).toEqual({ ephemeral: false });
    expect(content(responder.calls[1])).toBe(APOLOGY);
    expect(flags(responder.calls[1]) & 64).toBe(64);
  });

  it('shows a UserError message as it is, privately, and logs it as info', async () => {
    const { ctx, responder, logger } = setup();
    expect(await dispatchInteraction(command('refuse'), responder, ctx)).toEqual({
      name: 'refuse',
      outcome: 'user-error',
      code: 'nope',
    });
    expect(content(responder.calls[0])).toBe('You cannot do that here.');
    expect(flags(responder.calls[0]) & 64).toBe(64);
    expect(logger.events.at(-1)?.level).toBe('info');
  });

  it('names the option that failed validation', async () => {
    const { ctx, responder } = setup();
    await dispatchInteraction(command('count', { n: 7 }), responder, ctx);
    expect(content(responder.calls[0])).toBe('`n` must be a whole number from 1 to 3; got 7.');
  });

  it('refuses an unknown command clearly', async () => {
    const { ctx, responder } = setup();
    expect((await dispatchInteraction(command('gone'), responder, ctx)).code).toBe('unknown-command');
    expect(content(responder.calls[0])).toMatch(/I don't know the command `gone`/);
  });

  it('rate-limits per user: the third question in the window is refused without running', async () => {
    const { ctx, responder } = setup();
    await dispatchInteraction(command('count', { n: 1 }), responder, ctx);
    await dispatchInteraction(command('count', { n: 2 }), responder, ctx);
    const third = await dispatchInteraction(command('count', { n: 3 }), responder, ctx);
    expect(third.code).toBe('rate-limited');
    expect(responder.calls.map(content)).toEqual([
      'n=1',
      'n=2',
      expect.stringMatching(/^You're asking faster/),
    ]);
    await dispatchInteraction(command('count', { n: 3 }, { userId: 'u2' }), responder, ctx);
    expect(content(responder.calls.at(-1))).toBe('n=3');
  });

  it('without moderator roles configured, lets Manage Server through and refuses others', async () => {
    const { ctx, responder } = setup();
    await dispatchInteraction(command('mod', {}, { memberPermissions: 32n }), responder, ctx);
    await dispatchInteraction(command('mod', {}, { memberPermissions: 1024n }), responder, ctx);
    expect(responder.calls.map(content)).toEqual([
      'modded',
      'Only moderators can use `/mod`: it needs the Manage Server permission.',
    ]);
  });

  it('with moderator roles configured, only those roles pass, whatever the permissions', async () => {
    const { ctx, responder } = setup({ MODERATOR_ROLE_IDS: '55555,66666' });
    await dispatchInteraction(command('mod', {}, { memberRoleIds: ['66666'] }), responder, ctx);
    await dispatchInteraction(command('mod', {}, { memberPermissions: 8n | 32n }), responder, ctx);
    await dispatchInteraction(
      command('mod', {}, { memberRoleIds: ['66666'], guildId: null }),
      responder,
      ctx,
    );
    expect(responder.calls.map(content)).toEqual([
      'modded',
      'Only moderators can use `/mod`: it needs a moderator role.',
      'Only moderators can use `/mod`: it needs a moderator role in a server.',
    ]);
  });

  it('routes buttons by custom_id prefix, checks their access, and updates or replies as they ask', async () => {
    const { ctx, responder } = setup();
    const press = (customId: string): IncomingInteraction => ({
      ...base,
      kind: 'button',
      customId,
      message: { id: 'm', content: '', embeds: [] },
    });
    await dispatchInteraction(press('count:again:4'), responder, ctx);
    await dispatchInteraction(press('count:mod'), responder, ctx);
    await dispatchInteraction(press('nothing:here'), responder, ctx);
    expect(responder.calls.map(([name, payload]) => `${name}:${(payload as ReplyPayload).content}`)).toEqual([
      'update:again 4',
      'reply:Only moderators can use this button: it needs the Manage Server permission.',
      'reply:This button no longer works; run the command again.',
    ]);
  });

  it('cuts autocomplete to 25 choices of at most 100 characters, and answers a failure with no choices', async () => {
    const { ctx, responder, logger } = setup();
    const typing = (value: string): IncomingInteraction => ({
      ...base,
      kind: 'autocomplete',
      commandName: 'count',
      options: {},
      focused: { name: 'n', value },
    });
    await dispatchInteraction(typing('ab'), responder, ctx);
    const choices = responder.calls[0]![1] as AutocompleteChoice[];
    expect(choices).toHaveLength(25);
    expect(Math.max(...choices.map((choice) => choice.name.length))).toBe(100);
    await dispatchInteraction(typing('crash'), responder, ctx);
    expect(responder.calls[1]).toEqual(['autocomplete', []]);
    expect(logger.events.at(-1)?.message).toBe('autocomplete failed');
  });

  it('answers autocomplete longer than the option allows with no choices, without running it', async () => {
    const { ctx, responder } = setup();
    const typing = (value: string): IncomingInteraction => ({
      ...base,
      kind: 'autocomplete',
      commandName: 'count',
      options: {},
      focused: { name: 'n', value },
    });
    // `n` declares no max_length: 100 characters are looked at, no more. (`crash` would throw if run.)
    await dispatchInteraction(typing(`crash${'\uFDFA'.repeat(96)}`), responder, ctx);
    await dispatchInteraction(typing('a'.repeat(100)), responder, ctx);
    expect(responder.calls[0]).toEqual(['autocomplete', []]);
    expect((responder.calls[1]![1] as AutocompleteChoice[]).length).toBe(25);
  });

  it('limits each member to 20 autocomplete requests in 10 seconds; past it, no choices until the window moves', async () => {
    let now = 0;
    const logger = memoryLogger();
    const ctx = createDispatchContext({
      library: {} as LibraryView,
      config: loadConfig({}),
      logger,
      commands,
      now: () => now,
    });
    const responder = new Recorder();
    const typing = (userId: string): IncomingInteraction => ({
      ...base,
      userId,
      kind: 'autocomplete',
      commandName: 'count',
      options: {},
      focused: { name: 'n', value: 'x' },
    });
    const offered = () => (responder.calls.at(-1)![1] as AutocompleteChoice[]).length;
    for (let i = 0; i < 20; i++) {
      await dispatchInteraction(typing('typist'), responder, ctx);
      expect(offered()).toBe(25);
    }
    await dispatchInteraction(typing('typist'), responder, ctx);
    expect(offered()).toBe(0);
    await dispatchInteraction(typing('someone-else'), responder, ctx);
    expect(offered()).toBe(25);
    now += 10_000;
    await dispatchInteraction(typing('typist'), responder, ctx);
    expect(offered()).toBe(25);
  });

  it('offers a moderators’ command’s suggestions (feed URLs with their keys) to moderators only', async () => {
    const { ctx, responder } = setup();
    const typing = (extra: Partial<IncomingInteraction>): IncomingInteraction =>
      ({
        ...base,
        kind: 'autocomplete',
        commandName: 'mod',
        options: {},
        focused: { name: 'url', value: '' },
        ...extra,
      }) as IncomingInteraction;
    expect(await dispatchInteraction(typing({}), responder, ctx)).toEqual({ name: 'mod', outcome: 'ok' });
    await dispatchInteraction(typing({ guildId: null, memberPermissions: null }), responder, ctx);
    await dispatchInteraction(typing({ memberPermissions: 32n }), responder, ctx);
    expect(responder.calls).toEqual([
      ['autocomplete', []],
      ['autocomplete', []],
      ['autocomplete', [{ name: 'Private feed', value: 'https://feeds.example/news?key=secret' }]],
    ]);
  });

  it('never rejects, even when the transport fails to send', async () => {
    const { ctx, responder, logger } = setup();
    responder.failReply = true;
    await expect(dispatchInteraction(command('fast'), responder, ctx)).resolves.toEqual({
      name: 'fast',
      outcome: 'error',
    });
    expect(logger.events.map((event) => event.message)).toEqual([
      'interaction failed',
      'could not send the error reply',
    ]);
  });
});

describe('dispatchInteraction for a button that defers', () => {
  const press = (customId: string): IncomingInteraction => ({
    ...base,
    kind: 'button',
    customId,
    message: { id: 'm', content: 'preview', embeds: [] },
  });
  const steps = (calls: [string, unknown][]) =>
    calls.map(([name, payload]) => `${name}:${(payload as ReplyPayload).content ?? ''}`);
  /** A transport that can send follow-ups, as discord.js can. */
  const withFollowUps = (recorder: Recorder) =>
    Object.assign(recorder, {
      async followUp(this: Recorder, payload: ReplyPayload) {
        this.calls.push(['followUp', payload]);
      },
    });

  it('with defer "always", acknowledges with a deferred update, shows throttled progress, then edits the message', async () => {
    const { ctx, responder } = setup();
    expect(await dispatchInteraction(press('work:steps'), responder, ctx)).toEqual({
      name: 'work:steps',
      outcome: 'ok',
    });
    expect(steps(responder.calls)).toEqual(['deferUpdate:', 'editReply:writing', 'editReply:applied']);
    expect(responder.calls[2]![1]).toEqual({
      content: 'applied',
      components: [],
      allowed_mentions: { parse: [] },
    });
    expect(responder.calls[1]![1]).toMatchObject({ allowed_mentions: { parse: [] } });
  });

  it('with defer "always", defers even a handler that is quick, and never answers with update', async () => {
    const { ctx, responder } = setup();
    await dispatchInteraction(press('work:quick-always'), responder, ctx);
    expect(steps(responder.calls)).toEqual(['deferUpdate:', 'editReply:quick']);
  });

  it('answers a press whose custom_id is not a string (no transport should pass one) plainly, never throwing', async () => {
    const { ctx, responder, logger } = setup();
    const odd = { ...press('x'), customId: 42 as unknown as string };
    expect(await dispatchInteraction(odd, responder, ctx)).toEqual({
      name: 'unknown',
      outcome: 'user-error',
      code: 'unknown-button',
    });
    expect(steps(responder.calls)).toEqual(['reply:This button no longer works; run the command again.']);
    expect(logger.events.filter((event) => event.level === 'error')).toEqual([]);
  });

  it('by default ("auto"), updates a quick button at once without deferring', async () => {
    const { ctx, responder } = setup();
    await dispatchInteraction(press('count:again:2'), responder, ctx);
    expect(steps(responder.calls)).toEqual(['update:again 2']);
  });

  it('by default, defers a button still running after deferAfterMs and applies its update as an edit', async () => {
    const { ctx, responder } = setup();
    await dispatchInteraction(press('work:slow-page'), responder, ctx);
    // Progress reported before the deferral has nothing to edit and is dropped.
    expect(steps(responder.calls)).toEqual(['deferUpdate:', 'editReply:slow page']);
    expect(responder.calls[1]![1]).toEqual({ content: 'slow page', allowed_mentions: { parse: [] } });
  });

  it('sends a reply that comes after a deferred update as a follow-up, keeping it private', async () => {
    const { ctx } = setup();
    const responder = withFollowUps(new Recorder());
    await dispatchInteraction(press('work:slow-private'), responder, ctx);
    expect(steps(responder.calls)).toEqual(['deferUpdate:', 'followUp:just for you']);
    expect(flags(responder.calls[1]) & 64).toBe(64);
    expect(responder.calls[1]![1]).toMatchObject({ allowed_mentions: { parse: [] } });
  });

  it('answers a failure after the deferral privately in a follow-up, leaving the button’s message alone', async () => {
    const { ctx, logger } = setup();
    const responder = withFollowUps(new Recorder());
    expect(await dispatchInteraction(press('work:late-boom'), responder, ctx)).toEqual({
      name: 'work:late-boom',
      outcome: 'error',
    });
    expect(steps(responder.calls)).toEqual(['deferUpdate:', 'editReply:reloading', `followUp:${APOLOGY}`]);
    expect(flags(responder.calls[2]) & 64).toBe(64);
    expect(responder.calls[2]![1]).toMatchObject({ allowed_mentions: { parse: [] } });
    expect(logger.events).toContainEqual(
      expect.objectContaining({
        level: 'error',
        message: 'interaction failed',
        context: expect.objectContaining({ customId: 'work:late-boom' }),
      }),
    );
  });

  it('answers a refusal after an automatic deferral privately, through reply when the transport has no follow-ups', async () => {
    const { ctx, responder } = setup();
    expect(await dispatchInteraction(press('work:slow-refuse'), responder, ctx)).toEqual({
      name: 'work:slow-refuse',
      outcome: 'user-error',
      code: 'gone',
    });
    expect(steps(responder.calls)).toEqual(['deferUpdate:', 'reply:That change was already applied.']);
    expect(flags(responder.calls[1]) & 64).toBe(64);
  });

  it('holds progress that comes too soon and shows the latest once a second has passed', async () => {
    vi.useFakeTimers();
    try {
      const { ctx, responder } = setup();
      const dispatched = dispatchInteraction(press('work:long'), responder, ctx);
      await vi.advanceTimersByTimeAsync(1600);
      await dispatched;
      expect(steps(responder.calls)).toEqual([
        'deferUpdate:',
        'editReply:writing',
        'editReply:indexing',
        'editReply:applied',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops progress reported after the handler has returned, so the final edit stays', async () => {
    const { ctx, responder } = setup();
    await dispatchInteraction(press('work:keeps-reporting'), responder, ctx);
    lateProgress?.({ content: 'stale progress' });
    await sleep(0);
    expect(lateProgress).toBeDefined();
    expect(steps(responder.calls)).toEqual(['deferUpdate:', 'editReply:finished']);
  });
});
