/**
 * Periods a chart's bars count over: days, weeks (Monday to Sunday), months or years, on calendar days
 * as sources state them (`YYYY-MM-DD`, no time zone arithmetic: the day a citation shows is its bar).
 */
export type TimeScale = 'day' | 'week' | 'month' | 'year';

const SCALES: readonly TimeScale[] = ['day', 'week', 'month', 'year'];

/** Bars a chart holds at most: 800 pixels across leave each at least about 15 on a phone's screen. */
export const MAX_BARS = 45;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The finest scale, no finer than `finest`, at which `first` to `last` takes at most `maxBars` bars: a
 * month by day, a season by week, a few years by month, decades by year.
 */
export function scaleFor(
  first: string,
  last: string,
  finest: TimeScale = 'day',
  maxBars: number = MAX_BARS,
): TimeScale {
  for (const scale of SCALES.slice(SCALES.indexOf(finest))) {
    if (scale === 'year' || bucketsBetween(first, last, scale, maxBars + 1).length <= maxBars) return scale;
  }
  return 'year';
}

/** The first day of the period of `scale` that holds `day`. */
export function bucketStart(day: string, scale: TimeScale): string {
  switch (scale) {
    case 'day':
      return day;
    case 'week': {
      const date = utc(day);
      // getUTCDay: 0 is Sunday; weeks start on Monday.
      const back = (date.getUTCDay() + 6) % 7;
      return iso(new Date(date.getTime() - back * DAY_MS));
    }
    case 'month':
      return `${day.slice(0, 7)}-01`;
    case 'year':
      return `${day.slice(0, 4)}-01-01`;
  }
}

/**
 * Every period's first day from the one holding `first` to the one holding `last`, empty ones
 * included (a quiet month is a bar of nothing, not a month left out); at most `limit`.
 */
export function bucketsBetween(first: string, last: string, scale: TimeScale, limit = Infinity): string[] {
  const end = bucketStart(last, scale);
  const starts: string[] = [];
  for (
    let start = bucketStart(first, scale);
    start <= end && starts.length < limit;
    start = next(start, scale)
  )
    starts.push(start);
  return starts;
}

/** A period as a bar's label: `10 Mar` (a day, or the week starting then), `Mar 2003`, `2003`. */
export function bucketLabel(start: string, scale: TimeScale): string {
  const [year, month, day] = start.split('-');
  const monthName = MONTHS[Number(month) - 1];
  switch (scale) {
    case 'day':
    case 'week':
      return `${Number(day)} ${monthName}`;
    case 'month':
      return `${monthName} ${year}`;
    case 'year':
      return year!;
  }
}

/** `2003-03-10` as `10 Mar 2003`. */
export function formatDay(day: string): string {
  const [year, month, date] = day.split('-');
  return `${Number(date)} ${MONTHS[Number(month) - 1]} ${year}`;
}

/** A span of days as a title says it at `scale`: `1987 – 2016`, `Mar 2003 – Aug 2005`, `26 Feb – 20 Apr 1987`. */
export function formatSpan(first: string, last: string, scale: TimeScale): string {
  if (scale === 'year')
    return first.slice(0, 4) === last.slice(0, 4)
      ? first.slice(0, 4)
      : `${first.slice(0, 4)} – ${last.slice(0, 4)}`;
  if (scale === 'month') {
    const a = bucketLabel(bucketStart(first, 'month'), 'month');
    const b = bucketLabel(bucketStart(last, 'month'), 'month');
    return a === b ? a : `${a} – ${b}`;
  }
  if (first === last) return formatDay(first);
  const sameYear = first.slice(0, 4) === last.slice(0, 4);
  return `${sameYear ? bucketLabel(first, 'day') : formatDay(first)} – ${formatDay(last)}`;
}

function next(start: string, scale: TimeScale): string {
  const date = utc(start);
  if (scale === 'day') return iso(new Date(date.getTime() + DAY_MS));
  if (scale === 'week') return iso(new Date(date.getTime() + 7 * DAY_MS));
  if (scale === 'month') return iso(new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)));
  return iso(new Date(Date.UTC(date.getUTCFullYear() + 1, 0, 1)));
}

function utc(day: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date));
}

function iso(date: Date): string {
  return date.toISOString().slice(0, 10);
}
