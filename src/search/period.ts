import { isRealDay, publishedDay } from '../corpus/published-date.ts';

/**
 * A span of publication, both ends included and either open: the one `{since, until}` shape of the
 * product. Parsed (`parsePeriod`), its ends are days, `YYYY-MM-DD`; as a member writes it (`/ask
 * since:2003 until:2015-08`, kept to show back), a year, month or day. Articles are compared by the day
 * their source states (`2015-08-01T23:30-05:00` is 1 August), so a citation's date and the filter agree.
 */
export interface Period {
  since?: string;
  until?: string;
}

/** A `since` or `until` a person wrote that is not a year, month or date. The message is for them. */
export class PeriodError extends Error {
  override name = 'PeriodError';
}

const BOUND = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

/**
 * The first (`since`) or last (`until`) day of a year (`2003`), a month (`2015-08`) or a date
 * (`2015-08-01`). Throws `PeriodError` naming the option for anything else.
 */
export function periodBound(option: 'since' | 'until', text: string): string {
  const match = BOUND.exec(text.trim());
  const [, year = '', month, day] = match ?? [];
  const first = `${year}-${month ?? '01'}-${day ?? '01'}`;
  if (!match || !isRealDay(first)) {
    throw new PeriodError(
      `${option} must be a year (2003), a month (2015-08) or a date (2015-08-01); got '${text.trim().slice(0, 40)}'`,
    );
  }
  if (option === 'since' || day !== undefined) return first;
  if (month === undefined) return `${year}-12-31`;
  const last = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  return `${year}-${month}-${String(last).padStart(2, '0')}`;
}

/**
 * The period between the bounds written (either may be absent, or null as an unset Discord option);
 * undefined when neither is given.
 */
export function parsePeriod(input: { [End in keyof Period]?: Period[End] | null }): Period | undefined {
  const since = input.since?.trim() ? periodBound('since', input.since) : undefined;
  const until = input.until?.trim() ? periodBound('until', input.until) : undefined;
  if (since !== undefined && until !== undefined && since > until) {
    throw new PeriodError(`since (${input.since?.trim()}) is after until (${input.until?.trim()})`);
  }
  if (since === undefined && until === undefined) return undefined;
  return { ...(since ? { since } : {}), ...(until ? { until } : {}) };
}

/** Whether an article published then falls in the period; an undated article never does. */
export function inPeriod(published: string | null, period: Period): boolean {
  if (published === null) return false;
  const day = publishedDay(published);
  return (
    (period.since === undefined || day >= period.since) && (period.until === undefined || day <= period.until)
  );
}
