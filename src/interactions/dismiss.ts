import {
  type APIActionRowComponent,
  type APIComponentInMessageActionRow,
  ButtonStyle,
  ComponentType,
} from 'discord.js';
import type { ButtonHandler } from './command.ts';
import { staleButton, UserError } from './errors.ts';
import type { ReplyPayload, SourceMessage } from './incoming.ts';
import { isModerator } from './permissions.ts';
import { Limits } from './render/limits.ts';

type Row = APIActionRowComponent<APIComponentInMessageActionRow>;

/**
 * `ask:dismiss:<asker's user id>`: the asker's id travels in the button itself, so the press is
 * judged the same after a restart and on any replica, with nothing stored.
 */
export const DISMISS_PREFIX = 'ask:dismiss';

const dismissId = (askerId: string) => `${DISMISS_PREFIX}:${askerId}`;

/**
 * Adds "Dismiss" to a public reply: beside the last row's buttons when it has room, else in a row of
 * its own when the message has room for one.
 */
export function withDismiss(payload: ReplyPayload, askerId: string): ReplyPayload {
  const button = {
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    label: 'Dismiss',
    custom_id: dismissId(askerId),
  } as const;
  const rows = (payload.components ?? []) as Row[];
  const last = rows.at(-1);
  const onlyButtons = last?.components.every((component) => component.type === ComponentType.Button);
  if (last && onlyButtons && last.components.length < Limits.buttonsPerRow) {
    return {
      ...payload,
      components: [...rows.slice(0, -1), { ...last, components: [...last.components, button] }],
    };
  }
  if (rows.length >= Limits.actionRows) return payload;
  return { ...payload, components: [...rows, { type: ComponentType.ActionRow, components: [button] }] };
}

/** Who asked for the answer a message holds, from its Dismiss button; undefined if it has none. */
export function askerOf(message: SourceMessage): string | undefined {
  const id = message.customIds?.find((customId) => customId.startsWith(`${DISMISS_PREFIX}:`));
  return id?.slice(DISMISS_PREFIX.length + 1) || undefined;
}

/** "Dismiss": the asker or a moderator deletes the answer; anyone else is told, privately, who may. */
export const dismissButton: ButtonHandler = {
  execute(ctx, [askerId = ''], press) {
    if (!/^\d{1,20}$/.test(askerId)) throw staleButton('a moderator can delete the message');
    if (press.userId !== askerId && !isModerator(press, ctx.config.MODERATOR_ROLE_IDS))
      throw new UserError('not-yours', 'Only the asker or a moderator can remove this.');
    return { delete: true };
  },
};
