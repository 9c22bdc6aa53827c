import type { EarlierExchange } from '../followups/follow-up-context.ts';
import type { CommandContext } from './command.ts';
import { earlierFrom } from './follow-up.ts';
import type { IncomingInteraction, MaybePosted } from './incoming.ts';
import { fitText } from './render/truncate.ts';

/** Messages of a thread read for its context: its latest answers are what a question there follows. */
const THREAD_MESSAGES_READ = 50;
/** Discord's longest thread name. */
const THREAD_NAME_LENGTH = 100;

/** Public answers whose message opens a thread once posted (thread mode), with the thread's name. */
const awaitingThread = new WeakMap<IncomingInteraction, string>();

/**
 * For a channel with thread mode on: the answer's message opens a thread named after the question once
 * it is posted (`openPendingThread`). Nothing in a thread or a direct message.
 */
export function openThreadOnceAnswered(interaction: IncomingInteraction, question: string): void {
  if (!interaction.guildId || !interaction.channelId || interaction.parentChannelId) return;
  awaitingThread.set(interaction, fitText(question.replace(/\s+/g, ' ').trim(), THREAD_NAME_LENGTH));
}

/** Called by the dispatcher once a reply is out: opens the thread `openThreadOnceAnswered` asked for. */
export async function openPendingThread(
  ctx: CommandContext,
  interaction: IncomingInteraction,
  posted: MaybePosted,
): Promise<void> {
  const name = awaitingThread.get(interaction);
  if (name === undefined || !posted || !ctx.threads || !interaction.channelId) return;
  awaitingThread.delete(interaction);
  try {
    const messageId = await posted.id();
    if (messageId) await ctx.threads.startThread(interaction.channelId, messageId, name);
    else ctx.logger.info('the answer’s message id is unknown; no thread opened');
  } catch (error) {
    ctx.logger.warn('could not open a thread on the answer', { error });
  }
}

/**
 * The context of a question asked in a thread: the thread's latest answer that names its story (its
 * question and first result), else the answer the thread was opened on. Null outside a thread, or
 * when the thread holds no answer.
 */
export async function threadContext(
  ctx: CommandContext,
  interaction: IncomingInteraction,
): Promise<EarlierExchange | null> {
  const threadId = interaction.channelId;
  const parentId = interaction.parentChannelId;
  if (!ctx.threads || !threadId || !parentId) return null;
  try {
    for (const message of await ctx.threads.latestMessages(threadId, THREAD_MESSAGES_READ)) {
      const earlier = earlierFrom(message);
      if (earlier) return earlier;
    }
    // A thread opened on a message has that message's id; the message stays in the parent channel.
    const starter = await ctx.threads.message(parentId, threadId);
    return starter ? earlierFrom(starter) : null;
  } catch (error) {
    ctx.logger.warn('could not read the thread’s messages; answering without its context', { error });
    return null;
  }
}
