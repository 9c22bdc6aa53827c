import type { APIEmbed } from 'discord.js';
import type { Period } from '../../search/period.ts';
import { neutraliseMentions, stripZeroWidth } from './escape.ts';

/**
 * Button state that must survive restarts and work on any HTTP replica, so nothing is kept in memory.
 *
 * custom_ids (at most 100 characters) carry what is short:
 * - `ask:more:<offset>:<limit>`: the next page of an answer;
 * - `ask:ctx:<citation>`: the paragraphs around one result (a citation too long for 100 characters
 *   gets no button; `/cite` still shows it);
 * - `ask:story:<limit>:<public|private>`: the "Which story?" menu of closest coverage; the chosen
 *   option's value is the article id to answer within;
 * - `sources:page:<page>:<query>`: a page of `/sources`; the option caps the query at 80 characters.
 *
 * The question itself may be up to 1,000 characters, so "More results" reads it back from the message
 * the button is on (Discord sends that message with every button press): the last embed's footer says
 * `Asked: <question>`, and `Source: <article id>` when the answer was limited to one article. Footers
 * are plain text (no markdown), so the question is stored verbatim apart from mention-neutralising
 * zero-width spaces, which are removed again on reading.
 */
/** `since`/`until`: the `/ask` options as written (`Since: 2003`, `Until: 2015-08` lines). */
export interface QueryState extends Period {
  question: string;
  source: string | null;
  /** The outlets the answer came from (`Outlets: Wire; Harbour Gazette`): a channel's, or `source:`'s. */
  outlets?: readonly string[];
}

const ASKED = 'Asked: ';
const SOURCE = 'Source: ';
const SINCE = 'Since: ';
const UNTIL = 'Until: ';
const OUTLETS = 'Outlets: ';
/** Between outlets in the footer: publishers' names hold commas, never semicolons in practice. */
const OUTLET_SEPARATOR = '; ';

/** The footer text holding an answer's question (and source), plus a human-readable page note. */
export function queryFooter(state: QueryState, note: string): string {
  const question = state.question.replace(/\s+/g, ' ').trim();
  return neutraliseMentions(
    [
      `${ASKED}${question}`,
      ...(state.source ? [`${SOURCE}${state.source}`] : []),
      ...(state.since ? [`${SINCE}${state.since}`] : []),
      ...(state.until ? [`${UNTIL}${state.until}`] : []),
      ...(state.outlets?.length ? [`${OUTLETS}${state.outlets.join(OUTLET_SEPARATOR)}`] : []),
      note,
    ].join('\n'),
  );
}

/** Reads the question back from a message's embeds; null if the message holds none. */
export function readQueryState(embeds: readonly APIEmbed[]): QueryState | null {
  const footer = embeds.at(-1)?.footer?.text;
  if (!footer) return null;
  const lines = stripZeroWidth(footer).split('\n');
  const asked = lines.find((line) => line.startsWith(ASKED));
  if (!asked) return null;
  const source = lines.find((line) => line.startsWith(SOURCE));
  const since = lines.find((line) => line.startsWith(SINCE))?.slice(SINCE.length);
  const until = lines.find((line) => line.startsWith(UNTIL))?.slice(UNTIL.length);
  const outlets = lines
    .find((line) => line.startsWith(OUTLETS))
    ?.slice(OUTLETS.length)
    .split(OUTLET_SEPARATOR)
    .filter(Boolean);
  return {
    question: asked.slice(ASKED.length),
    source: source ? source.slice(SOURCE.length) : null,
    ...(since ? { since } : {}),
    ...(until ? { until } : {}),
    ...(outlets?.length ? { outlets } : {}),
  };
}

/** custom_id builders; see the module comment for the scheme. */
export const customIds = {
  more: (offset: number, limit: number) => `ask:more:${offset}:${limit}`,
  context: (citation: string) => `ask:ctx:${citation}`,
  /** The "Which story?" menu: the page size, and whether the reply is the asker's alone (kept by the answer). */
  story: (limit: number, isPrivate: boolean) => `ask:story:${limit}:${isPrivate ? 'private' : 'public'}`,
  sourcesPage: (page: number, query: string) => `sources:page:${page}:${query}`,
  /** The timeline of an answer's question (read from the answer's footer), privately. */
  timelineOfAnswer: 'ask:timeline',
  timelinePage: (page: number) => `timeline:page:${page}`,
};

const TOPIC = 'Topic: ';

/** A timeline's footer: its topic and period (for the page buttons), then a human-readable note. */
export function timelineFooter(state: Period & { topic: string }, note: string): string {
  return neutraliseMentions(
    [
      `${TOPIC}${state.topic.replace(/\s+/g, ' ').trim()}`,
      ...(state.since ? [`${SINCE}${state.since}`] : []),
      ...(state.until ? [`${UNTIL}${state.until}`] : []),
      note,
    ].join('\n'),
  );
}

/** The topic and period of a timeline message, read back from its last embed's footer; null if none. */
export function readTimelineState(embeds: readonly APIEmbed[]): (Period & { topic: string }) | null {
  const lines = stripZeroWidth(embeds.at(-1)?.footer?.text ?? '').split('\n');
  const value = (prefix: string) => lines.find((line) => line.startsWith(prefix))?.slice(prefix.length);
  const topic = value(TOPIC);
  if (!topic) return null;
  const since = value(SINCE);
  const until = value(UNTIL);
  return { topic, ...(since ? { since } : {}), ...(until ? { until } : {}) };
}
