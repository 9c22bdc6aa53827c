import type { Awaitable, RecordStore } from '../community/record-store.ts';
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

/** Writes a record nobody waits for (`RecordKeeper.write`): kept and retried until the store takes it. */
export type RecordWriter = (what: string, write: (store: RecordStore) => Awaitable<unknown>) => void;

export interface ReloadNotifierOptions {
  /** Where the watches and citations are (SQLite or PostgreSQL), and the claims that post each once. */
  community: RecordStore;
  poster: ChannelPoster;
  logger: Logger;
  now?: () => Date;
  /** How what follows a post is recorded. @default written at once, a failure logged */
  record?: RecordWriter;
}

/**
 * What the messages posted after a reload share (watched questions answered, corrections to cited
 * answers): the database, where to post, the log, the clock, and checks that never overlap.
 */
export abstract class ReloadNotifier {
  protected readonly community: RecordStore;
  protected readonly poster: ChannelPoster;
  protected readonly logger: Logger;
  protected readonly now: () => Date;
  protected readonly record: RecordWriter;
  readonly #checks = new SerialChecks((engine) => this.checkAll(engine));

  constructor(options: ReloadNotifierOptions) {
    this.community = options.community;
    this.poster = options.poster;
    this.logger = options.logger;
    this.now = options.now ?? (() => new Date());
    this.record =
      options.record ??
      ((what, write) => {
        const failed = (error: unknown) => this.logger.warn(`${what}: not recorded`, { error });
        try {
          Promise.resolve(write(this.community)).catch(failed);
        } catch (error) {
          failed(error);
        }
      });
  }

  /** Checks against `engine` (after the running check, if one is); resolves to how many messages were posted. */
  check(engine: EngineView): Promise<number> {
    return this.#checks.check(engine);
  }

  protected abstract checkAll(engine: EngineView): Promise<number>;
}
