import {
  type APIGuild,
  type APIMessage,
  type APIRole,
  type APIUser,
  type GuildSystemChannelFlags,
  Locale,
  type RoleFlags,
} from 'discord.js';

/** Snowflakes of the stand-in's one application, guild and channel. */
export const ids = {
  application: '100000000000000001',
  guild: '200000000000000001',
  channel: '300000000000000001',
  /** A forum channel (type 15): posting there starts a post, a thread with its first message. */
  forum: '300000000000000002',
  /** A second text channel, e.g. the moderators'. */
  mods: '300000000000000003',
  moderatorRole: '400000000000000001',
  memberRole: '400000000000000002',
  bot: '100000000000000001',
} as const;

export const botUser: APIUser = {
  id: ids.bot,
  username: 'newsdesk',
  discriminator: '0',
  global_name: 'Newsdesk',
  avatar: null,
  bot: true,
};

export function member(id: string, name = `member-${id.slice(-4)}`): APIUser {
  return { id, username: name, discriminator: '0', global_name: name, avatar: null };
}

function role(id: string, name: string, permissions: string, position: number): APIRole {
  return {
    id,
    name,
    permissions,
    position,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    managed: false,
    mentionable: false,
    flags: 0 as RoleFlags,
    icon: null,
    unicode_emoji: null,
  };
}

/** The guild as GUILD_CREATE delivers it with the Guilds intent: roles and a text channel. */
export function guild(): APIGuild & Record<string, unknown> {
  return {
    id: ids.guild,
    name: 'Stand-in Newsroom',
    icon: null,
    splash: null,
    discovery_splash: null,
    owner_id: '900000000000000009',
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    roles: [
      role(ids.guild, '@everyone', '1024', 0),
      role(ids.moderatorRole, 'Desk editors', '0', 2),
      role(ids.memberRole, 'Readers', '0', 1),
    ],
    emojis: [],
    features: [],
    mfa_level: 0,
    application_id: null,
    system_channel_id: null,
    system_channel_flags: 0 as GuildSystemChannelFlags,
    rules_channel_id: null,
    vanity_url_code: null,
    description: null,
    banner: null,
    premium_tier: 0,
    preferred_locale: Locale.EnglishUS,
    public_updates_channel_id: null,
    nsfw_level: 0,
    premium_progress_bar_enabled: false,
    safety_alerts_channel_id: null,
    stickers: [],
    hub_type: null,
    incidents_data: null,
    // GUILD_CREATE extras
    joined_at: new Date(0).toISOString(),
    large: false,
    unavailable: false,
    member_count: 3,
    members: [],
    channels: [
      { id: ids.channel, type: 0, name: 'news', position: 0, guild_id: ids.guild, permission_overwrites: [] },
      {
        id: ids.forum,
        type: 15,
        name: 'stories',
        position: 1,
        guild_id: ids.guild,
        permission_overwrites: [],
        available_tags: [],
        default_reaction_emoji: null,
        default_sort_order: null,
        default_forum_layout: 0,
      },
      { id: ids.mods, type: 0, name: 'mods', position: 2, guild_id: ids.guild, permission_overwrites: [] },
    ],
    threads: [],
    presences: [],
    voice_states: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

/** A message someone posted in the stand-in's channel, e.g. the target of "Find coverage". */
export function userMessage(id: string, content: string, author: APIUser): APIMessage {
  return {
    id,
    channel_id: ids.channel,
    author,
    content,
    timestamp: new Date(0).toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    pinned: false,
    type: 0,
  };
}
