import { outcomeOf, type QuestionReply } from '../../src/answering/reply-to-question.ts';
import type { Article } from '../../src/corpus/article.ts';
import type { ReplyPayload } from '../../src/interactions/incoming.ts';
import { type ReplyScope, renderReply } from '../../src/interactions/render/answer.ts';
import type { Answer } from '../../src/search/answer.ts';
import { describeTime } from '../../src/search/time-layer.ts';

/**
 * The pipeline's reply for an engine answer made up by a test, as `replyToQuestion` would build it
 * (no disagreements, no closest headlines unless given), for renderer tests.
 */
export function replyOf(answer: Answer, extra: Partial<QuestionReply> = {}): QuestionReply {
  const note = describeTime(answer.time);
  return {
    question: answer.query,
    assurance: answer.assurance,
    answer,
    stories: answer.stories ?? [],
    closestHeadlines: [],
    disagreements: new Map(),
    timeNote: note === '' ? null : note,
    outcome: outcomeOf(answer, 'test'),
    ...extra,
  };
}

/** `renderReply` of a made-up answer, asked as `request` says. */
export function renderAnswer(answer: Answer, request: ReplyScope & { question: string }): ReplyPayload {
  const { question, ...scope } = request;
  return renderReply(replyOf({ ...answer, query: question }), scope);
}

/** "No coverage found" for `question`, with these closest headlines, as `/ask` renders it. */
export function renderNoCoverage(
  question: string,
  closest: readonly Article[],
  source: Article | null,
): ReplyPayload {
  return renderReply(
    replyOf(
      { query: question, results: [], hasMore: false, assurance: 'none' },
      { closestHeadlines: closest },
    ),
    { limit: 3, offset: 0, source },
  );
}
