import { replyToQuestion } from '../answering/reply-to-question.ts';
import { questionHash } from '../community/community-store.ts';
import type { Watch } from '../community/watch-list.ts';
import { followCited, writeReplyRecord } from './answer-records.ts';
import type { EngineView } from './library-view.ts';
import { ReloadNotifier } from './reload-notifier.ts';
import { renderReply } from './render/answer.ts';
import { feedbackRow, renderWatchAnswered, withRow } from './render/community.ts';
import { finalizeReply } from './render/payload.ts';

/** Passages posted for a watched question, as a first page of `/ask` would show. */
const WATCH_ANSWER_LIMIT = 3;

/**
 * Asks every watched question again after a reload and posts the ones that now have coverage, once,
 * in the channel where they were asked. Checks never overlap: a reload during a check runs another
 * check after it, on the engine serving by then.
 */
export class WatchNotifier extends ReloadNotifier {
  protected async checkAll(engine: EngineView): Promise<number> {
    let posted = 0;
    let due: Watch[];
    try {
      due = await this.community.watches.due(this.now());
    } catch (error) {
      this.logger.error('watched questions: could not read the database', { error });
      return 0;
    }
    for (const watch of due) {
      try {
        if (await this.#answer(watch, engine)) posted += 1;
      } catch (error) {
        this.logger.error('watched question: check failed', { watch: watch.id, error });
      }
    }
    if (due.length > 0) this.logger.info('watched questions checked', { watched: due.length, posted });
    return posted;
  }

  async #answer(watch: Watch, engine: EngineView): Promise<boolean> {
    const reply = await replyToQuestion(engine, { question: watch.question, limit: WATCH_ANSWER_LIMIT });
    // Only an answer settles a watched question: closest coverage is what it had when it was watched.
    const outcome = reply.outcome;
    if (outcome.kind !== 'answered') return false;
    // Another shard or replica checking after the same reload may have taken it already.
    if (!(await this.community.watches.claim(watch.id, this.now()))) return false;
    const rendered = withRow(
      renderReply(reply, { limit: WATCH_ANSWER_LIMIT, offset: 0, source: null }),
      feedbackRow(questionHash(watch.question), outcome.citations[0] ?? ''),
    );
    const message = renderWatchAnswered(watch, rendered);
    let messageId: string | undefined;
    try {
      // finalizeReply fits the limits and silences every mention; then the watcher alone is let through.
      messageId = await this.poster.post(watch.channelId, {
        ...finalizeReply(message),
        allowed_mentions: message.allowed_mentions ?? { parse: [] },
      });
    } catch (error) {
      this.record('a watched question’s failed post', async (store) => {
        const kept = await store.watches.release(watch.id);
        this.logger.warn('watched question: posting the answer failed', { watch: watch.id, kept, error });
      });
      return false;
    }
    // Kept until the store takes it: a watch left claimed would be posted again once its claim expires.
    this.record('a watched question’s end', (store) => store.watches.finish(watch.id));
    this.logger.info('watched question answered', { watch: watch.id, channel: watch.channelId });
    const at = this.now();
    const place = { guildId: watch.guildId, channelId: watch.channelId, messageId: messageId ?? null };
    writeReplyRecord(this.record, { question: watch.question, at, place }, outcome);
    // Posted in the channel like an /ask answer, so followed like one for corrections.
    if (messageId)
      followCited(this.record, {
        key: `watch:${watch.id}`,
        guildId: watch.guildId,
        channelId: watch.channelId,
        messageId,
        at,
        passages: outcome.cited,
      });
    return true;
  }
}
