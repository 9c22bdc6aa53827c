import type { ReloadOutcome, ReloadProgress } from '../../lifecycle/reloader.ts';
import type { ReplyPayload } from '../incoming.ts';
import { code } from './citation.ts';
import { escapeText } from './escape.ts';
import { Limits } from './limits.ts';
import { fitText } from './truncate.ts';

/** Problems listed before "and N more", so a reply stays readable and within Discord's limits. */
const PROBLEMS_SHOWN = 15;
/** Ids listed per kind of change. */
const IDS_SHOWN = 10;

/**
 * A reload's outcome for people, in Discord Markdown: what changed, or why nothing did. The one wording
 * of it, shown by `/reload` and, after its first line, by `/corpus` (logs use `summarizeOutcome`).
 */
export function describeReloadOutcome(outcome: ReloadOutcome): string {
  switch (outcome.status) {
    case 'reloaded': {
      const r = outcome.report;
      const notRead = r.skipped.length > 0 ? notReadNote(r.skipped) : '';
      if (r.unchanged) {
        return `The corpus on disk is unchanged: still ${r.articlesAfter} articles, ${r.passagesAfter} passages, version ${code(r.versionAfter)}.${notRead && `\n${notRead}`}`;
      }
      return [
        `Reloaded in ${(r.durationMs / 1000).toFixed(1)} s: version ${code(r.versionBefore)} → ${code(r.versionAfter)}.`,
        `Articles ${r.articlesBefore} → ${r.articlesAfter}; passages ${r.passagesBefore} → ${r.passagesAfter}.`,
        idLine('Added', r.added),
        idLine('Removed', r.removed),
        idLine('Changed', r.changed),
        notRead,
      ]
        .filter((line) => line !== '')
        .join('\n');
    }
    case 'refused': {
      const count = outcome.problems.length;
      const shown = outcome.problems
        .slice(0, PROBLEMS_SHOWN)
        .map(
          (problem) => `• ${escapeText(fitText(`${problem.file}:${problem.line}: ${problem.message}`, 200))}`,
        );
      return [
        `**Reload refused**: the corpus has ${count === 1 ? 'a problem' : `${count} problems`}. Still serving version ${code(outcome.version)}; nothing changed.`,
        ...shown,
        ...(count > shown.length ? [`…and ${count - shown.length} more (see the log).`] : []),
      ].join('\n');
    }
    case 'failed':
      return `**Reload failed**: ${escapeText(fitText(outcome.message, 1000))}. Still serving version ${code(outcome.version)}; nothing changed.`;
    case 'busy':
      return `A reload started by ${escapeText(outcome.runningFor.name)} is already running; nothing was started. Try again when it finishes.`;
  }
}

/** Where a running reload is, for people: the interim text of `/reload` and of a confirmed `/corpus` change. */
export function describeReloadProgress(progress: ReloadProgress): string {
  switch (progress.phase) {
    case 'reading':
      return 'Reloading the corpus: reading and validating it…';
    case 'indexing':
      return `Reloading the corpus: indexing ${progress.done} of ${progress.total} articles…`;
    case 'comparing':
      return 'Reloading the corpus: comparing it with the one being served…';
  }
}

/** The interim reply of `/reload`. */
export function renderReloadProgress(progress: ReloadProgress): ReplyPayload {
  return { content: describeReloadProgress(progress) };
}

/** The reply to `/reload`: a corpus that changed gets a titled embed, anything else a line of text. */
export function renderReloadOutcome(outcome: ReloadOutcome): ReplyPayload {
  const text = fitText(describeReloadOutcome(outcome), Limits.content);
  if (outcome.status !== 'reloaded' || outcome.report.unchanged) return { content: text };
  return { embeds: [{ title: 'Corpus reloaded', color: 0x57f287, description: text }] };
}

function idLine(label: string, ids: readonly string[]): string {
  if (ids.length === 0) return '';
  const shown = ids.slice(0, IDS_SHOWN).map(code).join(', ');
  return `${label} (${ids.length}): ${shown}${ids.length > IDS_SHOWN ? ', …' : ''}`;
}

/** Names of skipped files shown before "and N more". */
const SKIPPED_SHOWN = 5;

/** Files the loader skipped, with what it reads instead: a file dropped in the wrong place is not silent. */
function notReadNote(skipped: readonly string[]): string {
  const shown = skipped.slice(0, SKIPPED_SHOWN).map(code).join(', ');
  const more = skipped.length > SKIPPED_SHOWN ? ` and ${skipped.length - SKIPPED_SHOWN} more` : '';
  const count = `${skipped.length} ${skipped.length === 1 ? 'file' : 'files'}`;
  return `${count} not read: ${shown}${more}. Only .md, .markdown, .txt and .jsonl files directly in the corpus folder are read (not subfolders).`;
}
