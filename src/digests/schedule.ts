/** How often a digest is sent. */
export type DigestEvery = 'day' | 'week';

/** When a digest is sent: every day, or every week on one weekday, at a time of day in a time zone. */
export interface DigestSchedule {
  every: DigestEvery;
  /** 0 Sunday … 6 Saturday, for weekly digests; ignored for daily ones. */
  weekday: number;
  /** Minutes after local midnight (0-1439). */
  atMinutes: number;
  /** An IANA time zone (`Europe/Paris`, `UTC`). */
  timeZone: string;
}

export const WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const DAY_MS = 24 * 60 * 60 * 1000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The formatter of a zone's wall-clock parts; throws RangeError for a zone Intl does not know. */
function wallClock(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * The zone's canonical name when Intl knows it (`europe/paris` is `Europe/Paris`), else undefined: the
 * one check of a time zone, for the setting and the command alike.
 */
export function knownTimeZone(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 64) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: trimmed }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** `HH:MM` on a 24-hour clock as minutes after midnight; undefined for anything else (`25:00`, `6pm`). */
export function parseTimeOfDay(text: string): number | undefined {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) return undefined;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 23 || minutes > 59) return undefined;
  return hours * 60 + minutes;
}

/** Minutes after midnight as `HH:MM`. */
export function timeOfDay(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallTimeAt(timeZone: string, at: number): WallTime {
  const parts = wallClock(timeZone).formatToParts(new Date(at));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
    second: part('second'),
  };
}

/** How far the zone's clock is ahead of UTC at `at`, in milliseconds. */
function offsetAt(timeZone: string, at: number): number {
  const wall = wallTimeAt(timeZone, at);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - (at - (((at % 1000) + 1000) % 1000));
}

/**
 * The instant the zone's clocks show `minutes` after midnight on the given day. Twice corrected, so
 * the offset is the one in force then; a time a spring-forward skips comes out an hour later.
 */
function instantOf(timeZone: string, year: number, month: number, day: number, minutes: number): number {
  const naive = Date.UTC(year, month - 1, day, Math.floor(minutes / 60), minutes % 60);
  const first = naive - offsetAt(timeZone, naive);
  return naive - offsetAt(timeZone, first);
}

/** The scheduled instants of the days around `at`, in the zone, oldest first. */
function instantsAround(schedule: DigestSchedule, at: number, daysBack: number, daysAhead: number): number[] {
  const today = wallTimeAt(schedule.timeZone, at);
  const instants: number[] = [];
  for (let shift = -daysBack; shift <= daysAhead; shift++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + shift));
    if (schedule.every === 'week' && date.getUTCDay() !== schedule.weekday) continue;
    instants.push(
      instantOf(
        schedule.timeZone,
        date.getUTCFullYear(),
        date.getUTCMonth() + 1,
        date.getUTCDate(),
        schedule.atMinutes,
      ),
    );
  }
  return instants;
}

/** The latest scheduled instant at or before `now` (ms since the epoch). */
export function latestOccurrence(schedule: DigestSchedule, now: Date): number {
  const at = now.getTime();
  const before = instantsAround(schedule, at, 8, 1).filter((instant) => instant <= at);
  return before.at(-1) ?? at - 7 * DAY_MS;
}

/** The first scheduled instant after `now`. */
export function nextOccurrence(schedule: DigestSchedule, now: Date): number {
  const at = now.getTime();
  return instantsAround(schedule, at, 1, 8).find((instant) => instant > at) ?? at + 7 * DAY_MS;
}

/** An instant as the zone's clocks show it: `2026-06-01 18:00`. */
export function wallClockText(timeZone: string, at: number): string {
  const wall = wallTimeAt(timeZone, at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${wall.year}-${two(wall.month)}-${two(wall.day)} ${two(wall.hour)}:${two(wall.minute)}`;
}

/** "every day at 18:00 (Europe/Paris)", "every Monday at 08:30 (UTC)". */
export function describeSchedule(schedule: DigestSchedule): string {
  const when =
    schedule.every === 'day' ? 'every day' : `every ${capitalised(WEEKDAYS[schedule.weekday] ?? 'monday')}`;
  return `${when} at ${timeOfDay(schedule.atMinutes)} (${schedule.timeZone})`;
}

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
