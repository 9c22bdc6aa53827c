import { publishedDay } from '../corpus/published-date.ts';
import type { Steps } from '../event-loop.ts';
import type { Answer, AnswerResult, AnswerTime, Assurance, ReportRef, StoryChoice } from './answer.ts';
import type { Period } from './period.ts';
import { readTimeWords } from './time-words.ts';

/**
 * The date layer of an answer: applied after ranking, to groups of reports of one fact, so it never
 * changes what the fitted ranking scores nor lowers the bar for an answer. A question naming a year or
 * month has that period's groups first, or says that the corpus has nothing from then; one asking for
 * the latest news has the newest reports first.
 */

/** Reports of one fact from different articles, most relevant first. */
export type ReportGroup = AnswerResult[];

/** What one search found: its groups, how sure it is of them, and the stories to choose from, if any. */
export interface Found {
  /** Empty exactly when `assurance` is 'none'. */
  groups: ReportGroup[];
  assurance: Assurance;
  /** Its first result is likely about the question (`RankingModel.threshold`), whatever the answer model says. */
  covered?: boolean;
  stories?: StoryChoice[];
}

const NOTHING: Found = { groups: [], assurance: 'none' };

const STRENGTH: Record<Assurance, number> = { none: 0, closest: 1, answer: 2 };

/**
 * Groups put newest first are chosen among at least this many, so the first pages of an answer agree
 * on the order and "newest" is not just the best of the first few.
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
  search: (text: string, period: Period | undefined, shown: number) => Steps<Found>,
): Steps<Answer> {
  const shown = offset + limit;
  const words = timeWords ? readTimeWords(question) : undefined;
  const pool = words?.latest ? Math.max(shown, TIME_ORDER_POOL) : shown;
  // The question is searched as the ranking was fitted, time words and all, and what it finds is the
  // answer: a year or month it names never lowers the bar ("who won the World Cup in 2018?" with its year
  // dropped was answered from a 2006 passage, when as asked it is refused). Within a named period (or a
  // month's year), which the filter stands for, the question is searched without the period's words, as
  // `since`/`until` would search it. A recency word ("today") is never dropped.
  const topic = words && words.topic !== '' ? words.topic : question;
  const asked = yield* search(question, period, pool);
  const named = words?.named && period === undefined ? words.named : undefined;
  const inPeriod = named ? yield* search(topic, named.period, shown) : NOTHING;
  const inYear =
    named?.year && inPeriod.assurance !== 'answer' ? yield* search(topic, named.year, shown) : NOTHING;
  // Closest coverage never stands beside an answer: when any search answers, the others' closest
  // coverage counts as nothing found. A period's search is the question asked again within it, so
  // when the question as asked is answered, the period's results count where they are about it.
  const assurance = [asked, inPeriod, inYear].reduce<Assurance>(
    (best, found) => (STRENGTH[found.assurance] > STRENGTH[best] ? found.assurance : best),
    'none',
  );
  const kept = (found: Found) =>
    found.assurance === assurance ||
    (found !== asked && asked.assurance === 'answer' && found.covered === true)
      ? found.groups
      : [];
  const all = kept(asked);
  const time: AnswerTime = {};
  let groups = all;
  if (named) {
    const within = kept(inPeriod);
    // A month with no coverage: the coverage of its year comes first, the nearest month said.
    const around = within.length === 0 ? kept(inYear) : [];
    if (within.length > 0 || around.length > 0)
      groups = preferPeriod(within.length > 0 ? within : around, all);
    if (within.length > 0) {
      time.named = { label: named.label, found: true };
    } else if (groups.length > 0) {
      // Said, not reordered: putting the reports nearest in time first put less relevant ones above the
      // answer (a Reuters report of January 1987 above the one answering "Krupp's sales in 1986").
      const closest = closestTo(groups.slice(offset, shown), named.period, named.label.includes(' '));
      time.named = { label: named.label, found: false, ...(closest ? { closest } : {}) };
    }
  }
  if (words?.latest && groups.length > 0) {
    groups = newestFirst(groups);
    time.newestFirst = true;
  } else if (words?.recent) {
    // The present state of a fact ("who owns it now?"): each fact told by its newest report, the facts
    // in ranked order. Putting every newer report first put a shareholder-meeting notice above the offer
    // asked about ("How much is Arsenal Holdings now offering?").
    groups = groups.map(newestLead);
  }
  if (groups.length === 0) {
    // Refused, but a period was named: the reply can say that nothing from then answers it.
    const refused = named ? { named: { label: named.label, found: false } } : undefined;
    return {
      query: question,
      results: [],
      hasMore: false,
      ...(refused ? { time: refused } : {}),
      assurance: 'none',
    };
  }
  // The stories are those the question as asked fits, offered when its own search leads the reply.
  const stories = asked.assurance === assurance ? asked.stories : undefined;
  return {
    query: question,
    results: groups.slice(offset, shown).map(groupResult),
    hasMore: groups.length > shown,
    ...(time.named || time.newestFirst ? { time } : {}),
    assurance,
    ...(stories ? { stories } : {}),
  };
}

/** The groups answering from the named period first, then the others not already among them. */
export function preferPeriod(within: readonly ReportGroup[], all: readonly ReportGroup[]): ReportGroup[] {
  const shown = new Set(within.flatMap((group) => group.map((report) => report.citation)));
  return [...within, ...all.filter((group) => !group.some((report) => shown.has(report.citation)))];
}

/**
 * When the period named has no coverage: when the reports shown that are nearest it in time are from, as
 * a year (`1987`) or, for a month asked, a month (`July 2015`); undefined when none is dated.
 */
export function closestTo(
  groups: readonly ReportGroup[],
  period: Period,
  byMonth: boolean,
): string | undefined {
  const from = Date.parse(period.since ?? '0000-01-01');
  const to = Date.parse(period.until ?? '9999-12-31');
  let nearest: { day: string; distance: number } | undefined;
  for (const report of groups.flat()) {
    if (report.published === null) continue;
    const day = publishedDay(report.published);
    const at = Date.parse(day);
    const distance = at < from ? from - at : Math.max(0, at - to);
    if (!nearest || distance < nearest.distance) nearest = { day, distance };
  }
  if (nearest === undefined) return undefined;
  if (!byMonth) return nearest.day.slice(0, 4);
  const month = new Date(`${nearest.day.slice(0, 7)}-01T00:00:00Z`).toLocaleString('en-GB', {
    month: 'long',
    timeZone: 'UTC',
  });
  return `${month} ${nearest.day.slice(0, 4)}`;
}

/**
 * Newest first: within each group its newest dated report leads (the others follow, as ranked), and the
 * dated groups are put in order of that report's day, newest first, in the places dated groups hold.
 * Undated groups keep their ranked places and undated reports follow the dated ones of their group: their
 * place in time is unknown, and moving them below every dated report put 1987 wire stories above the
 * undated NewsQA articles that answered, over the 24k corpus.
 */
export function newestFirst(groups: readonly ReportGroup[]): ReportGroup[] {
  const led = groups.map(newestLead);
  const dated = led.filter((group) => dayOf(group[0]!) !== '');
  const inOrder = [...dated].sort((a, b) => dayOf(b[0]!).localeCompare(dayOf(a[0]!)));
  let next = 0;
  return led.map((group) => (dayOf(group[0]!) === '' ? group : inOrder[next++]!));
}

/** A group led by its newest dated report, the others following as ranked, undated ones last. */
export function newestLead(group: ReportGroup): ReportGroup {
  return [...group].sort((a, b) => dayOf(b).localeCompare(dayOf(a)));
}

function dayOf(report: AnswerResult): string {
  return report.published === null ? '' : publishedDay(report.published);
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
