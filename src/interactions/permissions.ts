import type { IncomingInteraction } from './incoming.ts';

/** Discord's Manage Server permission bit (`ManageGuild`, 1 << 5). */
export const MANAGE_GUILD = 1n << 5n;

/**
 * Whether the member who sent an interaction may change the corpus (`/reload`, `/corpus`).
 *
 * The rule, on top of the `default_member_permissions: ManageGuild` that hides these commands:
 * - with `MODERATOR_ROLE_IDS` configured, the member must hold one of those roles (Manage Server
 *   alone is not enough, so a server admin can hand corpus control to a narrow role);
 * - without it, the member must have Manage Server in the channel (Discord computes this, so
 *   Administrator counts);
 * - never in direct messages.
 *
 * The code check exists because a server admin can override `default_member_permissions` per command
 * in Server Settings > Integrations, granting it to anyone.
 */
export function isModerator(interaction: IncomingInteraction, moderatorRoleIds: readonly string[]): boolean {
  if (interaction.guildId === null) return false;
  if (moderatorRoleIds.length > 0)
    return interaction.memberRoleIds.some((role) => moderatorRoleIds.includes(role));
  return (
    interaction.memberPermissions !== null && (interaction.memberPermissions & MANAGE_GUILD) === MANAGE_GUILD
  );
}
