import { type APIInteractionResponse, InteractionResponseType, MessageFlags } from 'discord.js';
import type {
  AutocompleteChoice,
  ModalPayload,
  PostedMessage,
  ReplyFile,
  ReplyPayload,
  Responder,
} from '../../interactions/incoming.ts';
import { type WebhookClient, WebhookError } from './webhook-client.ts';

/** Lookups of the original response's message before its id is given up (see `#originalId`). */
const ORIGINAL_LOOKUPS = 4;

/** How the interaction was first answered, which decides where later calls go. */
export type FirstResponse = 'replied' | 'deferred' | 'updated' | 'autocompleted' | 'modal';

export interface HttpResponderOptions {
  /** `application_id` and `token` of the interaction, for the webhook routes. */
  applicationId: string;
  token: string;
  webhook: WebhookClient;
  /**
   * Sends the HTTP response; resolves once it has been handed to the socket, so a webhook call that
   * edits it can never reach Discord before it.
   */
  respond: (body: APIInteractionResponse) => Promise<void>;
}

/**
 * The `Responder` of the HTTP endpoint. The first call becomes the HTTP response to Discord's POST;
 * later calls go through the interaction webhook (`PATCH …/messages/@original`, `POST` follow-ups).
 * Every message goes out with `allowed_mentions: { parse: [] }` whatever the caller passed: replies
 * quote untrusted corpus text, and this is the last place to make sure nothing in it pings anyone.
 */
export class HttpResponder implements Responder {
  readonly #options: HttpResponderOptions;
  #first: FirstResponse | undefined;
  /** Set when `autoDefer` acknowledged for the caller: its later reply is an edit, not a follow-up. */
  #autoDeferred = false;
  /** Set once a button press was acknowledged with a deferred update (type 6), by the caller or `autoDefer`. */
  #updateDeferred = false;
  /**
   * The message that `editReply` edits: the original response, or the follow-up that replaced it
   * when an automatic public deferral was followed by a private answer.
   */
  #answerMessage = '@original';
  #sent: Promise<void> | undefined;

  constructor(options: HttpResponderOptions) {
    this.#options = options;
  }

  /** How the interaction was first answered, or `undefined` while the HTTP response is still open. */
  get firstResponse(): FirstResponse | undefined {
    return this.#first;
  }

  async reply(payload: ReplyPayload): Promise<PostedMessage | undefined> {
    if (this.#first === undefined && payload.files?.length) {
      // An HTTP response cannot carry files: acknowledged as a deferral, then the multipart edit.
      await this.#respond('deferred', {
        type: InteractionResponseType.DeferredChannelMessageWithSource,
        data: isEphemeral(payload) ? { flags: MessageFlags.Ephemeral } : {},
      });
      const { applicationId, token, webhook } = this.#options;
      return posted(await webhook.editOriginal(applicationId, token, safe(payload), filesOf(payload)));
    }
    if (this.#first === undefined) {
      await this.#respond('replied', {
        type: InteractionResponseType.ChannelMessageWithSource,
        data: safe(payload),
      });
      // The HTTP response carries no message id: asked of the webhook only when someone needs it.
      return { id: () => this.#originalId() };
    }
    if (this.#autoDeferred) return this.#answerAutoDeferred(payload);
    await this.#sent;
    const { applicationId, token, webhook } = this.#options;
    await webhook.followUp(applicationId, token, safe(payload), filesOf(payload));
    return undefined;
  }

  async defer(options: { ephemeral: boolean }): Promise<void> {
    if (this.#first !== undefined) {
      // Already acknowledged for the caller; its answer is delivered with the visibility it asks for.
      if (this.#autoDeferred) return;
      throw new Error('HttpResponder: defer() after the interaction was already answered');
    }
    return this.#respond('deferred', {
      type: InteractionResponseType.DeferredChannelMessageWithSource,
      data: options.ephemeral ? { flags: MessageFlags.Ephemeral } : {},
    });
  }

  async editReply(payload: ReplyPayload): Promise<PostedMessage | undefined> {
    if (this.#first === undefined)
      throw new Error('HttpResponder: editReply() before the interaction was answered');
    if (this.#autoDeferred) return this.#answerAutoDeferred(payload);
    await this.#sent;
    const { applicationId, token, webhook } = this.#options;
    const edited = await webhook.editMessage(
      applicationId,
      token,
      this.#answerMessage,
      safe(payload),
      filesOf(payload),
    );
    return posted(edited);
  }

  async update(payload: ReplyPayload): Promise<void> {
    if (this.#first === undefined && payload.files?.length) {
      // As `reply`: a deferred update, then the multipart edit of the button's message.
      await this.deferUpdate();
    } else if (this.#first === undefined) {
      return this.#respond('updated', { type: InteractionResponseType.UpdateMessage, data: safe(payload) });
    }
    this.#autoDeferred = false;
    await this.#sent;
    // After a deferred update (type 6), `@original` is the message the button was on.
    const { applicationId, token, webhook } = this.#options;
    await webhook.editOriginal(applicationId, token, safe(payload), filesOf(payload));
  }

  /** Deletes the button's message: after a deferred update (type 6), `@original` is that message. */
  async deletePressedMessage(): Promise<void> {
    if (!this.#updateDeferred)
      throw new Error('HttpResponder: deletePressedMessage() before the press was acknowledged');
    await this.#sent;
    const { applicationId, token, webhook } = this.#options;
    await webhook.deleteOriginal(applicationId, token);
  }

  /** A deferred update (type 6) as the HTTP response; later edits PATCH `@original`, the button's message. */
  async deferUpdate(): Promise<void> {
    if (this.#first !== undefined) {
      // `autoDefer('update')` already acknowledged the press the same way for the caller.
      if (this.#updateDeferred) return;
      throw new Error('HttpResponder: deferUpdate() after the interaction was already answered');
    }
    this.#updateDeferred = true;
    return this.#respond('deferred', { type: InteractionResponseType.DeferredMessageUpdate });
  }

  /** A modal (callback type 9) as the HTTP response; only as the first answer, as Discord allows. */
  async showModal(modal: ModalPayload): Promise<void> {
    if (this.#first !== undefined)
      throw new Error('HttpResponder: showModal() after the interaction was already answered');
    return this.#respond('modal', { type: InteractionResponseType.Modal, data: modal });
  }

  async autocomplete(choices: AutocompleteChoice[]): Promise<void> {
    if (this.#first !== undefined) return; // Too late: Discord has already been told there are none.
    return this.#respond('autocompleted', {
      type: InteractionResponseType.ApplicationCommandAutocompleteResult,
      data: { choices },
    });
  }

  /**
   * Acknowledges an interaction whose handler is taking too long, before Discord's 3-second deadline
   * fails it: a deferred message for commands, a deferred update for buttons, no choices for
   * autocomplete. The handler's later answer is then delivered through the webhook.
   */
  async autoDefer(kind: 'message' | 'update' | 'autocomplete'): Promise<void> {
    if (this.#first !== undefined) return;
    if (kind === 'autocomplete') return this.autocomplete([]);
    if (kind === 'update') {
      // `@original` is now the button's message: a later `update` edits it, a `reply` follows up.
      return this.deferUpdate();
    }
    this.#autoDeferred = true;
    return this.#respond('deferred', {
      type: InteractionResponseType.DeferredChannelMessageWithSource,
      data: {},
    });
  }

  /**
   * The caller's first answer after `autoDefer` acknowledged publicly for it: it replaces the
   * "thinking…" message, unless it is private, which an edit cannot make it; then the placeholder is
   * removed and the answer sent as a private follow-up, which later edits then target.
   */
  async #answerAutoDeferred(payload: ReplyPayload): Promise<PostedMessage | undefined> {
    this.#autoDeferred = false;
    await this.#sent;
    const { applicationId, token, webhook } = this.#options;
    if (!isEphemeral(payload))
      return posted(await webhook.editOriginal(applicationId, token, safe(payload), filesOf(payload)));
    await webhook.deleteOriginal(applicationId, token);
    const sent = idOf(await webhook.followUp(applicationId, token, safe(payload), filesOf(payload)));
    if (sent) this.#answerMessage = sent;
    return posted({ id: sent });
  }

  /**
   * The id of the message the HTTP response created. Discord creates it once it has read the response,
   * so a lookup that comes first finds nothing (404) and is tried again, a few times.
   */
  async #originalId(): Promise<string | undefined> {
    const { applicationId, token, webhook } = this.#options;
    for (let attempt = 1; ; attempt++) {
      try {
        return idOf(await webhook.getOriginal(applicationId, token));
      } catch (error) {
        if (!(error instanceof WebhookError && error.status === 404) || attempt >= ORIGINAL_LOOKUPS)
          throw error;
        await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
      }
    }
  }

  #respond(first: FirstResponse, body: APIInteractionResponse): Promise<void> {
    this.#first = first;
    this.#sent = this.#options.respond(body);
    return this.#sent;
  }
}

/** The `id` of a message Discord returned, if it is one. */
function idOf(message: unknown): string | undefined {
  return typeof message === 'object' && message !== null && 'id' in message && typeof message.id === 'string'
    ? message.id
    : undefined;
}

/** A message the webhook returned, as a `PostedMessage`. */
function posted(message: unknown): PostedMessage {
  const id = idOf(message);
  return { id: async () => id };
}

function isEphemeral(payload: ReplyPayload): boolean {
  return (Number(payload.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
}

/** The payload's JSON: no pings, and without its files, which go as multipart parts (`filesOf`). */
function safe(payload: ReplyPayload): ReplyPayload {
  const { files: _files, ...json } = payload;
  return { ...json, allowed_mentions: { parse: [] } };
}

function filesOf(payload: ReplyPayload): ReplyFile[] {
  return payload.files ?? [];
}
