import {
  type APIActionRowComponent,
  type APIApplicationCommandAutocompleteInteraction,
  type APIApplicationCommandInteractionDataBasicOption,
  type APIChatInputApplicationCommandInteraction,
  type APIComponentInMessageActionRow,
  type APIInteractionGuildMember,
  type APIMessage,
  type APIMessageApplicationCommandInteraction,
  type APIMessageComponentButtonInteraction,
  type APIMessageComponentSelectMenuInteraction,
  type APIModalSubmitInteraction,
  type APIStringSelectComponent,
  type APIUser,
  ComponentType,
  type GuildMemberFlags,
} from 'discord.js';
import { ids, member } from './fixtures.ts';

/** Who sends an interaction: a user id, their roles and their permissions bitfield in the channel. */
export interface Sender {
  userId: string;
  roles?: string[];
  /** Decimal bitfield string. @default '1024' (View Channel only) */
  permissions?: string;
  /** Where it is sent from. @default the stand-in's one text channel, `ids.channel` */
  channelId?: string;
}

let counter = 0;
function nextId(): string {
  counter += 1;
  return (700000000000000000n + BigInt(counter)).toString();
}

/** Where an interaction is sent from: the stand-in's text channel, or a thread in it. */
export interface Place {
  /** A thread's id; its parent is the stand-in's channel. */
  threadId?: string;
}

function common(sender: Sender, place: Place = {}) {
  const id = nextId();
  const user: APIUser = member(sender.userId);
  const guildMember: APIInteractionGuildMember = {
    user,
    roles: sender.roles ?? [],
    permissions: sender.permissions ?? '1024',
    joined_at: new Date(0).toISOString(),
    deaf: false,
    mute: false,
    flags: 0 as GuildMemberFlags,
    nick: null,
    avatar: null,
    banner: null,
    premium_since: null,
    pending: false,
  };
  return {
    id,
    application_id: ids.application,
    token: `token-${id}`,
    version: 1 as const,
    guild_id: ids.guild,
    channel_id: place.threadId ?? sender.channelId ?? ids.channel,
    // A thread is a channel of type 11 (public thread) whose parent_id is the channel it is in.
    channel: place.threadId
      ? {
          id: place.threadId,
          type: 11 as const,
          guild_id: ids.guild,
          name: 'thread',
          parent_id: sender.channelId ?? ids.channel,
        }
      : {
          id: sender.channelId ?? ids.channel,
          type: 0 as const,
          guild_id: ids.guild,
          name: sender.channelId ? `channel-${sender.channelId.slice(-4)}` : 'news',
        },
    member: guildMember,
    app_permissions: '2248473465835073',
    locale: 'en-US' as const,
    guild_locale: 'en-US' as const,
    entitlements: [],
    authorizing_integration_owners: { 0: ids.guild },
    context: 0 as const,
    attachment_size_limit: 10_485_760,
  };
}

/** A channel option's value (type 7): the channel's id, as Discord sends it. */
export class ChannelRef {
  constructor(readonly id: string) {}
}

type OptionValue = string | number | boolean | ChannelRef;

function basicOptions(options: Record<string, OptionValue>, focused?: string) {
  return Object.entries(options).map(([name, given]) => {
    const value = given instanceof ChannelRef ? given.id : given;
    const type =
      given instanceof ChannelRef ? 7 : typeof value === 'string' ? 3 : typeof value === 'boolean' ? 5 : 4;
    return {
      name,
      type,
      value,
      ...(name === focused ? { focused: true } : {}),
    } as APIApplicationCommandInteractionDataBasicOption;
  });
}

/** A slash command as Discord delivers it: `/ask question:...`. */
export function chatInput(
  name: string,
  options: Record<string, string | number | boolean>,
  sender: Sender,
  place: Place = {},
): APIChatInputApplicationCommandInteraction {
  return {
    ...common(sender, place),
    type: 2,
    data: { id: `cmd-${name}`, name, type: 1, options: basicOptions(options) },
  } as APIChatInputApplicationCommandInteraction;
}

/** The channels named by channel options, as Discord resolves them. */
function resolvedChannels(options: Record<string, OptionValue>) {
  const channels = Object.values(options).filter((value) => value instanceof ChannelRef);
  if (channels.length === 0) return {};
  return {
    resolved: {
      channels: Object.fromEntries(
        channels.map((ref) => [
          ref.id,
          {
            id: ref.id,
            type: ref.id === ids.forum ? 15 : 0,
            name: `channel-${ref.id.slice(-4)}`,
            permissions: '1024',
          },
        ]),
      ),
    },
  };
}

/**
 * The options of a subcommand (`[subcommand]`) or of a group's subcommand (`[group, subcommand]`) as
 * Discord nests them: a group is option type 2, a subcommand type 1, the options inside.
 */
function nestedOptions(
  path: [string] | [string, string],
  options: Record<string, OptionValue>,
  focused?: string,
) {
  const leaf = { name: path.at(-1)!, type: 1, options: basicOptions(options, focused) };
  return path.length === 2 ? [{ name: path[0], type: 2, options: [leaf] }] : [leaf];
}

/** A subcommand of a group as Discord delivers it: `/settings channels add channel:#news`. */
export function chatInputGroup(
  name: string,
  group: string,
  subcommand: string,
  options: Record<string, OptionValue>,
  sender: Sender,
): APIChatInputApplicationCommandInteraction {
  return {
    ...common(sender),
    type: 2,
    data: {
      id: `cmd-${name}`,
      name,
      type: 1,
      options: nestedOptions([group, subcommand], options),
      ...resolvedChannels(options),
    },
  } as APIChatInputApplicationCommandInteraction;
}

/** A subcommand as Discord delivers it: `/corpus remove id:...`. */
export function chatInputSubcommand(
  name: string,
  subcommand: string,
  options: Record<string, OptionValue>,
  sender: Sender,
): APIChatInputApplicationCommandInteraction {
  return {
    ...common(sender),
    type: 2,
    data: {
      id: `cmd-${name}`,
      name,
      type: 1,
      options: nestedOptions([subcommand], options),
      ...resolvedChannels(options),
    },
  } as APIChatInputApplicationCommandInteraction;
}

/** The user typing in an autocompleted option `focused`. */
export function autocomplete(
  name: string,
  options: Record<string, string | number | boolean>,
  focused: string,
  sender: Sender,
): APIApplicationCommandAutocompleteInteraction {
  return {
    ...common(sender),
    type: 4,
    data: { id: `cmd-${name}`, name, type: 1, options: basicOptions(options, focused) },
  } as APIApplicationCommandAutocompleteInteraction;
}

/** Typing in an autocompleted option of a group's subcommand: `/settings outlets add outlet:harb…`. */
export function autocompleteGroup(
  name: string,
  group: string,
  subcommand: string,
  options: Record<string, string | number | boolean>,
  focused: string,
  sender: Sender,
): APIApplicationCommandAutocompleteInteraction {
  return {
    ...common(sender),
    type: 4,
    data: { id: `cmd-${name}`, name, type: 1, options: nestedOptions([group, subcommand], options, focused) },
  } as APIApplicationCommandAutocompleteInteraction;
}

/** A press on a button of `message` (a message the bot sent, as the stand-in stored it). */
export function button(
  message: APIMessage,
  customId: string,
  sender: Sender,
): APIMessageComponentButtonInteraction {
  return {
    ...common(sender),
    type: 3,
    message,
    data: { custom_id: customId, component_type: 2 },
  } as APIMessageComponentButtonInteraction;
}

/**
 * A member's choice in a string select menu of `message`, as Discord delivers it: the menu must be on
 * the message and offer every value chosen (Discord's client offers nothing else), or this throws.
 */
export function stringSelect(
  message: APIMessage,
  customId: string,
  values: string[],
  sender: Sender,
): APIMessageComponentSelectMenuInteraction {
  const rows = (message.components ?? []) as APIActionRowComponent<APIComponentInMessageActionRow>[];
  const menu = rows
    .flatMap((row) => row.components)
    .find(
      (component): component is APIStringSelectComponent =>
        component.type === ComponentType.StringSelect && component.custom_id === customId,
    );
  if (!menu) throw new Error(`no string select ${customId} on message ${message.id}`);
  const offered = new Set(menu.options.map((option) => option.value));
  const unknown = values.filter((value) => !offered.has(value));
  if (unknown.length > 0) throw new Error(`the menu ${customId} offers no option ${unknown.join(', ')}`);
  return {
    ...common(sender),
    type: 3,
    message,
    data: { custom_id: customId, component_type: 3, values },
  } as APIMessageComponentSelectMenuInteraction;
}

/**
 * A modal submitted, as Discord delivers it (interaction type 5): its custom_id, each text field's
 * value in a label (component type 18) holding the text input (type 4), and the message whose button
 * opened the modal.
 */
export function modalSubmit(
  message: APIMessage,
  customId: string,
  fields: Record<string, string>,
  sender: Sender,
): APIModalSubmitInteraction {
  return {
    ...common(sender),
    type: 5,
    message,
    data: {
      custom_id: customId,
      components: Object.entries(fields).map(([id, value]) => ({
        type: 18,
        id: 1,
        component: { type: 4, id: 2, custom_id: id, value },
      })),
    },
  } as unknown as APIModalSubmitInteraction;
}

/** A message context-menu command run on `target`. */
export function messageCommand(
  name: string,
  target: APIMessage,
  sender: Sender,
): APIMessageApplicationCommandInteraction {
  return {
    ...common(sender),
    type: 2,
    data: {
      id: `cmd-${name}`,
      name,
      type: 3,
      target_id: target.id,
      resolved: { messages: { [target.id]: target } },
    },
  } as APIMessageApplicationCommandInteraction;
}
