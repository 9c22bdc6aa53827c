import {
  type APIActionRowComponent,
  type APIComponentInMessageActionRow,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type MessageContextMenuCommandInteraction,
  MessageFlags,
  type ModalSubmitInteraction,
} from 'discord.js';
import type {
  AutocompleteChoice,
  ModalPayload,
  PostedMessage,
  ReplyPayload,
  Responder,
} from '../../interactions/incoming.ts';

type Answerable =
  | ChatInputCommandInteraction
  | MessageContextMenuCommandInteraction
  | ButtonInteraction
  | ModalSubmitInteraction
  | AutocompleteInteraction;

/** Answers through discord.js's own interaction methods, so its REST client does the sending. */
export class DiscordJsResponder implements Responder {
  constructor(private readonly interaction: Answerable) {}

  async reply(payload: ReplyPayload): Promise<PostedMessage> {
    const interaction = this.repliable();
    // With the response, Discord says which message the reply created (no second request for it).
    const response = await interaction.reply({
      ...body(payload),
      flags: (payload.flags ?? 0) & MessageFlags.Ephemeral,
      withResponse: true,
    });
    const id = response.resource?.message?.id ?? response.interaction.responseMessageId ?? undefined;
    return { id: async () => id };
  }

  async defer(options: { ephemeral: boolean }): Promise<void> {
    await this.repliable().deferReply(options.ephemeral ? { flags: MessageFlags.Ephemeral } : {});
  }

  async editReply(payload: ReplyPayload): Promise<PostedMessage> {
    const message = await this.repliable().editReply(body(payload));
    return { id: async () => message.id };
  }

  async followUp(payload: ReplyPayload): Promise<void> {
    await this.repliable().followUp({
      ...body(payload),
      flags: (payload.flags ?? 0) & MessageFlags.Ephemeral,
    });
  }

  async deleteReply(): Promise<void> {
    await this.repliable().deleteReply();
  }

  async deletePressedMessage(): Promise<void> {
    if (!this.interaction.isButton())
      throw new Error('DiscordJsResponder: deletePressedMessage() is only for buttons');
    // After deferUpdate, discord.js's `@original` is the button's message.
    await this.interaction.deleteReply();
  }

  async update(payload: ReplyPayload): Promise<void> {
    if (!this.interaction.isButton()) throw new Error('DiscordJsResponder: update() is only for buttons');
    await this.interaction.update(body(payload));
  }

  async deferUpdate(): Promise<void> {
    if (!this.interaction.isButton())
      throw new Error('DiscordJsResponder: deferUpdate() is only for buttons');
    // discord.js then points `editReply` at the button's message and `followUp` at a new one.
    await this.interaction.deferUpdate();
  }

  async showModal(modal: ModalPayload): Promise<void> {
    if (!this.interaction.isButton()) throw new Error('DiscordJsResponder: showModal() is only for buttons');
    await this.interaction.showModal(modal);
  }

  async autocomplete(choices: AutocompleteChoice[]): Promise<void> {
    if (!this.interaction.isAutocomplete())
      throw new Error('DiscordJsResponder: autocomplete() is only for autocomplete');
    await this.interaction.respond(choices);
  }

  private repliable(): Exclude<Answerable, AutocompleteInteraction> {
    if (this.interaction.isAutocomplete())
      throw new Error('DiscordJsResponder: an autocomplete cannot be replied to');
    return this.interaction;
  }
}

/**
 * The payload in discord.js's option names. Content, embeds and components are always sent, empty
 * when absent, so an edit or update replaces what was there instead of keeping stale parts. Files go
 * as discord.js uploads them (multipart, `attachments` naming only them, so an edit drops older ones);
 * `attachments: []` without files removes what an edited message had.
 */
function body(payload: ReplyPayload) {
  return {
    content: payload.content ?? '',
    embeds: payload.embeds ?? [],
    components: (payload.components ?? []) as APIActionRowComponent<APIComponentInMessageActionRow>[],
    allowedMentions: { parse: [] },
    ...(payload.files?.length
      ? {
          files: payload.files.map((file) => ({
            attachment: Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength),
            name: file.name,
            ...(file.description ? { description: file.description } : {}),
          })),
        }
      : payload.attachments?.length === 0
        ? { attachments: [] }
        : {}),
  };
}
