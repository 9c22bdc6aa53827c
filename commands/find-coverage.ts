import { ApplicationCommandType, ContextMenuCommandBuilder } from 'discord.js';
import { z } from 'zod';
import { answerQuestion } from '../src/interactions/answer-question.ts';
import type { Command } from '../src/interactions/command.ts';
import { UserError } from '../src/interactions/errors.ts';
import { sentenceEnds } from '../src/interactions/render/truncate.ts';

/** A message is searched from its start, up to this many characters (cut after a sentence). */
const MAX_CLAIM_LENGTH = 500;

const FindCoverageOptions = z.object({});

/**
 * Message context menu "Find coverage": checks what someone wrote against the archive and answers as
 * `/ask` would. Private by default: checking a claim should not call out its author in the channel.
 */
export default {
  data: new ContextMenuCommandBuilder().setName('Find coverage').setType(ApplicationCommandType.Message),
  options: FindCoverageOptions,
  rateLimited: true,
  channelScoped: true,
  isPrivate: () => true,
  execute(ctx, _options, interaction) {
    if (interaction.kind !== 'message-context-menu')
      throw new UserError('wrong-kind', 'Use this from a message’s Apps menu.');
    const message = interaction.targetMessage;
    const text = [
      message.content,
      ...message.embeds.flatMap((embed) => [embed.title ?? '', embed.description ?? '']),
    ]
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (text === '')
      throw new UserError('empty-message', 'That message has no text I can check against the archive.');
    return answerQuestion(ctx.library.engine, { question: claim(text), limit: 3, subject: 'that message' });
  },
} satisfies Command<typeof FindCoverageOptions>;

function claim(text: string): string {
  if (text.length <= MAX_CLAIM_LENGTH) return text;
  const end = sentenceEnds(text)
    .filter((at) => at <= MAX_CLAIM_LENGTH)
    .at(-1);
  return text.slice(0, end ?? MAX_CLAIM_LENGTH);
}
