import type { Community } from '../community/community.ts';
import type { Logger } from '../logging/logger.ts';
import type { ReplyPayload } from './incoming.ts';
import type { EngineView } from './library-view.ts';
import { SerialChecks } from './serial-checks.ts';

/**
 * Posts a message in a channel as the bot, outside any interaction: through discord.js's REST client
 * on the gateway, through the REST API with the bot token on the HTTP endpoint, printed at the console.
 * Resolves to the new message's id when the transport knows it.
 */
export interface ChannelPoster {
  /** With `replyTo`, the post is a reply to that message of the channel (and fails if it is gone). */
  post(channelId: string, message: ReplyPayload, options?: { replyTo?: string }): Promise<string | undefined>;
}

export interface ReloadNotifierOptions {
  community: Community;
  poster: ChannelPoster;
  logger: Logger;
  now?: () => Date;
}

/**
 * What the messages posted after a reload share (watched questions answered, corrections to cited
 * answers): the database, where to post, the log, the clock, and checks that never overlap.
 */
export abstract class ReloadNotifier {
  protected readonly community: Community;
  protected readonly poster: ChannelPoster;
  protected readonly logger: Logger;
  protected readonly now: () => Date;
  readonly #checks = new SerialChecks((engine) => this.checkAll(engine));

  constructor(options: ReloadNotifierOptions) {
    this.community = options.community;
    this.poster = options.poster;
    this.logger = options.logger;
    this.now = options.now ?? (() => new Date());
  }

  /** Checks against `engine` (after the running check, if one is); resolves to how many messages were posted. */
  check(engine: EngineView): Promise<number> {
    return this.#checks.check(engine);
  }

  protected abstract checkAll(engine: EngineView): Promise<number>;
}
