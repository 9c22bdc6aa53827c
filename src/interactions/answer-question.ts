import type { SlashCommandStringOption } from 'discord.js';
import { type QuestionReply, replyToQuestion } from '../answering/reply-to-question.ts';
import { type Period, PeriodError, parsePeriod } from '../search/period.ts';
import { UserError } from './errors.ts';
import type { ReplyPayload } from './incoming.ts';
import type { EngineView } from './library-view.ts';
import { renderReply } from './render/answer.ts';

/** The period the user wrote (`/ask`, `/sources`), checked; a bad bound is refused in plain words. */
export function periodOf(written: Period): Period | undefined {
  try {
    return parsePeriod(written);
  } catch (error) {
    if (error instanceof PeriodError) throw new UserError('bad-period', `${capitalise(error.message)}.`);
    throw error;
  }
}

const BOUND_FORMS = 'a year (2003), month (2015-08) or date (2015-08-01)';

/** The `since` option of `/ask` and `/timeline`. */
export function sinceOption(option: SlashCommandStringOption): SlashCommandStringOption {
  return option
    .setName('since')
    .setDescription(`Only articles published from then: ${BOUND_FORMS}`)
    .setMaxLength(40);
}

/** The `until` option of `/ask` and `/timeline`. */
export function untilOption(option: SlashCommandStringOption): SlashCommandStringOption {
  return option
    .setName('until')
    .setDescription(`Only articles published until then: ${BOUND_FORMS}`)
    .setMaxLength(40);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A question as a command or button asks it: the options as written, not yet checked (`since` and
 * `until` as `2003`, `2015-08` or `2015-08-01`).
 */
export interface AskedQuestion extends Period {
  question: string;
  limit: number;
  offset?: number;
  /** Article id to answer from (`/ask source:`, a story chosen from "Which story?"). */
  sourceId?: string | null;
  /** Outlets to answer from (a channel's, or `/ask source:` naming one); empty: every outlet. */
  outlets?: readonly string[];
  /** What the reply calls the question in its first line. @default 'your question' */
  subject?: string;
  /** Whether the reply is the asker's alone (a story chosen from it stays so). @default false */
  private?: boolean;
}

/** A question's reply: the pipeline's data (to record and follow) and the message rendered from it. */
export interface AnsweredQuestion {
  reply: QuestionReply;
  payload: ReplyPayload;
}

/**
 * What `/ask`, "More results", "Which story?" and "Find coverage" share: the options checked (a bad
 * source or period refused in plain words), the reply from the one pipeline, and its rendering.
 */
export async function answerQuestion(engine: EngineView, asked: AskedQuestion): Promise<AnsweredQuestion> {
  const offset = asked.offset ?? 0;
  const source = asked.sourceId ? engine.article(asked.sourceId) : undefined;
  if (asked.sourceId && !source) {
    throw new UserError(
      'unknown-source',
      'That source is not in the archive (it may have been removed by a reload). Pick one from the list as you type, or leave it out.',
    );
  }
  const written = {
    ...(asked.since ? { since: asked.since } : {}),
    ...(asked.until ? { until: asked.until } : {}),
  };
  const period = periodOf(written);
  const outlets = asked.outlets ?? [];
  const reply = await replyToQuestion(engine, {
    question: asked.question,
    limit: asked.limit,
    offset,
    ...(source ? { article: source } : {}),
    ...(outlets.length > 0 ? { outlets } : {}),
    ...(period ? { period } : {}),
  });
  if (offset > 0 && reply.answer.results.length === 0)
    throw new UserError('no-more-results', 'There are no more results for this question.');
  const payload = renderReply(reply, {
    limit: asked.limit,
    offset,
    source: source ?? null,
    ...written,
    ...(outlets.length > 0 ? { outlets } : {}),
    ...(asked.subject ? { subject: asked.subject } : {}),
    private: asked.private === true,
  });
  return { reply, payload };
}
