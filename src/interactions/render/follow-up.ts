import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIComponentInMessageActionRow,
  type APIMessageTopLevelComponent,
  ButtonStyle,
  ComponentType,
  TextInputStyle,
} from 'discord.js';
import type { Article } from '../../corpus/article.ts';
import { PUBLISHER_UNKNOWN } from '../../corpus/citation.ts';
import type { ModalPayload, ReplyPayload } from '../incoming.ts';
import { escapeText } from './escape.ts';
import { Limits } from './limits.ts';
import { fitText } from './truncate.ts';

/**
 * custom_ids of follow-ups. The earlier question is in the answer's footer (`Asked: …`), the story in
 * the custom_id, so a follow-up works after a restart and on any replica:
 * - `ask:followup:<citation>`: "Follow up" under an answer; `<citation>` is its first result;
 * - `followup:<citation>`: the modal it opens (Discord sends the answer's message with the submission);
 * - `ask:nostory:<n>`: "Ask without that story" under a follow-up's answer: the follow-up is the first
 *   `n` characters of the footer's question (the rest, when there is a rest, are the story's names).
 */
export const followUpIds = {
  button: (citation: string) => `ask:followup:${citation}`,
  modal: (citation: string) => `followup:${citation}`,
  withoutStory: (length: number) => `ask:nostory:${length}`,
};

/** The modal's one text field. */
export const FOLLOW_UP_FIELD = 'question';
/** Longest follow-up accepted, as `/ask question:`. */
export const MAX_FOLLOW_UP_LENGTH = 300;

type Row = APIActionRowComponent<APIComponentInMessageActionRow>;

/** The custom_ids of a payload's buttons, in order (as `SourceMessage.customIds` holds a message's). */
export function customIdsIn(components: readonly APIMessageTopLevelComponent[] | undefined): string[] {
  return (components ?? []).flatMap((row) =>
    row.type === ComponentType.ActionRow
      ? row.components.flatMap((component) =>
          component.type === ComponentType.Button && 'custom_id' in component ? [component.custom_id] : [],
        )
      : [],
  );
}

/** The first result's citation of an answer, from its first "Show context" button; null if it has none. */
export function firstCitationOf(customIds: readonly string[] | undefined): string | null {
  const context = customIds?.find((id) => id.startsWith('ask:ctx:'));
  return context ? context.slice('ask:ctx:'.length) : null;
}

/** The story a message's "Follow up" button names (its citation), or null. */
export function followUpCitationOf(customIds: readonly string[] | undefined): string | null {
  const prefix = followUpIds.button('');
  const button = customIds?.find((id) => id.startsWith(prefix));
  return button ? button.slice(prefix.length) : null;
}

/** "Follow up" under an answer whose first result is `citation` (none when it would not fit a custom_id). */
export function withFollowUpButton(payload: ReplyPayload, citation: string): ReplyPayload {
  if (
    followUpIds.modal(citation).length > Limits.customId ||
    followUpIds.button(citation).length > Limits.customId
  )
    return payload;
  return withButton(payload, {
    type: ComponentType.Button,
    style: ButtonStyle.Primary,
    label: 'Follow up',
    custom_id: followUpIds.button(citation),
  });
}

/** The modal "Follow up" opens: one text field for the question. */
export function followUpModal(citation: string, story: Article | undefined): ModalPayload {
  const about = story ? fitText(story.title, 90) : 'the story of this answer';
  return {
    custom_id: followUpIds.modal(citation),
    title: 'Follow up',
    components: [
      {
        type: ComponentType.Label,
        label: 'Your follow-up question',
        description: fitText(`About: ${about}`, 100),
        component: {
          type: ComponentType.TextInput,
          custom_id: FOLLOW_UP_FIELD,
          style: TextInputStyle.Short,
          min_length: 1,
          max_length: MAX_FOLLOW_UP_LENGTH,
          required: true,
          placeholder: 'How many were hurt? What did he say?',
        },
      },
    ],
  };
}

/**
 * A follow-up's answer: first the story it assumed, then the answer; "Ask without that story" below.
 * `fellBack`: the story held nothing for it, so the answer is from the rest of the archive.
 */
export function renderFollowUp(
  answer: ReplyPayload,
  story: Article,
  followUp: { length: number; fellBack: boolean },
): ReplyPayload {
  const outlet = story.publisher ?? PUBLISHER_UNKNOWN;
  const assumed = `Assuming you mean: *${fitText(story.title, 200, { render: escapeText })}* (${escapeText(outlet)})`;
  const note = followUp.fellBack ? '\nThat story does not say; from the rest of the archive:' : '';
  const content = fitText(`${assumed}${note}\n${answer.content ?? ''}`, Limits.content);
  return withButton(
    { ...answer, content },
    {
      type: ComponentType.Button,
      style: ButtonStyle.Secondary,
      label: 'Ask without that story',
      custom_id: followUpIds.withoutStory(followUp.length),
    },
  );
}

/** A button added to the first row with room, else in a row of its own if the message has room for one. */
function withButton(payload: ReplyPayload, button: APIButtonComponent): ReplyPayload {
  const rows = (payload.components ?? []) as Row[];
  const roomy = rows.findIndex(
    (row) =>
      row.components.length < Limits.buttonsPerRow &&
      row.components.every((component) => component.type === ComponentType.Button),
  );
  if (roomy !== -1) {
    const components = rows.map((row, index) =>
      index === roomy ? { ...row, components: [...row.components, button] } : row,
    );
    return { ...payload, components };
  }
  if (rows.length >= Limits.actionRows) return payload;
  return { ...payload, components: [...rows, { type: ComponentType.ActionRow, components: [button] }] };
}
