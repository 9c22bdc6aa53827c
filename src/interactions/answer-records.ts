import type { AnswerOutcome } from '../answering/reply-to-question.ts';
import type { CitedPassage } from '../community/cited-passages.ts';
import { questionHash } from '../community/community-store.ts';
import type { RecordWriter } from './reload-notifier.ts';

/** Where an answer was given: the guild (null in direct messages), the channel, the message if known. */
export interface AnswerPlace {
  guildId: string | null;
  channelId: string | null;
  messageId?: string | null;
}

/**
 * Records what a reply said: the answer and its citations, or the question without coverage (closest
 * coverage included), for `/gaps`. The question's text is kept only where the store records questions
 * (RECORD_QUESTIONS). `write` never lets the reply wait (`RecordKeeper.write`).
 */
export function writeReplyRecord(
  write: RecordWriter,
  asked: { question: string; at: Date; place: AnswerPlace },
  outcome: AnswerOutcome,
): void {
  const { question, at, place } = asked;
  if (outcome.kind === 'answered') {
    write('an answer', (store) =>
      store.records.recordAnswer({
        ...place,
        answeredAt: at,
        question: store.recordQuestions ? question : null,
        questionHash: questionHash(question),
        citations: outcome.citations,
        corpusVersion: outcome.corpusVersion,
      }),
    );
    return;
  }
  write('a question without coverage', (store) =>
    store.records.recordUnanswered({
      guildId: place.guildId,
      channelId: place.channelId,
      question: store.recordQuestions ? question : null,
      askedAt: at,
      corpusVersion: outcome.corpusVersion,
    }),
  );
}

/**
 * Keeps the paragraphs a posted answer cites, so a reload that corrects one is told in reply to its
 * message: under `key` (the interaction's id, or the watch's), with the message id when already known
 * (else attached once the reply is posted).
 */
export function followCited(
  write: RecordWriter,
  followed: {
    key: string;
    guildId: string | null;
    channelId: string;
    messageId?: string;
    at: Date;
    passages: readonly CitedPassage[];
  },
): void {
  if (followed.passages.length === 0) return;
  write('an answer’s citations', (store) =>
    store.citations.follow({
      interactionId: followed.key,
      ...(followed.messageId ? { messageId: followed.messageId } : {}),
      guildId: followed.guildId,
      channelId: followed.channelId,
      citedAt: followed.at,
      passages: [...followed.passages],
    }),
  );
}
