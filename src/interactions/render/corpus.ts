import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
  ButtonStyle,
  ComponentType,
} from 'discord.js';
import type { Article } from '../../corpus/article.ts';
import type { ApplyProgress, EditOutcome } from '../../corpus-editing/corpus-editor.ts';
import type { ReplyPayload } from '../incoming.ts';
import { code, metaLine } from './citation.ts';
import { escapeText } from './escape.ts';
import { describeReloadOutcome, describeReloadProgress } from './reload.ts';
import { fitText } from './truncate.ts';

const PREVIEW_COLOUR = 0x5865f2;
const DANGER_COLOUR = 0xed4245;
/** Passages shown in an add preview: enough to check the chunking, short enough to read. */
const PREVIEW_PASSAGES = 3;

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
      title,
      description,
      color,
      fields,
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
