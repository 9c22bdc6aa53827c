import { SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import type { Command } from '../src/interactions/command.ts';
import { UserError } from '../src/interactions/errors.ts';
import { code } from '../src/interactions/render/citation.ts';
import { renderPassageInContext } from '../src/interactions/render/passage.ts';

const CiteOptions = z.object({
  id: z.string().trim().min(1, 'give a citation such as article-id#3').max(200),
});

export default {
  data: new SlashCommandBuilder()
    .setName('cite')
    .setDescription('Show one cited passage in full, with the paragraphs around it')
    .addStringOption((o) =>
      o
        .setName('id')
        .setDescription('Citation, e.g. article-id#3')
        .setRequired(true)
        .setAutocomplete(true)
        .setMaxLength(200),
    ),
  options: CiteOptions,
  channelScoped: true,
  execute(ctx, options) {
    const found = ctx.library.engine.context(options.id, 1);
    if (!found) {
      throw new UserError(
        'unknown-citation',
        `There is no passage ${code(options.id.slice(0, 120))} in the archive. Citations look like \`article-id#3\`; start typing to pick one.`,
      );
    }
    return renderPassageInContext(found, `Passage ${code(found.passages[found.focus]!.id)}:`);
  },
  async autocomplete(ctx, focused) {
    return (await ctx.library.engine.suggestCitations(focused.value, 25)).map(({ citation, preview }) => ({
      name: `${citation} — ${preview.replace(/\s+/g, ' ')}`,
      value: citation,
    }));
  },
} satisfies Command<typeof CiteOptions>;
