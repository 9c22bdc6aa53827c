import type { SlashCommandStringOption } from 'discord.js';
import type { CitedPassage } from '../community/cited-passages.ts';
import { disagreementsIn } from '../factcheck/outlets-differ.ts';
import { publisherKey, publisherKeys } from '../search/outlets.ts';
import { type Period, PeriodError, parsePeriod } from '../search/period.ts';
import { citedIn } from './cited-answers.ts';
import { UserError } from './errors.ts';
import type { ReplyPayload } from './incoming.ts';
import type { EngineView } from './library-view.ts';
import { renderAnswer, renderNoCoverage } from './render/answer.ts';

/** The period the user wrote (`/ask`, `/sources`), checked; a bad bound is refused in plain words. */
export function periodOf(written: { since?: string; until?: string }): Period | undefined {
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

/** What an answer said, for whoever records it: the citations shown, or that nothing answered. */
export type AnswerOutcome =
  | { kind: 'answered'; citations: string[]; cited: CitedPassage[]; corpusVersion: string }
  | { kind: 'no-coverage'; corpusVersion: string };

/** What `/ask`, "More results" and "Find coverage" all do: ask the engine and render what it says. */
export async function answerQuestion(
  engine: EngineView,
  request: {
    question: string;
    limit: number;
    offset?: number;
    /** Article id to answer from (`/ask source:`). */
    sourceId?: string | null;
    /** Outlets to answer from (a channel's, or `/ask source:` naming one); empty: every outlet. */
    outlets?: readonly string[];
    subject?: string;
    /** The publication period to answer from, as written (`2003`, `2015-08`, `2015-08-01`). */
    since?: string;
    until?: string;
    /** Hears what the answer said (not called when the request is refused). */
    observe?: (outcome: AnswerOutcome) => void;
  },
): Promise<ReplyPayload> {
  const offset = request.offset ?? 0;
  const source = request.sourceId ? engine.article(request.sourceId) : undefined;
  if (request.sourceId && !source) {
    throw new UserError(
      'unknown-source',
      'That source is not in the archive (it may have been removed by a reload). Pick one from the list as you type, or leave it out.',
    );
  }
  const written = {
    ...(request.since ? { since: request.since } : {}),
    ...(request.until ? { until: request.until } : {}),
  };
  const period = periodOf(written);
  const outlets = request.outlets ?? [];
  const answer = await engine.answerAsync(request.question, {
    limit: request.limit,
    offset,
    ...(source ? { articleId: source.id } : {}),
    ...(outlets.length > 0 ? { publishers: outlets } : {}),
    ...(period ? { period } : {}),
  });
  if (answer.results.length === 0) {
    if (offset > 0) throw new UserError('no-more-results', 'There are no more results for this question.');
    const closest = await closestFrom(engine, request.question, outlets);
    request.observe?.({ kind: 'no-coverage', corpusVersion: engine.version });
    return renderNoCoverage(
      request.question,
      closest,
      source ?? null,
      { ...written, ...(outlets.length > 0 ? { outlets } : {}) },
      answer.time?.named?.label,
    );
  }
  // Closest coverage is shown, but the archive does not clearly answer: it counts as a coverage gap.
  request.observe?.(
    answer.assurance === 'closest'
      ? { kind: 'no-coverage', corpusVersion: engine.version }
      : {
          kind: 'answered',
          citations: answer.results.map((result) => result.citation),
          cited: citedIn(answer.results),
          corpusVersion: engine.version,
        },
  );
  return renderAnswer(answer, {
    question: request.question,
    limit: request.limit,
    offset,
    source: source ?? null,
    ...written,
    ...(outlets.length > 0 ? { outlets } : {}),
    ...(request.subject ? { subject: request.subject } : {}),
    disagreements: disagreementsIn(answer.results, engine),
  });
}

/** The closest headlines, of the outlets answered from when there are some (a channel's reply keeps to them). */
async function closestFrom(engine: EngineView, question: string, outlets: readonly string[]) {
  if (outlets.length === 0) return engine.closestHeadlinesAsync(question, 3);
  const keys = publisherKeys(outlets);
  const near = await engine.closestHeadlinesAsync(question, 30);
  return near.filter((article) => keys?.has(publisherKey(article.publisher ?? ''))).slice(0, 3);
}
