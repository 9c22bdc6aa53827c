import { SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import { checkQuote, MAX_QUOTE_CHARS } from '../src/factcheck/check-quote.ts';
import type { Command } from '../src/interactions/command.ts';
import { withDismiss } from '../src/interactions/dismiss.ts';
import { renderQuoteCheck } from '../src/interactions/render/quote-check.ts';

const CheckQuoteOptions = z.object({
  text: z
    .string()
    .trim()
    .min(1, 'paste the quotation to check')
    .max(MAX_QUOTE_CHARS, `a quotation of at most ${MAX_QUOTE_CHARS} characters`),
  /** Absent: the channel's default (`/settings visibility`), public unless set. */
  private: z.boolean().optional(),
});

/** `/checkquote text:` checks a quotation word for word against the coverage. */
export default {
  data: new SlashCommandBuilder()
    .setName('checkquote')
    .setDescription(
      'Check a quotation word for word against the coverage: verbatim, close, altered or not found',
    )
    .addStringOption((o) =>
      o
        .setName('text')
        .setDescription('The quotation as someone wrote it')
        .setRequired(true)
        .setMaxLength(MAX_QUOTE_CHARS),
    )
    .addBooleanOption((o) =>
      o.setName('private').setDescription("Show the result only to you (default: the channel's setting)"),
    ),
  options: CheckQuoteOptions,
  rateLimited: true,
  channelScoped: true,
  isPrivate: (options, channel) => options.private ?? channel?.settings.visibility === 'private',
  async execute(ctx, options, interaction) {
    const isPrivate = options.private ?? ctx.channel?.settings.visibility === 'private';
    const checked = renderQuoteCheck(await checkQuote(ctx.library.engine, options.text));
    return isPrivate ? checked : withDismiss(checked, interaction.userId);
  },
} satisfies Command<typeof CheckQuoteOptions>;
