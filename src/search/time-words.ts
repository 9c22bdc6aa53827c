import { tokenize } from './analyze.ts';
import { type Period, periodBound } from './period.ts';

/** A year or month the question names ("in 2003", "in August 2015"). */
export interface NamedPeriod {
  /** As a reader writes it back: `2003`, `August 2015`. */
  label: string;
  period: Period;
  /** For a month, its year: where coverage nearest the month is looked for when the month has none. */
  year?: Period;
}

/** What a question says about time. */
export interface TimeWords {
  /** The year or month named, if any (the first one). */
  named?: NamedPeriod;
  /** Whether it asks for the latest, current or recent state. */
  recent: boolean;
  /**
   * Whether it asks for the newest coverage itself ("the latest on the strike", "most recent figures"),
   * not the present state of a fact ("who owns it now", "is the port still closed").
   */
  latest: boolean;
  /** The question without its time words: what a timeline of the question's topic searches. */
  topic: string;
}

const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
/** Years a news archive plausibly covers; "in 1200" or "in 4000" are rather quantities. */
const YEAR = '(1[89]\\d\\d|20\\d\\d)';

/**
 * "in August 2015", "during 2003", "in August of 2015", "August 2015": a preposition makes a bare year a
 * period; a month and a year together are one anywhere. "The 2003 strike" names an event, not when the
 * article appeared, so a year standing alone is left as a search word.
 */
const NAMED = new RegExp(
  `\\b(?:(?:in|during|throughout)\\s+(?:(?:early|late|mid)[-\\s]+)?(?:${MONTH}\\.?\\s+(?:of\\s+)?)?${YEAR}|${MONTH}\\.?\\s+(?:of\\s+)?${YEAR})\\b`,
  'i',
);

/**
 * Words asking for the present state of a story. "Current account" (economics) and "recent years"
 * (a span, not a wish for news) are not such asks.
 */
const RECENT =
  /\b(?:latest|newest|most\s+recent(?:ly)?|recent(?:ly)?(?!\s+(?:years|decades|history))|current(?:ly)?(?!\s+accounts?)|nowadays|right\s+now|now|these\s+days|today|still|up\s+to\s+date)\b/gi;

/** The words of `RECENT` that ask for the newest coverage itself. */
const LATEST = /\b(?:latest|newest|most\s+recent(?:ly)?|up\s+to\s+date)\b/i;

/** Reads a question's time words; the question itself is searched unchanged. */
export function readTimeWords(question: string): TimeWords {
  const match = NAMED.exec(question);
  let named: NamedPeriod | undefined;
  let topic = question;
  if (match) {
    const [, monthA, yearA, monthB, yearB] = match;
    const month = monthA ?? monthB;
    const year = (yearA ?? yearB)!;
    named = month === undefined ? yearPeriod(year) : monthPeriod(month, year);
    topic = question.slice(0, match.index) + question.slice(match.index + match[0].length);
  }
  const recent = new RegExp(RECENT.source, 'i').test(question);
  topic = topic.replace(RECENT, ' ').replace(/\s+/g, ' ').trim();
  return { ...(named ? { named } : {}), recent, latest: LATEST.test(question), topic };
}

function yearPeriod(year: string): NamedPeriod {
  return { label: year, period: { since: `${year}-01-01`, until: `${year}-12-31` } };
}

function monthPeriod(month: string, year: string): NamedPeriod {
  const index = MONTH_NAMES.findIndex((name) => name.startsWith(month.toLowerCase().slice(0, 3)));
  const name = MONTH_NAMES[index]!;
  const written = `${year}-${String(index + 1).padStart(2, '0')}`;
  return {
    label: `${name.charAt(0).toUpperCase()}${name.slice(1)} ${year}`,
    period: { since: periodBound('since', written), until: periodBound('until', written) },
    year: yearPeriod(year).period,
  };
}

/**
 * The topic of a question as a timeline's title and search: its searched words as written, without
 * question or time words ("What's the latest on the Gravelines dock strike?" is "Gravelines dock strike").
 */
export function topicOf(question: string): string {
  const { topic } = readTimeWords(question);
  const words: string[] = [];
  let last = -1;
  for (const token of tokenize(topic)) {
    if (token.start === last) continue;
    last = token.start;
    words.push(topic.slice(token.start, token.end));
  }
  return words.length > 0 ? words.join(' ') : question.trim();
}
