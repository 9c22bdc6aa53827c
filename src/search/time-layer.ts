import { publishedDay } from '../corpus/published-date.ts';
import type { Steps } from '../event-loop.ts';
import type { Answer, AnswerResult, AnswerTime, ReportRef } from './answer.ts';
import type { Period } from './period.ts';
import { readTimeWords } from './time-words.ts';

/**
 * The date layer of an answer: applied after ranking, to groups of reports of one fact, so it never
 * changes what the fitted ranking scores. A question naming a year or month has that period's groups
 * first; one asking for the latest news has the newest reports first.
 */

/** Reports of one fact from different articles, most relevant first. */
export type ReportGroup = AnswerResult[];

/**
 * Groups reordered by time are chosen among at least this many, so the first pages of an answer agree
 * on the order and "nearest" or "newest" is not just the best of the first few.
 */
const TIME_ORDER_POOL = 10;

/**
 * One page of an answer with the date layer: `search(text, period, shown)` gives the ranked groups for
 * a text within a period (undefined: the answer's own scope), enough for `shown` results and one more.
 * A period the user set (`since`/`until`) stands; a year or month named in the question is preferred,
 * and said when the corpus has nothing from then.
 */
export function* answerInTime(
  question: string,
  offset: number,
  limit: number,
  period: Period | undefined,
  timeWords: boolean,
  search: (text: string, period: Period | undefined, shown: number) => Steps<ReportGroup[]>,
): Steps<Answer> {
  const shown = offset + limit;
  const words = timeWords ? readTimeWords(question) : undefined;
  const reorders =
    words !== undefined && (words.recent || (words.named !== undefined && period === undefined));
  const pool = reorders ? Math.max(shown, TIME_ORDER_POOL) : shown;
  // The question is searched as the ranking was fitted, time words and all; without a named year or month
  // when that finds nothing (a year no article mentions), and always within a named period, which the
  // filter stands for. A recency word ("today") is never dropped: without it an off-topic question
  // ("the weather in Calais today?") would be asked again with less to refuse it on.
  const topic = words && words.topic !== '' ? words.topic : question;
  const dropsNamed = words?.named !== undefined && topic !== question;
  // The topic without its named year or month, searched at most once.
  let ofTopic: ReportGroup[] | undefined;
  let all = yield* search(question, period, pool);
  if (all.length === 0 && dropsNamed) {
    ofTopic = yield* search(topic, period, pool);
    all = ofTopic;
  }
  const time: AnswerTime = {};
  let groups = all;
  if (words?.named && period === undefined) {
    const named = words.named;
    const within = yield* search(topic, named.period, shown);
    if (within.length > 0) {
      groups = preferPeriod(within, all);
      time.named = { label: named.label, found: true };
    } else {
      // Nearest in time among the topic's coverage: the year asked, which no article of then holds, would
      // otherwise count against the reports of other years.
      if (dropsNamed && ofTopic === undefined) ofTopic = yield* search(topic, period, pool);
      const around = ofTopic ?? all;
      const nearest = nearestTo(around.length > 0 ? around : all, named.period, named.label.includes(' '));
      groups = nearest.groups;
      time.named = {
        label: named.label,
        found: false,
        ...(nearest.closest ? { closest: nearest.closest } : {}),
      };
    }
  }
  if (words?.recent && groups.length > 0) {
    groups = newestFirst(groups);
    time.newestFirst = true;
  }
  if (groups.length === 0) return { query: question, results: [], hasMore: false };
  return {
    query: question,
    results: groups.slice(offset, shown).map(groupResult),
    hasMore: groups.length > shown,
    ...(time.named || time.newestFirst ? { time } : {}),
  };
}

/** The groups answering from the named period first, then the others not already among them. */
export function preferPeriod(within: readonly ReportGroup[], all: readonly ReportGroup[]): ReportGroup[] {
  const shown = new Set(within.flatMap((group) => group.map((report) => report.citation)));
  return [...within, ...all.filter((group) => !group.some((report) => shown.has(report.citation)))];
}

/**
 * When the period named has no coverage: the groups nearest it in time first (by their report nearest
 * it; undated groups last, each keeping its ranked order among equals), and when that nearest coverage
 * is, as a year (`1987`) or, for a month asked, a month (`July 2015`).
 */
export function nearestTo(
  groups: readonly ReportGroup[],
  period: Period,
  byMonth: boolean,
): { groups: ReportGroup[]; closest?: string } {
  const from = Date.parse(period.since ?? '0000-01-01');
  const to = Date.parse(period.until ?? '9999-12-31');
  const distance = (group: ReportGroup) => {
    let best = Number.POSITIVE_INFINITY;
    for (const report of group) {
      if (report.published === null) continue;
      const at = Date.parse(publishedDay(report.published));
      best = Math.min(best, at < from ? from - at : Math.max(0, at - to));
    }
    return best;
  };
  const ordered = groups
    .map((group) => ({ group, distance: distance(group) }))
    .sort((a, b) => (a.distance === b.distance ? 0 : a.distance < b.distance ? -1 : 1))
    .map(({ group }) => group);
  const nearest = ordered[0] ? nearestDay(ordered[0], from, to) : undefined;
  if (nearest === undefined) return { groups: ordered };
  if (!byMonth) return { groups: ordered, closest: nearest.slice(0, 4) };
  const month = new Date(`${nearest.slice(0, 7)}-01T00:00:00Z`).toLocaleString('en-GB', {
    month: 'long',
    timeZone: 'UTC',
  });
  return { groups: ordered, closest: `${month} ${nearest.slice(0, 4)}` };
}

/** The day of a group's report nearest the period, or undefined when none is dated. */
function nearestDay(group: ReportGroup, from: number, to: number): string | undefined {
  let best: { day: string; distance: number } | undefined;
  for (const report of group) {
    if (report.published === null) continue;
    const day = publishedDay(report.published);
    const at = Date.parse(day);
    const distance = at < from ? from - at : Math.max(0, at - to);
    if (!best || distance < best.distance) best = { day, distance };
  }
  return best?.day;
}

/**
 * Newest first: within each group its newest dated report leads (the others follow, as ranked), and
 * groups are ordered by that report's day, newest first. Undated reports and groups keep their ranked
 * order after the dated ones: their place in time is unknown.
 */
export function newestFirst(groups: readonly ReportGroup[]): ReportGroup[] {
  const day = (report: AnswerResult) => (report.published === null ? '' : publishedDay(report.published));
  const newest = (group: ReportGroup) => [...group].sort((a, b) => day(b).localeCompare(day(a)));
  return groups.map(newest).sort((a, b) => day(b[0]!).localeCompare(day(a[0]!)));
}

/** A group as one result: its lead, the other reports' citations, and the earliest and latest dated report. */
export function groupResult(group: ReportGroup): AnswerResult {
  const [lead, ...others] = group;
  const dated = group
    .filter((report) => report.published !== null)
    .sort((a, b) => publishedDay(a.published!).localeCompare(publishedDay(b.published!)));
  const earliest = dated[0];
  const latest = dated.at(-1);
  const differ =
    earliest !== undefined &&
    latest !== undefined &&
    publishedDay(earliest.published!) !== publishedDay(latest.published!);
  return {
    ...lead!,
    alsoReportedBy: others.map((report) => report.citation),
    ...(differ ? { reported: { earliest: refOf(earliest), latest: refOf(latest) } } : {}),
  };
}

function refOf(report: AnswerResult): ReportRef {
  return { citation: report.citation, publisher: report.publisher, published: report.published! };
}

/**
 * What an answer's time words did, in plain words for its first line: "Nothing from 2003; closest
 * coverage is from 1987:", "Coverage from 2003 first.", "Newest reports first."; '' when nothing.
 */
export function describeTime(time: AnswerTime | undefined): string {
  const named = time?.named;
  return [
    named && !named.found
      ? `Nothing from ${named.label}${named.closest ? `; closest coverage is from ${named.closest}:` : '.'}`
      : named
        ? `Coverage from ${named.label} first.`
        : '',
    time?.newestFirst ? 'Newest reports first.' : '',
  ]
    .filter(Boolean)
    .join(' ');
}
