import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  ButtonStyle,
  ComponentType,
} from 'discord.js';
import type { Watch } from '../../community/watch-list.ts';
import type { ReplyPayload } from '../incoming.ts';
import { escapeText } from './escape.ts';
import { Limits } from './limits.ts';
import { type QueryState, queryFooter } from './query-state.ts';
import { fitText } from './truncate.ts';

/**
 * custom_ids of the community buttons:
 * - `ask:vote:<1|0>:<question hash>:<first citation>`: Helpful / Not helpful on an answer (the
 *   citation is left empty when it would not fit in 100 characters);
 * - `ask:watch`: "Notify me" on "No coverage found" (the question is in the message's footer);
 * - `watches:cancel:<id>`: cancels one of the presser's watches.
 */
export const communityIds = {
  vote: (helpful: boolean, hash: string, citation: string) => {
    const id = `ask:vote:${helpful ? 1 : 0}:${hash}:${citation}`;
    return id.length <= Limits.customId ? id : `ask:vote:${helpful ? 1 : 0}:${hash}:`;
  },
  watch: 'ask:watch',
  cancelWatch: (id: number) => `watches:cancel:${id}`,
};

type Row = APIActionRowComponent<APIComponentInMessageActionRow>;

/** Appends a row of buttons, if the message has room for one more. */
export function withRow(payload: ReplyPayload, row: Row): ReplyPayload {
  const rows = (payload.components ?? []) as Row[];
  if (rows.length >= Limits.actionRows) return payload;
  return { ...payload, components: [...rows, row] };
}

/** Helpful / Not helpful under an answer. */
export function feedbackRow(hash: string, firstCitation: string): Row {
  return {
    type: ComponentType.ActionRow,
    components: [
      button('Helpful', communityIds.vote(true, hash, firstCitation), ButtonStyle.Success),
      button('Not helpful', communityIds.vote(false, hash, firstCitation), ButtonStyle.Secondary),
    ],
  };
}

/** "Notify me" under "No coverage found", with the question kept in a footer for the button to read. */
export function withNotifyMe(payload: ReplyPayload, state: QueryState): ReplyPayload {
  const embeds = payload.embeds ?? [];
  const invitation: APIEmbed = {
    description:
      'Press **Notify me** and I will post the answer in this channel once the archive covers it, mentioning only you (for 30 days; `/watches` lists them).',
    footer: { text: queryFooter(state, 'No coverage yet') },
  };
  return withRow(
    { ...payload, embeds: [...embeds.slice(0, Limits.embeds - 1), invitation] },
    {
      type: ComponentType.ActionRow,
      components: [button('Notify me', communityIds.watch, ButtonStyle.Primary)],
    },
  );
}

/**
 * A watched question's answer, posted in the channel it was asked in: the answer as `/ask` shows it,
 * addressed to the member who watched it. `allowed_mentions` names that member alone, so the post
 * pings them and nobody else, whatever the quoted text holds.
 */
export function renderWatchAnswered(watch: Watch, answer: ReplyPayload): ReplyPayload {
  const asked = Math.floor(watch.createdAt.getTime() / 1000);
  const question = fitText(watch.question, 300, { render: escapeText });
  return {
    ...answer,
    content: `<@${watch.userId}> the archive now covers the question you asked here <t:${asked}:R>: “${question}”`,
    allowed_mentions: { parse: [], users: [watch.userId] },
  };
}

/** `/watches`: the member's watched questions, each with a Cancel button. */
export function renderWatches(watches: readonly Watch[], perMember: number): ReplyPayload {
  if (watches.length === 0) {
    return {
      content:
        'You are not watching any questions. When `/ask` finds no coverage, press **Notify me** to hear when it does.',
    };
  }
  const lines = watches.map((watch, index) => {
    const expires = Math.floor(watch.expiresAt.getTime() / 1000);
    return `${index + 1}. “${fitText(watch.question, 200, { render: escapeText })}” in <#${watch.channelId}>, until <t:${expires}:D>`;
  });
  const buttons = watches
    .slice(0, Limits.actionRows * Limits.buttonsPerRow)
    .map((watch, index) =>
      button(`Cancel ${index + 1}`, communityIds.cancelWatch(watch.id), ButtonStyle.Secondary),
    );
  const rows: Row[] = [];
  for (let at = 0; at < buttons.length; at += Limits.buttonsPerRow) {
    rows.push({ type: ComponentType.ActionRow, components: buttons.slice(at, at + Limits.buttonsPerRow) });
  }
  return {
    embeds: [
      {
        title: `Your watched questions (${watches.length} of ${perMember})`,
        description: lines.join('\n'),
        footer: {
          text: 'Each is asked again after every corpus update; the answer is posted once, then the watch ends.',
        },
      },
    ],
    components: rows,
  };
}

function button(label: string, customId: string, style: ButtonStyle): APIButtonComponent {
  return { type: ComponentType.Button, style, label, custom_id: customId } as APIButtonComponent;
}
