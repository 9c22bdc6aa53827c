import type { APIEmbed } from 'discord.js';
import type { ReloadOutcome, ReloadProgress } from '../../lifecycle/reloader.ts';
import type { ReplyPayload } from '../incoming.ts';
import { code } from './citation.ts';
import { escapeText } from './escape.ts';
import { Limits } from './limits.ts';
import { fitText } from './truncate.ts';

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

/** The interim reply while a reload runs. */
export function renderReloadProgress(progress: ReloadProgress): ReplyPayload {
  const detail = progress.phase === 'indexing' ? ` ${progress.done}/${progress.total} articles` : '';
  return { content: `Reloading the corpus: ${progress.phase}${detail}…` };
}

/** The reply to `/reload`: what changed, or why nothing did. */
export function renderReloadOutcome(outcome: ReloadOutcome): ReplyPayload {
  switch (outcome.status) {
    case 'reloaded': {
      const r = outcome.report;
      if (r.unchanged) {
        return {
          content: `The corpus on disk is unchanged: still ${r.articlesAfter} articles, version ${code(r.versionAfter.slice(0, 16))}.`,
        };
      }
      const list = (ids: string[]) =>
        ids.length === 0
          ? 'none'
          : fitText(ids.map(code).join(', '), Limits.fieldValue - 20, { note: ` … (${ids.length} in all)` });
      const embed: APIEmbed = {
        title: 'Corpus reloaded',
        color: 0x57f287,
        fields: [
          { name: `Added (${r.added.length})`, value: list(r.added) },
          { name: `Removed (${r.removed.length})`, value: list(r.removed) },
          { name: `Changed (${r.changed.length})`, value: list(r.changed) },
          { name: 'Articles', value: `${r.articlesBefore} → ${r.articlesAfter}`, inline: true },
          { name: 'Passages', value: `${r.passagesBefore} → ${r.passagesAfter}`, inline: true },
          { name: 'Time', value: `${(r.durationMs / 1000).toFixed(1)} s`, inline: true },
          {
            name: 'Version',
            value: `${code(r.versionBefore.slice(0, 16))} → ${code(r.versionAfter.slice(0, 16))}`,
          },
        ],
      };
      return { embeds: [embed] };
    }
    case 'refused': {
      const problems = outcome.problems.map(
        (problem) => `• ${escapeText(`${problem.file}:${problem.line}: ${problem.message}`)}`,
      );
      return {
        content: `**Reload refused**: the corpus has ${outcome.problems.length === 1 ? 'a problem' : `${outcome.problems.length} problems`}. Still serving version ${code(outcome.version.slice(0, 16))}; nothing changed.`,
        embeds: [
          {
            title: 'Fix these, then /reload again',
            color: 0xed4245,
            description: fitText(problems.join('\n'), Limits.embedDescription, {
              note: '\n…and more (see the log)',
            }),
          },
        ],
      };
    }
    case 'failed':
      return {
        content: `**Reload failed**: ${escapeText(fitText(outcome.message, 1500))}. Still serving version ${code(outcome.version.slice(0, 16))}; nothing changed.`,
      };
    case 'busy':
      return {
        content: `A reload started by ${escapeText(outcome.runningFor.name)} is already running; nothing was started. Try again when it finishes.`,
      };
  }
}
