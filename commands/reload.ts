import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import type { Command } from '../src/interactions/command.ts';
import { UserError } from '../src/interactions/errors.ts';
import { renderReloadOutcome, renderReloadProgress } from '../src/interactions/render/reload.ts';

const ReloadOptions = z.object({});

/**
 * `/reload`: re-read, validate and re-index the corpus, then swap it in. Hidden from members by
 * `default_member_permissions` (Manage Server) and checked again in code (`access: 'moderators'`, see
 * `isModerator`), because a server admin can grant a command to anyone in Server Settings.
 */
export default {
  data: new SlashCommandBuilder()
    .setName('reload')
    .setDescription('Moderators: re-read the corpus and swap in the new index if it is valid')
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild),
  options: ReloadOptions,
  access: 'moderators',
  defer: 'always',
  isPrivate: () => true,
  async execute(ctx, _options, interaction, progress) {
    if (!ctx.corpus)
      throw new UserError('reload-unavailable', 'This bot cannot reload its corpus while running.');
    const outcome = await ctx.corpus.reload({
      trigger: 'command',
      actor: { id: interaction.userId, name: interaction.userName ?? interaction.userId },
      onProgress: (step) => progress(renderReloadProgress(step)),
    });
    return renderReloadOutcome(outcome);
  },
} satisfies Command<typeof ReloadOptions>;
