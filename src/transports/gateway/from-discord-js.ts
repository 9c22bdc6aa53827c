import {
  ApplicationCommandOptionType,
  type CommandInteractionOption,
  ComponentType,
  GuildMember,
  type Interaction,
  type Message,
} from 'discord.js';
import {
  checkOptionLevel,
  emptyOptions,
  type IncomingInteraction,
  isPlainOptionValue,
  OptionsShapeError,
  type RawOptions,
  type SourceMessage,
} from '../../interactions/incoming.ts';

/**
 * Turns a discord.js interaction into the transport-neutral model the dispatcher takes. Returns null
 * for interaction kinds the bot does not handle (select menus, user context menus).
 */
export function fromDiscordJs(interaction: Interaction): IncomingInteraction | null {
  const base = {
    id: interaction.id,
    userId: interaction.user.id,
    userName: interaction.user.globalName ?? interaction.user.username,
    guildId: interaction.guildId,
    channelId: interaction.channelId,
    // Known when the thread is cached (the Guilds intent brings the threads the bot can see).
    parentChannelId: interaction.channel?.isThread() ? interaction.channel.parentId : null,
    memberRoleIds: roleIds(interaction),
    memberPermissions: interaction.memberPermissions?.bitfield ?? null,
  };
  if (interaction.isChatInputCommand()) {
    return {
      ...base,
      kind: 'chat-input',
      commandName: interaction.commandName,
      options: flatten(interaction.options.data),
    };
  }
  if (interaction.isAutocomplete()) {
    const focused = interaction.options.getFocused(true);
    return {
      ...base,
      kind: 'autocomplete',
      commandName: interaction.commandName,
      options: flatten(interaction.options.data),
      focused: { name: focused.name, value: String(focused.value) },
    };
  }
  if (interaction.isButton()) {
    return {
      ...base,
      kind: 'button',
      customId: interaction.customId,
      message: sourceMessage(interaction.message),
    };
  }
  if (interaction.isModalSubmit()) {
    const fields: Record<string, string> = {};
    for (const [id, field] of interaction.fields.fields) {
      if (field.type === ComponentType.TextInput) fields[id] = field.value;
    }
    return {
      ...base,
      kind: 'modal-submit',
      customId: interaction.customId,
      fields,
      message: interaction.message ? sourceMessage(interaction.message) : null,
    };
  }
  if (interaction.isMessageContextMenuCommand()) {
    return {
      ...base,
      kind: 'message-context-menu',
      commandName: interaction.commandName,
      targetMessage: sourceMessage(interaction.targetMessage),
    };
  }
  return null;
}

function roleIds(interaction: Interaction): string[] {
  const member = interaction.member;
  if (!member) return [];
  // A cached guild gives a GuildMember (roles resolved against the guild's role cache, @everyone
  // included); an uncached one gives the raw API member with role ids.
  if (member instanceof GuildMember) {
    return [...member.roles.cache.keys()].filter((id) => id !== interaction.guildId);
  }
  return [...member.roles];
}

function sourceMessage(message: Message): SourceMessage {
  return {
    id: message.id,
    content: message.content,
    embeds: message.embeds.map((embed) => embed.toJSON()),
    customIds: message.components.flatMap((row) => {
      const json = row.toJSON() as { components?: { custom_id?: string }[] };
      return (json.components ?? []).flatMap((component) =>
        component.custom_id ? [component.custom_id] : [],
      );
    }),
  };
}

function flatten(data: readonly CommandInteractionOption[]): RawOptions {
  const options = emptyOptions();
  const visit = (items: readonly CommandInteractionOption[], depth: number): void => {
    checkOptionLevel(items, depth);
    for (const option of items) {
      if (option.type === ApplicationCommandOptionType.SubcommandGroup) {
        options.subcommandGroup = option.name;
        visit(option.options ?? [], depth + 1);
      } else if (option.type === ApplicationCommandOptionType.Subcommand) {
        options.subcommand = option.name;
        visit(option.options ?? [], depth + 1);
      } else if (option.type === ApplicationCommandOptionType.Attachment && option.attachment) {
        const file = option.attachment;
        options[option.name] = {
          kind: 'attachment',
          id: file.id,
          filename: file.name,
          url: file.url,
          size: file.size,
          contentType: file.contentType,
        };
      } else if (option.value !== undefined) {
        if (!isPlainOptionValue(option.value)) {
          throw new OptionsShapeError(`option "${option.name.slice(0, 32)}" has a value Discord never sends`);
        }
        options[option.name] = option.value;
      }
    }
  };
  visit(data, 0);
  return options;
}
