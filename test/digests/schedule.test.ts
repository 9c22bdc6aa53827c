import { describe, expect, it } from 'vitest';
import {
  type DigestSchedule,
  describeSchedule,
  knownTimeZone,
  latestOccurrence,
  nextOccurrence,
  parseTimeOfDay,
  wallClockText,
} from '../../src/digests/schedule.ts';

const daily = (timeZone: string, at = '18:00'): DigestSchedule => ({
  every: 'day',
  weekday: 1,
  atMinutes: parseTimeOfDay(at) as number,
  timeZone,
});
const iso = (ms: number) => new Date(ms).toISOString();

describe('digest schedules', () => {
  it('times of day are HH:MM on a 24-hour clock; anything else is not one', () => {
    expect(parseTimeOfDay('18:30')).toBe(18 * 60 + 30);
    expect(parseTimeOfDay(' 7:05 ')).toBe(7 * 60 + 5);
    expect(parseTimeOfDay('00:00')).toBe(0);
    for (const bad of ['25:00', '24:00', '12:60', '6pm', '1830', '', '12:5'])
      expect(parseTimeOfDay(bad)).toBeUndefined();
  });

  it('time zones are checked with Intl and named canonically', () => {
    expect(knownTimeZone('europe/paris')).toBe('Europe/Paris');
    expect(knownTimeZone('UTC')).toBe('UTC');
    expect(knownTimeZone('Mars/Olympus')).toBeUndefined();
    expect(knownTimeZone('')).toBeUndefined();
  });

  it('a daily time is the zone’s wall-clock time, across the change to and from summer time', () => {
    const paris = daily('Europe/Paris');
    // Summer (UTC+2), then winter (UTC+1): 18:00 in Paris is 16:00, then 17:00 UTC.
    expect(iso(latestOccurrence(paris, new Date('2026-06-01T16:30:00Z')))).toBe('2026-06-01T16:00:00.000Z');
    expect(iso(latestOccurrence(paris, new Date('2026-06-01T15:59:00Z')))).toBe('2026-05-31T16:00:00.000Z');
    expect(iso(nextOccurrence(paris, new Date('2026-10-24T17:00:00Z')))).toBe('2026-10-25T17:00:00.000Z');
    expect(iso(nextOccurrence(daily('America/New_York', '08:00'), new Date('2026-03-07T14:00:00Z')))).toBe(
      '2026-03-08T12:00:00.000Z',
    );
    expect(wallClockText('Europe/Paris', Date.parse('2026-06-01T16:00:00Z'))).toBe('2026-06-01 18:00');
    // 02:30 does not exist in Paris on 29 March 2026 (clocks go from 02:00 to 03:00): an hour later, once.
    const skipped = nextOccurrence(daily('Europe/Paris', '02:30'), new Date('2026-03-28T23:00:00Z'));
    expect(iso(skipped)).toBe('2026-03-29T01:30:00.000Z');
    expect(wallClockText('Europe/Paris', skipped)).toBe('2026-03-29 03:30');
    // 02:30 happens twice on 25 October 2026: the digest comes once.
    const twice = daily('Europe/Paris', '02:30');
    const first = nextOccurrence(twice, new Date('2026-10-24T23:00:00Z'));
    expect(nextOccurrence(twice, new Date(first)) - first).toBeGreaterThan(20 * 60 * 60_000);
  });

  it('a weekly digest comes on its weekday only', () => {
    const mondays: DigestSchedule = { every: 'week', weekday: 1, atMinutes: 8 * 60, timeZone: 'UTC' };
    // 3 June 2026 is a Wednesday.
    expect(iso(latestOccurrence(mondays, new Date('2026-06-03T12:00:00Z')))).toBe('2026-06-01T08:00:00.000Z');
    expect(iso(nextOccurrence(mondays, new Date('2026-06-03T12:00:00Z')))).toBe('2026-06-08T08:00:00.000Z');
    expect(iso(latestOccurrence(mondays, new Date('2026-06-01T08:00:00Z')))).toBe('2026-06-01T08:00:00.000Z');
    expect(describeSchedule(mondays)).toBe('every Monday at 08:00 (UTC)');
    expect(describeSchedule(daily('Asia/Tokyo', '07:30'))).toBe('every day at 07:30 (Asia/Tokyo)');
  });
});
