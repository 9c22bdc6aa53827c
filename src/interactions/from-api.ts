import {
  type APIApplicationCommandInteractionDataOption,
  type APIAttachment,
  type APIInteraction,
  type APIInteractionGuildMember,
  type APIMessage,
  type APIUser,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ComponentType,
  InteractionType,
} from 'discord.js';
import {
  checkOptionLevel,
  emptyOptions,
  type IncomingInteraction,
  isPlainOptionValue,
  OptionsShapeError,
  type RawOptions,
  type SourceMessage,
} from './incoming.ts';

/**
 * Turns Discord's raw interaction JSON (as the HTTP endpoint receives it, or a gateway
 * INTERACTION_CREATE's `d`) into the transport-neutral model. Pure: no I/O, no clock.
 *
 * Returns null for what the bot does not handle (PING, modal submits, select menus, user context
 * menus); the caller decides how to answer those.
 */
export function fromApiInteraction(raw: APIInteraction): IncomingInteraction | null {
  const member = 'member' in raw ? raw.member : undefined;
  const user: APIUser | undefined = member?.user ?? ('user' in raw ? raw.user : undefined);
  if (!user) return null;
  const base = {
    id: raw.id,
    userId: user.id,
    userName: user.global_name ?? user.username,
    guildId: raw.guild_id ?? null,
    channelId: raw.channel?.id ?? raw.channel_id ?? null,
    parentChannelId: (raw.channel && 'parent_id' in raw.channel ? raw.channel.parent_id : null) ?? null,
    ...memberFields(member),
  };

  switch (raw.type) {
    case InteractionType.ApplicationCommand: {
      const data = raw.data;
      if (data.type === ApplicationCommandType.ChatInput) {
        const attachments =
          data.resolved && 'attachments' in data.resolved ? data.resolved.attachments : undefined;
        return {
          ...base,
          kind: 'chat-input',
          commandName: data.name,
          options: flattenOptions(data.options ?? [], attachments).options,
        };
      }
      if (data.type === ApplicationCommandType.Message) {
        const target = data.resolved.messages[data.target_id];
        return {
          ...base,
          kind: 'message-context-menu',
          commandName: data.name,
          targetMessage: target ? sourceMessage(target) : { id: data.target_id, content: '', embeds: [] },
        };
      }
      return null;
    }
    case InteractionType.ApplicationCommandAutocomplete: {
      const { options, focused } = flattenOptions(raw.data.options ?? [], undefined);
      return {
        ...base,
        kind: 'autocomplete',
        commandName: raw.data.name,
        options,
        focused: focused ?? { name: '', value: '' },
      };
    }
    case InteractionType.MessageComponent: {
      if (raw.data.component_type !== ComponentType.Button) return null;
      return { ...base, kind: 'button', customId: raw.data.custom_id, message: sourceMessage(raw.message) };
    }
    default:
      return null;
  }
}

function memberFields(member: APIInteractionGuildMember | undefined) {
  return {
    memberRoleIds: member ? [...member.roles] : [],
    memberPermissions: member ? BigInt(member.permissions) : null,
  };
}

function sourceMessage(message: APIMessage): SourceMessage {
  return {
    id: message.id,
    content: message.content ?? '',
    embeds: message.embeds ?? [],
    customIds: (message.components ?? []).flatMap((row) => {
      const children = 'components' in row ? (row.components as { custom_id?: string }[]) : [];
      return children.flatMap((component) => (component.custom_id ? [component.custom_id] : []));
    }),
  };
}

/** Subcommands become the reserved `subcommand` / `subcommandGroup` keys; attachments are resolved. */
function flattenOptions(
  list: readonly APIApplicationCommandInteractionDataOption[],
  attachments: Record<string, APIAttachment> | undefined,
): { options: RawOptions; focused: { name: string; value: string } | undefined } {
  const options = emptyOptions();
  let focused: { name: string; value: string } | undefined;
  const visit = (items: readonly APIApplicationCommandInteractionDataOption[], depth: number): void => {
    checkOptionLevel(items, depth);
    for (const option of items) {
      switch (option.type) {
        case ApplicationCommandOptionType.SubcommandGroup:
          options.subcommandGroup = option.name;
          visit(option.options, depth + 1);
          break;
        case ApplicationCommandOptionType.Subcommand:
          options.subcommand = option.name;
          visit(option.options ?? [], depth + 1);
          break;
        case ApplicationCommandOptionType.Attachment: {
          const file = attachments?.[option.value];
          if (file) {
            options[option.name] = {
              kind: 'attachment',
              id: file.id,
              filename: file.filename,
              url: file.url,
              size: file.size,
              contentType: file.content_type ?? null,
            };
          }
          break;
        }
        default:
          if (!isPlainOptionValue(option.value)) {
            throw new OptionsShapeError(
              `option "${String(option.name).slice(0, 32)}" has a value Discord never sends`,
            );
          }
          options[option.name] = option.value;
          if ('focused' in option && option.focused)
            focused = { name: option.name, value: String(option.value) };
      }
    }
  };
  visit(list, 0);
  return { options, focused };
}
