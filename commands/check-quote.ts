import { SlashCommandBuilder } from 'discord.js';
import { z } from 'zod';
import { checkQuote, MAX_QUOTE_CHARS } from '../src/factcheck/check-quote.ts';
import type { Command } from '../src/interactions/command.ts';
import { renderQuoteCheck } from '../src/interactions/render/quote-check.ts';

const CheckQuoteOptions = z.object({
  text: z
    .string()
    .trim()
    .min(1, 'paste the quotation to check')
    .max(MAX_QUOTE_CHARS, `a quotation of at most ${MAX_QUOTE_CHARS} characters`),
  private: z.boolean().default(false),
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
    .addBooleanOption((o) => o.setName('private').setDescription('Show the result only to you')),
  options: CheckQuoteOptions,
  rateLimited: true,
  isPrivate: (options) => options.private,
  async execute(ctx, options) {
    return renderQuoteCheck(await checkQuote(ctx.library.engine, options.text));
  },
} satisfies Command<typeof CheckQuoteOptions>;
