import { SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import type { Command } from '../src/interactions/command.ts';
import { staleButton } from '../src/interactions/errors.ts';
import { available, writing } from '../src/interactions/feedback.ts';
import { renderWatches } from '../src/interactions/render/community.ts';

const WatchesOptions = z.object({});

/** `/watches`: the questions the member asked to be notified about, each with a Cancel button. Private. */
export default {
  data: new SlashCommandBuilder()
    .setName('watches')
    .setDescription('The questions you asked to be notified about, to review or cancel'),
  options: WatchesOptions,
  isPrivate: () => true,
  async execute(ctx, _options, interaction) {
    const { perMember } = available(ctx).store.watches;
    return renderWatches(
      await writing(ctx, (store) => store.watches.of(interaction.userId, ctx.now())),
      perMember,
    );
  },
  buttons: {
    /** `watches:cancel:<id>`: cancels one of the presser's own watches and shows the rest. */
    'watches:cancel': {
      async execute(ctx, [id = ''], interaction) {
        const { perMember } = available(ctx).store.watches;
        const watchId = Number.parseInt(id, 10);
        if (!Number.isInteger(watchId)) throw staleButton('run /watches again');
        const cancelled = await writing(ctx, (store) => store.watches.cancel(watchId, interaction.userId));
        const rest = renderWatches(
          await writing(ctx, (store) => store.watches.of(interaction.userId, ctx.now())),
          perMember,
        );
        const note = cancelled
          ? 'Cancelled.'
          : 'That watch had already ended (answered, expired or cancelled).';
        return { update: { ...rest, content: `${note}${rest.content ? ` ${rest.content}` : ''}` } };
      },
    },
  },
} satisfies Command<typeof WatchesOptions>;
