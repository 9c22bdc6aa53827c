import type {
  ContextMenuCommandBuilder,
  RESTPostAPIApplicationCommandsJSONBody,
  SlashCommandBuilder,
  SlashCommandOptionsOnlyBuilder,
  SlashCommandSubcommandsOnlyBuilder,
} from 'discord.js';
import type { z } from 'zod';
import type { ChartRenderer } from '../chart/chart-renderer.ts';
import type { ChannelView } from '../community/channel-settings.ts';
import type { RecordKeeper } from '../community/record-keeper.ts';
import type { Config } from '../config.ts';
import type { ServiceHealth } from '../health.ts';
import type { Logger } from '../logging/logger.ts';
import type {
  AutocompleteChoice,
  AutocompleteIncoming,
  ButtonIncoming,
  ChatInputIncoming,
  MessageContextMenuIncoming,
  ModalPayload,
  ModalSubmitIncoming,
  ReplyPayload,
} from './incoming.ts';
import type {
  CorpusAdministration,
  FeedsAdministration,
  LibraryView,
  PeerStatus,
  ThreadsView,
} from './library-view.ts';

/** What every command handler may use. Commands know nothing of transports. */
export interface CommandContext {
  /** The corpus being served; read `library.engine` per request (a reload swaps it). */
  library: LibraryView;
  config: Config;
  logger: Logger;
  /** When this process started, for `/about`'s uptime. */
  startedAt: Date;
  /** Clock, for tests. */
  now(): Date;
  /** Reloading and editing the corpus; absent when this bot cannot (`/reload` and `/corpus` say so). */
  corpus?: CorpusAdministration;
  /** Following news feeds; absent when this bot cannot (`/feeds` says so). */
  feeds?: FeedsAdministration;
  /**
   * What every shard serves, for `/about`; resolves to `undefined` when this process is not one of
   * several shards (the console, the HTTP endpoint, an unsharded gateway bot).
   */
  peerStatuses?: () => Promise<PeerStatus[] | undefined>;
  /**
   * Votes, questions without coverage and watches, through the keeper that never lets an answer wait
   * on them (SQLite or PostgreSQL behind it); absent when nothing is stored (see src/community/).
   */
  community?: RecordKeeper;
  /** The records' database and Redis, and whether this replica serves the announced corpus (`/about`). */
  health?: () => ServiceHealth;
  /** Draws the charts replies attach (`/timeline`, `/gaps`, `/about`) off this thread; absent: no charts. */
  charts?: ChartRenderer;
  /**
   * The settings of the channel the command came from (a thread's are its channel's), read by the
   * dispatcher for `channelScoped` commands before they run; absent for the others. Its thread mode
   * makes an answer open a thread.
   */
  channel?: ChannelView;
  /** Opening threads on answers and reading threads' messages; absent at the console (no threads there). */
  threads?: ThreadsView;
}

/** Who may run a command or press a button. */
export type Access = 'everyone' | 'moderators';

/** A command's Discord definition: a discord.js builder (anything with `name` and `toJSON()`). */
export type CommandData =
  | SlashCommandBuilder
  | SlashCommandOptionsOnlyBuilder
  | SlashCommandSubcommandsOnlyBuilder
  | ContextMenuCommandBuilder
  | { readonly name: string; toJSON(): RESTPostAPIApplicationCommandsJSONBody };

/**
 * Shows interim state ("indexing 120/500 articles") by editing the deferred reply (for a button, the
 * message it is on). Only takes effect once deferred, and at most about once a second; the final reply
 * always wins, and reports after the handler has returned are dropped.
 */
export type ProgressReporter = (payload: ReplyPayload) => void;

/**
 * What a button handler returns: replace the message the button is on, answer with a new one, delete
 * it, or open a modal.
 */
export type ButtonResult =
  | { update: ReplyPayload }
  | { reply: ReplyPayload }
  | { delete: true }
  | { modal: ModalPayload };

/** Handles the submission of a modal the bot showed: its answer is a new message. */
export interface ModalHandler {
  /** Counts against the user's question rate limit. @default false */
  rateLimited?: boolean;
  /** Whether the answer is visible only to the user. @default false */
  isPrivate?: boolean;
  /**
   * @param args - the modal's custom_id after `<prefix>:`, split on `:`.
   */
  execute(
    ctx: CommandContext,
    args: string[],
    interaction: ModalSubmitIncoming,
  ): Promise<ReplyPayload> | ReplyPayload;
}

export interface ButtonHandler {
  /**
   * Who may press it (checked in code; anyone who can see a message can press its buttons).
   * @default 'everyone'
   */
  access?: Access;
  /** Counts against the user's question rate limit. @default false */
  rateLimited?: boolean;
  /**
   * `always` acknowledges the press at once with a deferred update (callback type 6: the message stays
   * as it is, and the user sees no "thinking…"), for work that may outlast Discord's 3-second window,
   * like writing an article and reloading; `auto` does so only if the handler has not finished within
   * the dispatcher's `deferAfterMs`. Once deferred, `{ update }` edits the button's message (ephemeral
   * or not), `{ reply }` is sent as a follow-up, and a failure is answered privately.
   * @default 'auto'
   */
  defer?: 'always' | 'auto';
  /**
   * @param args - the custom_id after `<prefix>:`, split on `:` (a last part may itself contain `:`
   * only if the handler joins them back).
   * @param progress - edits the button's message while the handler runs, once deferred.
   */
  execute(
    ctx: CommandContext,
    args: string[],
    interaction: ButtonIncoming,
    progress: ProgressReporter,
  ): Promise<ButtonResult> | ButtonResult;
}

/**
 * One Discord command: its definition, the schema of its options, and its handler. A module in
 * `commands/` default-exports one, `satisfies Command<typeof Options>`.
 */
export interface Command<Options extends z.ZodType = z.ZodType> {
  data: CommandData;
  /** Validates the raw options (subcommands arrive as the `subcommand` key). Bad options never reach `execute`. */
  options: Options;
  /**
   * Who may run it; `moderators` is checked in code by `isModerator` (see permissions.ts).
   * @default 'everyone'
   */
  access?: Access;
  /** Counts against the per-user question rate limit. @default false */
  rateLimited?: boolean;
  /**
   * `always` acknowledges at once and edits the reply later (for work that may outlast Discord's
   * 3-second window, like a reload); `auto` defers only if the handler has not finished in time.
   * @default 'auto'
   */
  defer?: 'always' | 'auto';
  /**
   * Answers only in the guild's answer channels (`/settings channels`; elsewhere the member is told
   * privately where it does) and reads the channel's settings (`ctx.channel`). Commands that answer
   * questions set it; moderators' commands, `/about` and `/watches` work everywhere.
   * @default false
   */
  channelScoped?: boolean;
  /**
   * Whether the reply (and so a deferral) is visible only to the user; `channel` is the channel's
   * settings for a `channelScoped` command (its default visibility). @default () => false
   */
  isPrivate?(options: z.infer<Options>, channel: ChannelView | undefined): boolean;
  execute(
    ctx: CommandContext,
    options: z.infer<Options>,
    interaction: ChatInputIncoming | MessageContextMenuIncoming,
    progress: ProgressReporter,
  ): Promise<ReplyPayload> | ReplyPayload;
  /** Suggestions for the focused option; must be fast (Discord waits 3 seconds, users far less). */
  autocomplete?(
    ctx: CommandContext,
    focused: { name: string; value: string },
    interaction: AutocompleteIncoming,
  ): Promise<AutocompleteChoice[]> | AutocompleteChoice[];
  /** Button handlers keyed by custom_id prefix (`ask:more` handles `ask:more:3:3`). Prefixes are global. */
  buttons?: Record<string, ButtonHandler>;
  /** Modal submission handlers keyed by the modal's custom_id prefix, as `buttons`. */
  modals?: Record<string, ModalHandler>;
}

/** Any command, whatever its options. */
export type AnyCommand = Command<z.ZodType>;
