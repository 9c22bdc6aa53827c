import { FOLLOW_DAYS, type FollowedPassage } from '../community/cited-passages.ts';
import { type Correction, correctionOf } from '../factcheck/correction.ts';
import type { EngineView } from './library-view.ts';
import { ReloadNotifier } from './reload-notifier.ts';
import { renderCorrections, type ShownCorrection } from './render/correction.ts';
import { finalizeReply } from './render/payload.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * After each reload, compares the paragraphs that answers posted in the last FOLLOW_DAYS cited with
 * the coverage now served, and replies once to each answer whose paragraphs changed or went: a short
 * word diff and the new citation, or "removed from the coverage". Checks never overlap: a reload
 * during a check runs another check after it, on the engine serving by then.
 */
export class CorrectionNotifier extends ReloadNotifier {
  protected async checkAll(engine: EngineView): Promise<number> {
    let due: FollowedPassage[];
    try {
      due = await this.community.citations.due(new Date(this.now().getTime() - FOLLOW_DAYS * DAY_MS));
    } catch (error) {
      this.logger.error('corrections: could not read the database', { error });
      return 0;
    }
    const byMessage = new Map<string, { channelId: string; found: ShownCorrection[] }>();
    for (const cited of due) {
      const correction = correctionOf(cited, engine);
      if (!correction) continue;
      const entry = byMessage.get(cited.messageId) ?? { channelId: cited.channelId, found: [] };
      entry.found.push({ correction, ...articleOf(correction, engine) });
      byMessage.set(cited.messageId, entry);
    }
    let posted = 0;
    for (const [messageId, { channelId, found }] of byMessage) {
      try {
        if (await this.#reply(messageId, channelId, found)) posted += 1;
      } catch (error) {
        this.logger.error('correction: reply failed', { message: messageId, error });
      }
    }
    if (byMessage.size > 0)
      this.logger.info('corrections to cited answers checked', {
        followed: due.length,
        answers: byMessage.size,
        posted,
      });
    return posted;
  }

  async #reply(messageId: string, channelId: string, found: ShownCorrection[]): Promise<boolean> {
    // Another shard or replica reloading the same change, or an earlier run, may have taken some.
    const claimed = new Set(
      await this.community.citations.claim(
        messageId,
        found.map((item) => item.correction.citation),
        this.now(),
      ),
    );
    const mine = found.filter((item) => claimed.has(item.correction.citation));
    if (mine.length === 0) return false;
    const citations = mine.map((item) => item.correction.citation);
    try {
      await this.poster.post(channelId, finalizeReply(renderCorrections(mine)), { replyTo: messageId });
    } catch (error) {
      this.record('a correction’s failed reply', async (store) => {
        const kept = await store.citations.release(messageId, citations);
        this.logger.warn('correction: replying to the answer failed', { message: messageId, kept, error });
      });
      return false;
    }
    this.logger.info('correction replied to a cited answer', { message: messageId, citations });
    return true;
  }
}

/** The article a changed paragraph is now in, for its citation line. */
function articleOf(correction: Correction, engine: EngineView): Pick<ShownCorrection, 'article'> {
  if (correction.kind !== 'changed') return {};
  const article = engine.passage(correction.newCitation)?.article;
  return article ? { article } : {};
}
