import { ApplicationCommandType, ContextMenuCommandBuilder } from 'discord.js';
import { z } from 'zod';
import { checkQuote } from '../src/factcheck/check-quote.ts';
import { quotationIn } from '../src/factcheck/quotation-in.ts';
import type { Command } from '../src/interactions/command.ts';
import { UserError } from '../src/interactions/errors.ts';
import { renderQuoteCheck } from '../src/interactions/render/quote-check.ts';

const CheckQuoteMessageOptions = z.object({});

/**
 * Message context menu "Check quote": checks the quotation in a message (the words in quotation marks,
 * or the whole message) as `/checkquote` does. Private, as "Find coverage" is: checking a quote should
 * not call out its author in the channel.
 */
export default {
  data: new ContextMenuCommandBuilder().setName('Check quote').setType(ApplicationCommandType.Message),
  options: CheckQuoteMessageOptions,
  rateLimited: true,
  channelScoped: true,
  isPrivate: () => true,
  async execute(ctx, _options, interaction) {
    if (interaction.kind !== 'message-context-menu')
      throw new UserError('wrong-kind', 'Use this from a message’s Apps menu.');
    const message = interaction.targetMessage;
    const text = [message.content, ...message.embeds.map((embed) => embed.description ?? '')].join(' ');
    const quotation = quotationIn(text);
    if (quotation === '')
      throw new UserError('empty-message', 'That message has no text I can check against the coverage.');
    return renderQuoteCheck(await checkQuote(ctx.library.engine, quotation));
  },
} satisfies Command<typeof CheckQuoteMessageOptions>;
