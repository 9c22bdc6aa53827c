import type {
  APIEmbed,
  APIInteractionResponseCallbackData,
  APIModalInteractionResponseCallbackData,
} from 'discord.js';

/** A file attached to a command option (`/corpus add file:`), as Discord describes it. */
export interface AttachmentOption {
  kind: 'attachment';
  id: string;
  filename: string;
  url: string;
  size: number;
  contentType: string | null;
}

/** One option value as the user gave it, before the command's zod schema has validated it. */
export type RawOptionValue = string | number | boolean | AttachmentOption;

/**
 * Options of a command, flattened: `{ question: 'who?', limit: 2 }`. A subcommand (and its group) is
 * given as the reserved keys `subcommand` and `subcommandGroup`, so one zod schema can validate both.
 */
export type RawOptions = Record<string, RawOptionValue>;

/**
 * Discord nests options at most three deep: a subcommand group, a subcommand, then the options. An
 * interaction nesting deeper (100,000 levels once reached the logger and broke it) is not Discord's.
 */
export const MAX_OPTION_DEPTH = 3;

/** Options nested deeper than Discord nests them, or a value Discord never sends (an object). */
export class OptionsShapeError extends Error {
  override name = 'OptionsShapeError';
}

/**
 * An empty options record with no prototype: an option named `__proto__` is then an option like
 * any other (reported as unknown), not a way to change what every other key reads as.
 */
export function emptyOptions(): RawOptions {
  return Object.create(null) as RawOptions;
}

/** Checks one level of options as the flatteners visit it; throws `OptionsShapeError`. */
export function checkOptionLevel(items: unknown, depth: number): void {
  if (depth >= MAX_OPTION_DEPTH)
    throw new OptionsShapeError('options are nested deeper than Discord nests them');
  if (!Array.isArray(items)) throw new OptionsShapeError('options are not a list');
}

/** Whether an option value is one Discord sends: a string, a number or a boolean. */
export function isPlainOptionValue(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** The message a button was pressed on, as much of it as the bot needs to rebuild its state. */
export interface SourceMessage {
  id: string;
  content: string;
  embeds: APIEmbed[];
  /** The custom_ids of its buttons, in order (a button's state may be read from another's). */
  customIds?: string[];
}

/** What every interaction carries about who sent it and where. */
interface IncomingBase {
  /** Discord's interaction id (unique per interaction, useful in logs). */
  id: string;
  userId: string;
  /** Display name (global name, else username), for audit logs; never trusted for decisions. */
  userName?: string;
  /** Null in direct messages. */
  guildId: string | null;
  /** The channel it came from; absent where a transport does not know it. */
  channelId?: string | null;
  /** The channel a thread it came from is in (its settings are the thread's); absent outside threads. */
  parentChannelId?: string | null;
  /** The member's role ids in the guild; empty in direct messages. */
  memberRoleIds: string[];
  /**
   * The member's permissions in the channel (Discord's computed bitfield, Administrator implying all);
   * null in direct messages.
   */
  memberPermissions: bigint | null;
}

/** A slash command: `/ask question:...`. */
export interface ChatInputIncoming extends IncomingBase {
  kind: 'chat-input';
  commandName: string;
  options: RawOptions;
}

/** The user is typing an option that has autocomplete. */
export interface AutocompleteIncoming extends IncomingBase {
  kind: 'autocomplete';
  commandName: string;
  options: RawOptions;
  focused: { name: string; value: string };
}

/** A press on one of the bot's buttons. */
export interface ButtonIncoming extends IncomingBase {
  kind: 'button';
  customId: string;
  message: SourceMessage;
}

/** A message context-menu command ("Find coverage") on someone's message. */
export interface MessageContextMenuIncoming extends IncomingBase {
  kind: 'message-context-menu';
  commandName: string;
  targetMessage: SourceMessage;
}

/** A modal the bot showed, submitted: its custom_id and what was typed in each text field. */
export interface ModalSubmitIncoming extends IncomingBase {
  kind: 'modal-submit';
  customId: string;
  /** Each text field's value, by the field's custom_id. */
  fields: Record<string, string>;
  /** The message whose button opened the modal (Discord sends it with the submission), if any. */
  message: SourceMessage | null;
}

/** Every interaction the bot handles, whatever transport brought it (gateway, HTTP, console). */
export type IncomingInteraction =
  | ChatInputIncoming
  | AutocompleteIncoming
  | ButtonIncoming
  | MessageContextMenuIncoming
  | ModalSubmitIncoming;

/** A modal to show (callback type 9): its custom_id, title and fields. */
export type ModalPayload = APIModalInteractionResponseCallbackData;

/**
 * A file sent with a reply (a chart): uploaded as the multipart part `files[n]`, the payload's
 * `attachments[n]` (id `n`) describing it, and shown by an embed as `attachment://<name>`.
 */
export interface ReplyFile {
  name: string;
  data: Uint8Array;
  /** Its alt text (Discord's attachment `description`, at most 1,024 characters). */
  description?: string;
}

/**
 * The reply payload sent to Discord, already rendered and within Discord's limits, with the files it
 * uploads, if any (never part of its JSON: each transport sends them as Discord documents uploads).
 */
export type ReplyPayload = APIInteractionResponseCallbackData & { files?: ReplyFile[] };

/** One autocomplete suggestion (name shown, value sent; both at most 100 characters). */
export interface AutocompleteChoice {
  name: string;
  value: string;
}

/**
 * The message a reply created or edited. `id()` resolves to its id, or undefined where the transport
 * cannot tell; a transport that must ask Discord for it (the HTTP endpoint's first response carries
 * none) asks only when called.
 */
export interface PostedMessage {
  id(): Promise<string | undefined>;
}

/** What a reply resolves to: the message, or nothing from a transport that cannot tell. */
// biome-ignore lint/suspicious/noConfusingVoidType: transports that cannot tell keep `Promise<void>` methods.
export type MaybePosted = PostedMessage | undefined | void;

/**
 * How a transport answers one interaction. Each transport implements it (discord.js, the HTTP
 * endpoint's response and webhook follow-ups, the console's printer). The dispatcher calls at most one
 * of `reply`, `defer`, `deferUpdate`, `update`, `autocomplete` first, then `editReply` only after
 * `defer` or `deferUpdate`.
 */
export interface Responder {
  /** Answer with a new message (callback type 4); resolves to that message where the transport can say. */
  reply(payload: ReplyPayload): Promise<MaybePosted>;
  /** Acknowledge now and answer later with `editReply` (callback type 5); `ephemeral` is fixed here. */
  defer(options: { ephemeral: boolean }): Promise<void>;
  /** Replace the deferred reply's "thinking..." with the answer (webhook PATCH `@original`). */
  editReply(payload: ReplyPayload): Promise<MaybePosted>;
  /** Replace the message a button was pressed on (callback type 7). */
  update(payload: ReplyPayload): Promise<void>;
  /**
   * Acknowledge a button press now, leaving its message as it is (callback type 6); `editReply` then
   * edits that message (webhook PATCH `@original`, which after a deferred update is the button's message,
   * ephemeral or not) and a new message goes out as a follow-up.
   */
  deferUpdate(): Promise<void>;
  /** Answer an autocomplete request (callback type 8). */
  autocomplete(choices: AutocompleteChoice[]): Promise<void>;
  /**
   * Optional: answer a button press with a modal (callback type 9), which must be the first answer.
   * A transport without it cannot show modals; the dispatcher then says so privately.
   */
  showModal?(modal: ModalPayload): Promise<void>;
  /**
   * Optional: send another message (webhook POST). With `deleteReply`, lets an error that happens
   * after a public deferral still be answered privately; after `deferUpdate`, carries a button's new
   * message or its error (without it, the dispatcher calls `reply` again, which must then follow up).
   */
  followUp?(payload: ReplyPayload): Promise<void>;
  /** Optional: delete the deferred reply (webhook DELETE `@original`). */
  deleteReply?(): Promise<void>;
  /**
   * Optional: delete the message a button was pressed on, after `deferUpdate` (webhook DELETE
   * `@original`, which is then the button's message). Without it a "Dismiss" press is refused.
   */
  deletePressedMessage?(): Promise<void>;
}
