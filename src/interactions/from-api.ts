import {
  type APIApplicationCommandInteractionDataOption,
  type APIAttachment,
  type APIInteraction,
  type APIInteractionGuildMember,
  type APIMessage,
  type APIModalSubmissionComponent,
  type APIUser,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ChannelType,
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
 * Returns null for what the bot does not handle (PING, select menus, user context menus); the caller
 * decides how to answer those.
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
    // Only a thread's parent: a text channel's parent_id is its category.
    parentChannelId: threadParentOf(raw),
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
      // A custom_id that is not text matches no button: it is answered as one that no longer works.
      const customId: unknown = raw.data.custom_id;
      return {
        ...base,
        kind: 'button',
        customId: typeof customId === 'string' ? customId : '',
        message: sourceMessage(raw.message),
      };
    }
    case InteractionType.ModalSubmit:
      return {
        ...base,
        kind: 'modal-submit',
        customId: raw.data.custom_id,
        fields: modalFields(raw.data.components),
        message: raw.message ? sourceMessage(raw.message) : null,
      };
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

/** The parent channel of a thread the interaction came from (Discord sends the channel's type). */
function threadParentOf(raw: APIInteraction): string | null {
  const channel = raw.channel as { type?: number; parent_id?: string | null } | undefined;
  const threadTypes: number[] = [
    ChannelType.AnnouncementThread,
    ChannelType.PublicThread,
    ChannelType.PrivateThread,
  ];
  return channel?.type !== undefined && threadTypes.includes(channel.type)
    ? (channel.parent_id ?? null)
    : null;
}

/**
 * A modal's text fields by custom_id: in a label (type 18, as modals are built now) or, as older
 * clients send them, in action rows.
 */
function modalFields(components: readonly APIModalSubmissionComponent[]): Record<string, string> {
  const fields: Record<string, string> = {};
  const visit = (component: unknown): void => {
    if (typeof component !== 'object' || component === null) return;
    const { type, custom_id, value, component: inner, components } = component as Record<string, unknown>;
    if (type === ComponentType.TextInput && typeof custom_id === 'string' && typeof value === 'string')
      fields[custom_id] = value;
    visit(inner);
    if (Array.isArray(components)) for (const child of components) visit(child);
  };
  for (const component of components) visit(component);
  return fields;
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
