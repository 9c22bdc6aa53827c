import type { ReplyPayload } from '../incoming.ts';
import { code } from './citation.ts';
import { escapeText } from './escape.ts';

/** What `/about` shows. */
export interface AboutFacts {
  articles: number;
  passages: number;
  version: string;
  loadedAt: Date;
  startedAt: Date;
  now: Date;
  /** Under the ShardingManager: what every shard serves (a shard mid-reload may differ briefly). */
  shards?: { shard: number; version: string; articles: number }[];
  /** The last 7 days' activity, or why it is not known. */
  activity?: { answered: number; unanswered: number; votes: number } | 'not recorded';
  /** What is degraded (a dependency down, this replica out of step), one plain line each. */
  warnings?: string[];
}

/** `/about`: corpus size, version, last reload and uptime. */
export function renderAbout(facts: AboutFacts): ReplyPayload {
  const loaded = Math.floor(facts.loadedAt.getTime() / 1000);
  return {
    embeds: [
      {
        title: 'Newsdesk',
        description:
          'Answers questions about the news archive with passages quoted word for word, each with its citation. No guessing: when nothing answers, it says so.',
        color: 0x5865f2,
        fields: [
          { name: 'Articles', value: String(facts.articles), inline: true },
          { name: 'Passages', value: String(facts.passages), inline: true },
          { name: 'Corpus version', value: code(facts.version.slice(0, 16)), inline: true },
          { name: 'Last reload', value: `<t:${loaded}:f> (<t:${loaded}:R>)`, inline: true },
          {
            name: 'Uptime',
            value: formatDuration(facts.now.getTime() - facts.startedAt.getTime()),
            inline: true,
          },
          ...(facts.activity === undefined ? [] : [activityField(facts.activity)]),
          ...(facts.warnings?.length
            ? [{ name: 'Degraded', value: facts.warnings.map(escapeText).join('\n'), inline: false }]
            : []),
        ],
      },
    ],
  };
}

function activityField(activity: NonNullable<AboutFacts['activity']>) {
  const value =
    activity === 'not recorded'
      ? 'Not recorded on this bot.'
      : `${count(activity.answered, 'question')} answered · ${activity.unanswered} without coverage · ${count(activity.votes, 'vote')}`;
  return { name: 'Last 7 days', value, inline: false };
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** `3d 4h 5m`, `2m 10s`, `45s`. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const units: [number, string][] = [
    [86_400, 'd'],
    [3600, 'h'],
    [60, 'm'],
    [1, 's'],
  ];
  const parts: string[] = [];
  let rest = seconds;
  for (const [size, unit] of units) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 || (unit === 's' && parts.length === 0)) parts.push(`${count}${unit}`);
  }
  return parts.slice(0, 3).join(' ');
}
