import { z } from 'zod';
import { channelOf, checkAnswerChannel } from './answer-channels.ts';
import { openPendingThread } from './answer-threads.ts';
import { attachPostedMessage } from './cited-answers.ts';
import type { AnyCommand, ButtonResult, CommandContext } from './command.ts';
import { isUserError, UserError } from './errors.ts';
import type {
  AutocompleteIncoming,
  ButtonIncoming,
  ChatInputIncoming,
  IncomingInteraction,
  MessageContextMenuIncoming,
  ModalSubmitIncoming,
  ReplyPayload,
  Responder,
} from './incoming.ts';
import { describeOptionProblems } from './option-problems.ts';
import { isModerator } from './permissions.ts';
import type { QuestionLimiter } from './rate-limiter.ts';
import type { CommandRegistry } from './registry.ts';
import { ephemeral, finalizeChoices, finalizeReply } from './render/payload.ts';

/** Everything the dispatcher needs besides the interaction: the commands' context plus its own state. */
export interface DispatchContext extends CommandContext {
  commands: CommandRegistry;
  rateLimiter: QuestionLimiter;
  /**
   * Counts a member's autocomplete requests (one a keystroke); past the limit they get no choices.
   * @default no limit
   */
  autocompleteLimiter?: QuestionLimiter;
  /**
   * How long a command or button with `defer: 'auto'` may run before the dispatcher defers it, in
   * milliseconds. Discord drops an interaction not acknowledged within 3 seconds.
   * @default 2000
   */
  deferAfterMs?: number;
}

/** How far one interaction has been acknowledged, which decides where its answer (or error) goes. */
interface Acknowledgement {
  /** Deferred with `defer` (a "thinking…" reply); the answer edits it. */
  deferred: boolean;
  deferredPublicly: boolean;
  /** A button press acknowledged with `deferUpdate`; the answer edits the button's message. */
  deferredUpdate: boolean;
}

/** How one interaction ended, for logs and metrics (`requests by command and outcome`). */
export interface DispatchOutcome {
  /** Command name, button prefix, or `unknown`. */
  name: string;
  outcome: 'ok' | 'user-error' | 'error';
  /** The UserError code when `outcome` is `user-error`. */
  code?: string;
}

/** Shown privately for any unexpected failure; the details go to the log, never to the user. */
export const APOLOGY =
  'Sorry, something went wrong while answering that. It has been logged; please try again later.';

/**
 * The single entry point for every transport: validates, checks permission and the rate limit,
 * defers slow work, runs the command and sends its reply through `responder`. Never throws and never
 * rejects: every failure ends as a private message to the user and, when unexpected, a log line.
 */
export async function dispatchInteraction(
  incoming: IncomingInteraction,
  responder: Responder,
  ctx: DispatchContext,
): Promise<DispatchOutcome> {
  const state: Acknowledgement = {
    deferred: false,
    deferredPublicly: false,
    deferredUpdate: false,
  };
  const name = nameOf(incoming, ctx);
  try {
    switch (incoming.kind) {
      case 'chat-input':
      case 'message-context-menu':
        await runCommand(incoming, responder, ctx, state);
        break;
      case 'autocomplete':
        await runAutocomplete(incoming, responder, ctx);
        break;
      case 'button':
        await runButton(incoming, responder, ctx, state);
        break;
      case 'modal-submit':
        await runModal(incoming, responder, ctx, state);
        break;
    }
    return { name, outcome: 'ok' };
  } catch (error) {
    if (incoming.kind === 'autocomplete') {
      ctx.logger.error('autocomplete failed', { ...describe(incoming), error });
      await attempt(ctx, () => responder.autocomplete([]));
      return { name, outcome: 'error' };
    }
    const expected = isUserError(error);
    if (expected)
      ctx.logger.info('refused', { ...describe(incoming), code: error.code, reason: error.message });
    else ctx.logger.error('interaction failed', { ...describe(incoming), error });
    const payload = finalizeReply(ephemeral({ content: expected ? error.message : APOLOGY }));
    await attempt(ctx, () => sendError(responder, state, payload));
    return expected ? { name, outcome: 'user-error', code: error.code } : { name, outcome: 'error' };
  }
}

/**
 * An error reply is private. Before any acknowledgement that is a plain ephemeral reply; after a
 * private deferral, an edit; after a public deferral, the "thinking…" message is replaced by a private
 * follow-up when the transport can, else edited in place. After a button's deferred update it is a
 * private follow-up: the button's message may be public, and must not be replaced by an error.
 */
async function sendError(responder: Responder, state: Acknowledgement, payload: ReplyPayload): Promise<void> {
  if (state.deferredUpdate) return followUp(responder, payload);
  if (!state.deferred) {
    await responder.reply(payload);
    return;
  }
  if (state.deferredPublicly && responder.followUp && responder.deleteReply) {
    await responder.followUp(payload);
    await responder.deleteReply();
    return;
  }
  await responder.editReply(payload);
}

/** A new message after the interaction was acknowledged; a transport without follow-ups replies again. */
async function followUp(responder: Responder, payload: ReplyPayload): Promise<void> {
  await (responder.followUp ? responder.followUp(payload) : responder.reply(payload));
}

async function runCommand(
  incoming: ChatInputIncoming | MessageContextMenuIncoming,
  responder: Responder,
  ctx: DispatchContext,
  state: Acknowledgement,
): Promise<void> {
  const command = ctx.commands.command(incoming.commandName);
  if (!command)
    throw new UserError(
      'unknown-command',
      `I don't know the command \`${incoming.commandName}\`; it may have been removed.`,
    );
  checkAccess(command.access, incoming, ctx, commandLabel(incoming));
  const options = parseOptions(command, incoming.kind === 'chat-input' ? incoming.options : {});
  const channel = command.channelScoped ? await channelOf(ctx, incoming) : undefined;
  if (channel) checkAnswerChannel(incoming, channel, isModerator(incoming, ctx.config.MODERATOR_ROLE_IDS));
  if (command.rateLimited) await checkRate(incoming.userId, ctx);
  const isPrivate = command.isPrivate?.(options, channel) ?? false;
  const commandCtx: CommandContext = channel ? { ...ctx, channel } : ctx;
  const finish = (reply: ReplyPayload) => finalizeReply(isPrivate ? ephemeral(reply) : reply);
  const progress = new ProgressEdits(responder, ctx);
  const reply = await runDeferring(
    command.defer,
    ctx,
    progress,
    async () => {
      await responder.defer({ ephemeral: isPrivate });
      state.deferred = true;
      state.deferredPublicly = !isPrivate;
    },
    () => command.execute(commandCtx, options, incoming, progress.report),
  );
  const posted = state.deferred
    ? await responder.editReply(finish(reply))
    : await responder.reply(finish(reply));
  await attachPostedMessage(ctx, incoming, posted);
  await openPendingThread(ctx, incoming, posted);
}

/**
 * Runs a handler, acknowledging first (`always`) or once it has run for `deferAfterMs` (`auto`), and
 * returns its result once any progress edits have been sent. A handler's failure is rethrown after
 * the same wait, so the error message is never overtaken by a late progress edit.
 */
async function runDeferring<T>(
  mode: 'always' | 'auto' | undefined,
  ctx: DispatchContext,
  progress: ProgressEdits,
  acknowledge: () => Promise<void>,
  execute: () => Promise<T> | T,
): Promise<T> {
  const deferNow = async () => {
    await acknowledge();
    progress.deferred = true;
  };
  try {
    if (mode === 'always') {
      await deferNow();
      return await execute();
    }
    const work = settle(async () => execute());
    const timer = delay(ctx.deferAfterMs ?? 2000);
    const early = await Promise.race([work, timer.elapsed]).finally(timer.cancel);
    if (!early) await deferNow();
    const result = early ?? (await work);
    if ('error' in result) throw result.error;
    return result.value;
  } finally {
    await progress.stop();
  }
}

/**
 * Interim edits of a deferred reply, at most one a second, always finished before the final edit. A
 * report that comes too soon is held and sent when the second is up (unless a newer one replaces it),
 * so the message shows the latest step even when the next report is a long way off.
 */
class ProgressEdits {
  deferred = false;
  #stopped = false;
  #last = 0;
  #held: ReplyPayload | undefined;
  #timer: NodeJS.Timeout | undefined;
  #chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly responder: Responder,
    private readonly ctx: DispatchContext,
  ) {}

  readonly report = (payload: ReplyPayload): void => {
    if (!this.deferred || this.#stopped) return;
    this.#held = payload;
    if (this.#timer !== undefined) return;
    const wait = this.#last + PROGRESS_INTERVAL_MS - Date.now();
    if (wait <= 0) this.#send();
    else this.#timer = setTimeout(() => this.#send(), wait).unref();
  };

  /** Drops later and held reports (a handler may report after it has returned); waits for those sent. */
  stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#held = undefined;
    return this.#chain;
  }

  #send(): void {
    this.#timer = undefined;
    const payload = this.#held;
    this.#held = undefined;
    if (payload === undefined || this.#stopped) return;
    this.#last = Date.now();
    this.#chain = this.#chain
      .then(async () => {
        await this.responder.editReply(finalizeReply(payload));
      })
      .catch((error: unknown) => this.ctx.logger.warn('progress edit failed', { error }));
  }
}

/** Discord rate-limits edits of one message; one a second keeps progress well clear of that. */
const PROGRESS_INTERVAL_MS = 1000;

async function runAutocomplete(
  incoming: AutocompleteIncoming,
  responder: Responder,
  ctx: DispatchContext,
): Promise<void> {
  const command = ctx.commands.command(incoming.commandName);
  // A moderators' command suggests moderators' data (feed URLs may carry private keys): to anyone
  // else it suggests nothing, as Discord would show it to no one who cannot run it.
  if (!command?.autocomplete || !mayUse(command.access, incoming, ctx)) {
    await responder.autocomplete([]);
    return;
  }
  // Discord's client keeps to the option's max_length; a longer value is not from it and costs nothing.
  const maxLength = declaredMaxLength(command, incoming) ?? DEFAULT_AUTOCOMPLETE_LENGTH;
  if (incoming.focused.value.length > maxLength || (await ctx.autocompleteLimiter?.take(incoming.userId))) {
    ctx.logger.debug('autocomplete not run', {
      ...describe(incoming),
      length: incoming.focused.value.length,
    });
    await responder.autocomplete([]);
    return;
  }
  const choices = await command.autocomplete(ctx, incoming.focused, incoming);
  await responder.autocomplete(finalizeChoices(choices));
}

/** The longest value autocomplete looks at for an option that declares no `max_length`. */
const DEFAULT_AUTOCOMPLETE_LENGTH = 100;

type DeclaredOption = { name: string; type: number; max_length?: number; options?: DeclaredOption[] };

/** The `max_length` the command declares for the focused option, in the subcommand being typed. */
function declaredMaxLength(command: AnyCommand, incoming: AutocompleteIncoming): number | undefined {
  let options = (command.data.toJSON() as { options?: DeclaredOption[] }).options ?? [];
  for (const key of ['subcommandGroup', 'subcommand'] as const) {
    const chosen = incoming.options[key];
    const level = options.find((option) => option.name === chosen && option.options !== undefined);
    if (typeof chosen === 'string' && level) options = level.options ?? [];
  }
  return options.find((option) => option.name === incoming.focused.name)?.max_length;
}

async function runButton(
  incoming: ButtonIncoming,
  responder: Responder,
  ctx: DispatchContext,
  state: Acknowledgement,
): Promise<void> {
  const found = ctx.commands.button(incoming.customId);
  if (!found) throw new UserError('unknown-button', 'This button no longer works; run the command again.');
  const { handler, args } = found;
  checkAccess(handler.access, incoming, ctx, 'this button');
  if (handler.rateLimited) await checkRate(incoming.userId, ctx);
  const progress = new ProgressEdits(responder, ctx);
  const result: ButtonResult = await runDeferring(
    handler.defer,
    ctx,
    progress,
    async () => {
      await responder.deferUpdate();
      state.deferredUpdate = true;
    },
    () => handler.execute(ctx, args, incoming, progress.report),
  );
  if ('modal' in result) {
    // A modal must be the first answer to the press: one that took too long to build cannot be shown.
    if (state.deferredUpdate || !responder.showModal)
      throw new UserError('no-modal', 'This button cannot open its form here; please try again.');
    await responder.showModal(result.modal);
  } else if ('delete' in result) {
    if (!responder.deletePressedMessage)
      throw new UserError('cannot-delete', 'Messages cannot be removed from here; delete it in Discord.');
    if (!state.deferredUpdate) {
      await responder.deferUpdate();
      state.deferredUpdate = true;
    }
    await responder.deletePressedMessage();
  } else if ('update' in result) {
    const payload = finalizeReply(result.update);
    // After a deferred update, `@original` is the button's message: the update becomes its edit.
    await (state.deferredUpdate ? responder.editReply(payload) : responder.update(payload));
    await attachPostedMessage(ctx, incoming, { id: async () => incoming.message.id });
  } else {
    const payload = finalizeReply(result.reply);
    await (state.deferredUpdate ? followUp(responder, payload) : responder.reply(payload));
  }
}

async function runModal(
  incoming: ModalSubmitIncoming,
  responder: Responder,
  ctx: DispatchContext,
  state: Acknowledgement,
): Promise<void> {
  const found = ctx.commands.modal(incoming.customId);
  if (!found) throw new UserError('unknown-modal', 'This form no longer works; run the command again.');
  const { handler, args } = found;
  if (handler.rateLimited) await checkRate(incoming.userId, ctx);
  const isPrivate = handler.isPrivate ?? false;
  const progress = new ProgressEdits(responder, ctx);
  const reply = await runDeferring(
    undefined,
    ctx,
    progress,
    async () => {
      await responder.defer({ ephemeral: isPrivate });
      state.deferred = true;
      state.deferredPublicly = !isPrivate;
    },
    () => handler.execute(ctx, args, incoming),
  );
  const payload = finalizeReply(isPrivate ? ephemeral(reply) : reply);
  const posted = state.deferred ? await responder.editReply(payload) : await responder.reply(payload);
  await attachPostedMessage(ctx, incoming, posted);
  await openPendingThread(ctx, incoming, posted);
}

function mayUse(access: AnyCommand['access'], incoming: IncomingInteraction, ctx: DispatchContext): boolean {
  return (access ?? 'everyone') === 'everyone' || isModerator(incoming, ctx.config.MODERATOR_ROLE_IDS);
}

function checkAccess(
  access: AnyCommand['access'],
  incoming: IncomingInteraction,
  ctx: DispatchContext,
  what: string,
): void {
  if (mayUse(access, incoming, ctx)) return;
  const rule = ctx.config.MODERATOR_ROLE_IDS.length > 0 ? 'a moderator role' : 'the Manage Server permission';
  throw new UserError(
    'forbidden',
    `Only moderators can use ${what}: it needs ${rule}${incoming.guildId ? '' : ' in a server'}.`,
  );
}

async function checkRate(userId: string, ctx: DispatchContext): Promise<void> {
  const waitMs = await ctx.rateLimiter.take(userId);
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new UserError(
      'rate-limited',
      `You're asking faster than I can keep up with. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
    );
  }
}

function parseOptions(command: AnyCommand, raw: Record<string, unknown>): unknown {
  // Every option the command does not declare is reported, whatever its name (`__proto__` included).
  const known = declaredOptions(command);
  const unknown = known ? Object.keys(raw).filter((key) => !known.has(key)) : [];
  if (unknown.length > 0) {
    const names = unknown.map((key) => `\`${key.replace(/[^\w-]/g, '?').slice(0, 32)}\``).join(', ');
    throw new UserError(
      'bad-option',
      `\`/${command.data.name}\` has no option${unknown.length === 1 ? '' : 's'} ${names}; Discord may be showing an old version of the command.`,
    );
  }
  const parsed = command.options.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new UserError('bad-option', describeOptionProblems(command.data.toJSON(), raw, parsed.error.issues));
}

const declared = new WeakMap<AnyCommand, Set<string> | null>();

/**
 * The option keys a command's schema knows (its objects' keys, across the branches of a union), or
 * null when the schema is of another kind and itself decides what it accepts.
 */
function declaredOptions(command: AnyCommand): Set<string> | null {
  let names = declared.get(command);
  if (names === undefined) {
    const keys = new Set<string>();
    const visit = (schema: z.ZodType): boolean => {
      if (schema instanceof z.ZodObject) {
        for (const key of Object.keys(schema.shape)) keys.add(key);
        return true;
      }
      if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).every(visit);
      return false;
    };
    names = visit(command.options) ? keys : null;
    declared.set(command, names);
  }
  return names;
}

function nameOf(incoming: IncomingInteraction, ctx: DispatchContext): string {
  if (incoming.kind === 'button') return ctx.commands.button(incoming.customId)?.prefix ?? 'unknown';
  if (incoming.kind === 'modal-submit') return ctx.commands.modal(incoming.customId)?.prefix ?? 'unknown';
  return ctx.commands.command(incoming.commandName) ? incoming.commandName : 'unknown';
}

function commandLabel(incoming: ChatInputIncoming | MessageContextMenuIncoming): string {
  return incoming.kind === 'chat-input' ? `\`/${incoming.commandName}\`` : `"${incoming.commandName}"`;
}

/** What a log line needs to find the interaction again, without the user's full text. */
function describe(incoming: IncomingInteraction): Record<string, unknown> {
  return {
    interaction: incoming.id,
    kind: incoming.kind,
    user: incoming.userId,
    guild: incoming.guildId,
    ...(incoming.kind === 'button' || incoming.kind === 'modal-submit'
      ? { customId: incoming.customId }
      : { command: incoming.commandName }),
    ...(incoming.kind === 'chat-input' || incoming.kind === 'autocomplete'
      ? { options: incoming.options }
      : {}),
  };
}

async function attempt(ctx: DispatchContext, send: () => Promise<void>): Promise<void> {
  try {
    await send();
  } catch (error) {
    ctx.logger.error('could not send the error reply', { error });
  }
}

type Settled<T> = { value: T } | { error: unknown };

async function settle<T>(run: () => Promise<T>): Promise<Settled<T>> {
  try {
    return { value: await run() };
  } catch (error) {
    return { error };
  }
}

/** A timer that can be cancelled, so a fast command leaves none behind. */
function delay(ms: number): { elapsed: Promise<undefined>; cancel: () => void } {
  let timeout: NodeJS.Timeout | undefined;
  const elapsed = new Promise<undefined>((resolve) => {
    timeout = setTimeout(() => resolve(undefined), ms);
  });
  return { elapsed, cancel: () => clearTimeout(timeout) };
}
