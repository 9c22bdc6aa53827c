/**
 * Publication dates as sources write them, made ISO 8601. An article keeps the date its source states,
 * in the source's own time zone: the calendar day a reader sees in the citation is the day filters use.
 */

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/**
 * Reuters-21578's `26-FEB-1987 15:01:01.79`. Some records carry teletype routing letters after the
 * time (`00:02:59.13RM`, `02:17:09.88T C`) and doubled spaces; those are not part of the date.
 */
const NEWSWIRE = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})\s+(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d+))?[A-Za-z\s]*$/;

/** ISO 8601 as articles state it: a date, or a date-time with an optional offset. */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The ISO 8601 form of a stated publication date (`2015-08-01`, `1987-02-26T15:01:01.79`), or null
 * when `value` is not a date in a form we read or names a day that does not exist.
 */
export function toIsoDate(value: string): string | null {
  const text = value.trim();
  const wire = NEWSWIRE.exec(text);
  if (wire) {
    const [, day = '', mon = '', year = '', hour = '', minute = '', second = '', fraction] = wire;
    const month = MONTHS.indexOf(mon.toUpperCase()) + 1;
    const date = `${year}-${pad(month)}-${pad(Number(day))}`;
    if (month === 0 || !isRealDay(date) || !isRealTime(Number(hour), Number(minute), Number(second)))
      return null;
    return `${date}T${pad(Number(hour))}:${minute}:${second}${fraction ? `.${fraction}` : ''}`;
  }
  const iso = ISO.exec(text);
  if (!iso) return null;
  const [, , , , hour, minute, second] = iso;
  if (!isRealDay(text.slice(0, 10))) return null;
  if (hour !== undefined && !isRealTime(Number(hour), Number(minute), Number(second ?? 0))) return null;
  return text.replace(' ', 'T');
}

/** The calendar day (`YYYY-MM-DD`) of an ISO publication date, as the source stated it. */
export function publishedDay(published: string): string {
  return published.slice(0, 10);
}

/** The day an article was published as its source states it (`2015-08-01`), or "undated": never guessed. */
export function dateLabel(published: string | null): string {
  return published === null ? 'undated' : publishedDay(published);
}

/** A `YYYY-MM-DD` that names a day of the calendar (no 30 February). */
export function isRealDay(date: string): boolean {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const utc = new Date(Date.UTC(year, month - 1, day));
  return utc.getUTCFullYear() === year && utc.getUTCMonth() === month - 1 && utc.getUTCDate() === day;
}

function isRealTime(hour: number, minute: number, second: number): boolean {
  return hour <= 23 && minute <= 59 && second <= 60;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
