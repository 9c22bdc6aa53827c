import type { Writable } from 'node:stream';
import type { ChannelPoster } from '../../interactions/watch-notifier.ts';
import { COLOUR, PLAIN, renderText } from './render-text.ts';

/** At the console, a post "in the channel" (a watched question answered) is printed, marked as such. */
export function consolePoster(output: Writable): ChannelPoster {
  const palette = (output as { isTTY?: boolean }).isTTY ? COLOUR : PLAIN;
  return {
    async post(channelId, message) {
      output.write(`${palette.dim(`(posted in channel ${channelId})`)}\n${renderText(message, palette)}\n`);
      return undefined;
    },
  };
}
