import type { APIEmbedField } from 'discord.js';
import type { ChannelView } from '../../community/channel-settings.ts';
import type { ReplyPayload } from '../incoming.ts';
import { escapeText } from './escape.ts';
import { fitText } from './truncate.ts';

/** `<#id>`, which Discord shows as a link to the channel (no one is notified). */
export function channelMention(id: string): string {
  return `<#${id}>`;
}

/** Channel links joined in words: "<#a>", "<#a> and <#b>", "<#a>, <#b> and <#c>". */
export function channelList(ids: readonly string[]): string {
  const shown = ids.map(channelMention);
  return shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/** Whether the bot answers in the channel, and if not, where it does. */
export function answersHere(channelId: string, answerChannels: readonly string[]): string {
  if (answerChannels.length === 0) return 'Yes: the bot answers in every channel of this server.';
  if (answerChannels.includes(channelId))
    return `Yes: the bot answers only in ${fitText(channelList(answerChannels), 900)}.`;
  return `No: the bot answers only in ${fitText(channelList(answerChannels), 900)}; questions here get a private pointer there.`;
}

/** A channel's settings as fields, for `/settings` and `/about`. */
export function settingsFields(channelId: string, view: ChannelView): APIEmbedField[] {
  const { settings } = view;
  return [
    { name: 'Answers here', value: answersHere(channelId, view.answerChannels), inline: false },
    {
      name: 'Thread mode',
      value: settings.threadMode ? 'On: an answer opens a thread for follow-ups.' : 'Off.',
      inline: true,
    },
    {
      name: 'Answers are',
      value:
        settings.visibility === 'private'
          ? 'Private by default (`/ask private:False` shows one to everyone).'
          : 'Public by default (`/ask private:True` shows one only to the asker).',
      inline: true,
    },
    {
      name: 'Outlets',
      value:
        settings.outlets.length === 0
          ? 'Every outlet in the archive.'
          : fitText(`Only ${settings.outlets.map(escapeText).join(', ')}.`, 1000),
      inline: false,
    },
  ];
}

/** What `/settings` replies: what changed (if anything), then the channel's settings as they are now. */
export function renderChannelSettings(channelId: string, view: ChannelView, said?: string): ReplyPayload {
  return {
    ...(said ? { content: said } : {}),
    embeds: [
      {
        title: 'Channel settings',
        description: `For ${channelMention(channelId)}. Moderators change them with \`/settings\`.`,
        color: 0x5865f2,
        fields: settingsFields(channelId, view),
      },
    ],
  };
}
