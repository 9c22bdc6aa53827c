import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
  ButtonStyle,
  ComponentType,
} from 'discord.js';
import type { Article } from '../corpus/article.ts';
import { formatProblem } from '../corpus/problems.ts';
import type { ReplyPayload } from '../interactions/incoming.ts';
import { code, metaLine } from '../interactions/render/citation.ts';
import { escapeText } from '../interactions/render/escape.ts';
import { notReadNote } from '../interactions/render/status.ts';
import { fitText } from '../interactions/render/truncate.ts';
import type { ApplyProgress, EditOutcome } from './corpus-editor.ts';
import type { ReloadOutcome, ReloadProgress } from './reloader.ts';

const PREVIEW_COLOUR = 0x5865f2;
const DANGER_COLOUR = 0xed4245;
/** Passages shown in an add preview: enough to check the chunking, short enough to read. */
const PREVIEW_PASSAGES = 3;
/** Problems listed before "and N more", so a reply stays readable and within Discord's limits. */
const PROBLEMS_SHOWN = 15;
/** Ids listed per kind of change in a reload reply. */
const IDS_SHOWN = 10;

/** Custom ids of the confirmation buttons: `corpus:confirm:<token>` and `corpus:cancel:<token>`. */
export const CORPUS_BUTTONS = { confirm: 'corpus:confirm', cancel: 'corpus:cancel' } as const;

/** The preview of an upload: metadata and first passages, with Add/Replace and Cancel buttons. */
export function renderAddPreview(
  kind: 'add' | 'replace',
  article: Article,
  fileName: string,
  token: string,
): ReplyPayload {
  const paragraphs = new Set(article.passages.map((passage) => passage.paragraph)).size;
  const passages = article.passages.slice(0, PREVIEW_PASSAGES).map((passage) => ({
    name: `¶${passage.paragraph}`,
    value: fitText(passage.text, 1000, { render: escapeText }),
  }));
  const embed: APIEmbed = {
    color: kind === 'replace' ? DANGER_COLOUR : PREVIEW_COLOUR,
    title: fitText(article.title, 256, { render: escapeText }),
    description: [
      `${escapeText(metaLine(article))}${article.url ? ` · ${escapeText(article.url)}` : ''}`,
      `id ${code(article.id)} · file ${code(fileName)} · ${paragraphs} paragraph${paragraphs === 1 ? '' : 's'}, ${article.passages.length} passages`,
    ].join('\n'),
    fields: passages,
  };
  const question =
    kind === 'replace'
      ? `**Replace** the existing article ${code(article.id)} with this file? Its current text will be overwritten.`
      : `Add this article to the corpus?`;
  return {
    content: `${question} Only you can confirm; the preview expires in 10 minutes.`,
    embeds: [embed],
    components: [
      confirmRow(kind === 'replace' ? 'Replace article' : 'Add article', token, kind === 'replace'),
    ],
  };
}

/** The question before a removal, with Remove and Cancel buttons. */
export function renderRemovePreview(article: Article, fileName: string, token: string): ReplyPayload {
  return {
    content: `**Remove** ${code(article.id)} (file ${code(fileName)}) from the corpus? Its citations will stop working.`,
    embeds: [
      {
        color: DANGER_COLOUR,
        title: fitText(article.title, 256, { render: escapeText }),
        description: `${escapeText(metaLine(article))} · ${article.passages.length} passages`,
      },
    ],
    components: [confirmRow('Remove article', token, true)],
  };
}

/** What confirming did, replacing the preview (buttons removed). */
export function renderEditOutcome(outcome: EditOutcome): ReplyPayload {
  switch (outcome.status) {
    case 'expired':
      return {
        content:
          'This confirmation has expired, was already used, or belongs to someone else. Run `/corpus` again.',
        embeds: [],
        components: [],
      };
    case 'applied': {
      const verb = { add: 'Added', replace: 'Replaced', remove: 'Removed' }[outcome.kind];
      return {
        content: `${verb} ${code(outcome.id)}.\n${describeReloadOutcome(outcome.reload)}`,
        embeds: [],
        components: [],
      };
    }
    case 'rolled-back':
      return {
        content: `The change to ${code(outcome.id)} was undone because the corpus could not be reloaded:\n${describeReloadOutcome(outcome.reload)}`,
        embeds: [],
        components: [],
      };
  }
}

/**
 * The preview while a confirmed change is applied: its buttons gone (the change is under way), its
 * article embed kept so the moderator still sees what is being applied, and where the work is.
 */
export function renderApplying(progress: ApplyProgress, preview: readonly APIEmbed[]): ReplyPayload {
  const verb = { add: 'Adding', replace: 'Replacing', remove: 'Removing' }[progress.kind];
  const step = progress.reload
    ? describeReloadProgress(progress.reload)
    : progress.kind === 'remove'
      ? 'Removing the file…'
      : 'Writing the file…';
  return {
    content: `${verb} ${code(progress.id)} (file ${code(progress.fileName)}); this message will show the outcome.\n${step}`,
    // Only the parts this bot rendered: Discord's copy of an embed carries fields of its own.
    embeds: preview.map(({ title, description, color, fields }) => ({
      ...(title === undefined ? {} : { title }),
      ...(description === undefined ? {} : { description }),
      ...(color === undefined ? {} : { color }),
      ...(fields === undefined ? {} : { fields }),
    })),
    components: [],
  };
}

/** A confirmed change the store refused to write (the file vanished, another appeared); nothing changed. */
export function renderWriteRefused(reason: string): ReplyPayload {
  return { content: `Nothing was changed: ${escapeText(reason)}`, embeds: [], components: [] };
}

/** The cancelled preview. */
export function renderCancelled(): ReplyPayload {
  return { content: 'Cancelled; nothing was changed.', embeds: [], components: [] };
}

/** A reload's outcome for people: what changed, or every problem that stopped it. Markdown. */
export function describeReloadOutcome(outcome: ReloadOutcome): string {
  switch (outcome.status) {
    case 'reloaded': {
      const r = outcome.report;
      if (r.unchanged) {
        const notRead = r.skipped.length > 0 ? `\n${notReadNote(r.skipped)}` : '';
        return `The corpus on disk is unchanged: still version ${code(r.versionAfter)}, ${r.articlesAfter} articles, ${r.passagesAfter} passages.${notRead}`;
      }
      return [
        `Reloaded in ${(r.durationMs / 1000).toFixed(1)} s: version ${code(r.versionBefore)} → ${code(r.versionAfter)}.`,
        `Articles ${r.articlesBefore} → ${r.articlesAfter}; passages ${r.passagesBefore} → ${r.passagesAfter}.`,
        idLine('Added', r.added),
        idLine('Removed', r.removed),
        idLine('Changed', r.changed),
        r.skipped.length > 0 ? notReadNote(r.skipped) : '',
      ]
        .filter((line) => line !== '')
        .join('\n');
    }
    case 'refused': {
      const shown = outcome.problems
        .slice(0, PROBLEMS_SHOWN)
        .map((problem) => `• ${escapeText(formatProblem(problem))}`);
      const more = outcome.problems.length - shown.length;
      return [
        `The corpus was refused (${outcome.problems.length} problem${outcome.problems.length === 1 ? '' : 's'}); still serving version ${code(outcome.version)}.`,
        ...shown,
        ...(more > 0 ? [`…and ${more} more (see the log).`] : []),
      ].join('\n');
    }
    case 'failed':
      return `The reload failed (${escapeText(outcome.message)}); still serving version ${code(outcome.version)}.`;
    case 'busy':
      return `A reload is already running (started <t:${Math.floor(outcome.runningSince.getTime() / 1000)}:R>, ${escapeText(`${outcome.trigger}`)}); try again when it has finished.`;
  }
}

/** Interim text while a reload runs. */
export function describeReloadProgress(progress: ReloadProgress): string {
  switch (progress.phase) {
    case 'reading':
      return 'Reading and validating the corpus…';
    case 'indexing':
      return `Indexing: ${progress.done} of ${progress.total} articles…`;
    case 'comparing':
      return 'Comparing with the corpus being served…';
  }
}

function idLine(label: string, ids: readonly string[]): string {
  if (ids.length === 0) return '';
  const shown = ids.slice(0, IDS_SHOWN).map(code).join(', ');
  return `${label} (${ids.length}): ${shown}${ids.length > IDS_SHOWN ? ', …' : ''}`;
}

function confirmRow(
  label: string,
  token: string,
  danger: boolean,
): APIActionRowComponent<APIButtonComponent> {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: danger ? ButtonStyle.Danger : ButtonStyle.Success,
        label,
        custom_id: `${CORPUS_BUTTONS.confirm}:${token}`,
      },
      {
        type: ComponentType.Button,
        style: ButtonStyle.Secondary,
        label: 'Cancel',
        custom_id: `${CORPUS_BUTTONS.cancel}:${token}`,
      },
    ],
  };
}
