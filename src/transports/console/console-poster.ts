import type { Writable } from 'node:stream';
import type { ChannelPoster } from '../../interactions/reload-notifier.ts';
import { COLOUR, PLAIN, renderText } from './render-text.ts';

/** At the console, a post "in the channel" (a watched question answered) is printed, marked as such. */
export function consolePoster(output: Writable): ChannelPoster {
  const palette = (output as { isTTY?: boolean }).isTTY ? COLOUR : PLAIN;
  return {
    async post(channelId, message, options = {}) {
      const where = options.replyTo
        ? `(posted in channel ${channelId}, replying to message ${options.replyTo})`
        : `(posted in channel ${channelId})`;
      output.write(`${palette.dim(where)}\n${renderText(message, palette)}\n`);
      return undefined;
    },
  };
}
