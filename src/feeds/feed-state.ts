import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { isErrnoException, writeFileAtomic } from '../files/atomic-write.ts';
import { withFileLock } from '../files/file-lock.ts';

/** How many GUIDs and URLs a feed remembers: far more than any feed lists at once. */
const SEEN_KEPT = 5000;

/** An article a feed brought, waiting to be posted in the feed's channel. */
const QueuedPostSchema = z.object({
  /** The item's GUID: what a post is recognised by. */
  key: z.string(),
  articleId: z.string(),
  title: z.string(),
  outlet: z.string().optional(),
  published: z.string().optional(),
  lede: z.string().optional(),
  link: z.string(),
  /** When a post of it was last tried: a crash may have left it posted, so it is looked for first. */
  attemptedAt: z.string().optional(),
});
export type QueuedPost = z.infer<typeof QueuedPostSchema>;

/** A feed's health as moderators were told it: `owed` a message about `status` not yet delivered. */
const FeedHealthSchema = z.object({
  status: z.enum(['ok', 'failing', 'silent']),
  since: z.string(),
  /** A message about this status reached the moderators' channel. */
  alerted: z.boolean(),
  owed: z.boolean(),
  /** The status before this one, for a recovery's message. */
  was: z.enum(['ok', 'failing', 'silent']).optional(),
  /** When the message owed was first tried: a crash may have left it sent, so it is looked for first. */
  attemptedAt: z.string().optional(),
});
export type FeedHealth = z.infer<typeof FeedHealthSchema>;

/** One followed feed, as persisted. */
const FeedRecordSchema = z.object({
  url: z.string(),
  title: z.string().optional(),
  /** Who added it, for `/feeds list`. */
  addedBy: z.string(),
  addedAt: z.string(),
  etag: z.string().optional(),
  lastModified: z.string().optional(),
  lastPollAt: z.string().optional(),
  lastError: z.string().optional(),
  /** Failed polls in a row; the back-off doubles with each. */
  errors: z.number().int().min(0),
  nextPollAt: z.string(),
  itemsAdded: z.number().int().min(0),
  /** GUIDs, item links and canonical URLs already added or judged not to be articles. */
  seen: z.array(z.string()),
  /** Where its new articles are posted: a text channel (a thread per article if `thread`) or a forum. */
  post: z.object({ channelId: z.string(), thread: z.boolean(), forum: z.boolean() }).optional(),
  /** Articles added and not posted yet, oldest first (a poll posts at most FEED_POSTS_PER_POLL). */
  queue: z.array(QueuedPostSchema).optional(),
  /** Why the last post failed; cleared by the next that succeeds. */
  postError: z.string().optional(),
  postsMade: z.number().int().min(0).optional(),
  filter: z.object({ include: z.array(z.string()), exclude: z.array(z.string()) }).optional(),
  /** Items the filter skipped, and the latest few of their headlines. */
  itemsFiltered: z.number().int().min(0).optional(),
  filtered: z.array(z.string()).optional(),
  /** The last read that brought an item not seen before. */
  lastNewItemAt: z.string().optional(),
  health: FeedHealthSchema.optional(),
});

export type FeedRecord = z.infer<typeof FeedRecordSchema>;

/** Settings of every feed: the moderators' channel that hears when a feed breaks or goes silent. */
const FeedSettingsSchema = z.object({ alertsChannelId: z.string().optional() });
export type FeedSettings = z.infer<typeof FeedSettingsSchema>;

const StateFileSchema = z.object({
  version: z.literal(1),
  feeds: z.array(FeedRecordSchema),
  settings: FeedSettingsSchema.optional(),
});

interface StateFile {
  feeds: FeedRecord[];
  settings: FeedSettings;
}

/** The state file exists but cannot be read; the message names it. */
export class FeedStateError extends Error {
  override name = 'FeedStateError';
}

/**
 * The followed feeds, persisted as one JSON file beside the corpus folder (not inside it: the folder
 * watch would reload on every poll), rewritten atomically after every change so a crash leaves either
 * the old state or the new one.
 */
export class FeedState {
  readonly path: string;
  #feeds: FeedRecord[];
  #settings: FeedSettings;
  #writing: Promise<void> = Promise.resolve();
  /** Changes made by this process, so that a refresh overlapping one does not undo it. */
  #changes = 0;
  readonly #shared: boolean;

  private constructor(path: string, file: StateFile, shared: boolean) {
    this.path = path;
    this.#feeds = file.feeds;
    this.#settings = file.settings;
    this.#shared = shared;
  }

  /**
   * Reads the state file; a missing file is no feeds yet. Throws `FeedStateError` for an unreadable one.
   * `shared`: other replicas write the same file (REDIS_URL), so every change reads it again first.
   */
  static async open(path: string, options: { shared?: boolean } = {}): Promise<FeedState> {
    return new FeedState(path, await FeedState.#read(path), options.shared ?? false);
  }

  static async #read(path: string): Promise<StateFile> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (isErrnoException(error) && error.code === 'ENOENT') return { feeds: [], settings: {} };
      throw error;
    }
    let parsed: ReturnType<typeof StateFileSchema.safeParse>;
    try {
      parsed = StateFileSchema.safeParse(JSON.parse(text));
    } catch {
      throw new FeedStateError(
        `The feed state file ${path} is not valid JSON; move it aside to start afresh.`,
      );
    }
    if (!parsed.success) {
      throw new FeedStateError(
        `The feed state file ${path} is not in the expected shape; move it aside to start afresh.`,
      );
    }
    return { feeds: parsed.data.feeds, settings: parsed.data.settings ?? {} };
  }

  /** Reads the file again (another replica changed it); an unreadable file leaves what is known. */
  async refresh(): Promise<void> {
    for (;;) {
      const changes = this.#changes;
      await this.#writing.catch(() => undefined);
      if (changes !== this.#changes) continue;
      const file = await FeedState.#read(this.path).catch(() => undefined);
      if (file === undefined) return;
      // A change made here meanwhile is newer than what was read: read again once it is written,
      // rather than put the older file back (and write it over the change at the next save).
      if (changes !== this.#changes) continue;
      this.#feeds = file.feeds;
      this.#settings = file.settings;
      return;
    }
  }

  settings(): FeedSettings {
    return this.#settings;
  }

  /** Changes the settings of every feed, then persists. */
  putSettings(settings: FeedSettings): Promise<void> {
    return this.#change(() => {
      this.#settings = settings;
      return true;
    });
  }

  list(): readonly FeedRecord[] {
    return this.#feeds;
  }

  get(url: string): FeedRecord | undefined {
    return this.#feeds.find((feed) => feed.url === url);
  }

  /** Adds a feed or changes one, then persists. */
  put(record: FeedRecord): Promise<void> {
    return this.#change(() => {
      const kept = { ...record, seen: record.seen.slice(-SEEN_KEPT) };
      const at = this.#feeds.findIndex((feed) => feed.url === record.url);
      this.#feeds = at < 0 ? [...this.#feeds, kept] : this.#feeds.map((feed, i) => (i === at ? kept : feed));
      return true;
    });
  }

  /**
   * Changes one feed as it is now (read again first when shared), then persists: what the poller uses
   * to save what it owns (validators, seen items, the queue, health) without writing back the rest of
   * a record it read before a fetch or a post, so a moderator's change made meanwhile (`/feeds filter`,
   * `/feeds remove`, on this replica or another) is kept. `change` returning undefined, or the feed
   * being gone, writes nothing; resolves to the record written.
   */
  async update(
    url: string,
    change: (current: FeedRecord) => FeedRecord | undefined,
  ): Promise<FeedRecord | undefined> {
    let kept: FeedRecord | undefined;
    await this.#change(() => {
      const current = this.get(url);
      const changed = current === undefined ? undefined : change(current);
      if (changed === undefined) return false;
      kept = { ...changed, url, seen: changed.seen.slice(-SEEN_KEPT) };
      const written = kept;
      this.#feeds = this.#feeds.map((feed) => (feed.url === url ? written : feed));
      return true;
    });
    return kept;
  }

  /** Removes a feed; resolves whether there was one. */
  async remove(url: string): Promise<boolean> {
    let removed = false;
    await this.#change(() => {
      const before = this.#feeds.length;
      this.#feeds = this.#feeds.filter((feed) => feed.url !== url);
      removed = this.#feeds.length !== before;
      return removed;
    });
    return removed;
  }

  /**
   * Applies `change` to what is known (true: something changed) and persists it. Shared, under the
   * file's lock, to the file as it is now: read again, changed, written, before another replica may
   * read it, so no replica's change is written over by another's made at the same moment.
   */
  async #change(change: () => boolean): Promise<void> {
    if (!this.#shared) {
      if (change()) await this.#save();
      return;
    }
    await withFileLock(this.path, async () => {
      await this.refresh();
      if (change()) await this.#save();
    });
  }

  /** Writes are queued so that two changes never race to the same file. */
  #save(): Promise<void> {
    this.#changes++;
    const text = `${JSON.stringify({ version: 1, feeds: this.#feeds, settings: this.#settings }, null, 2)}\n`;
    this.#writing = this.#writing.catch(() => undefined).then(() => writeFileAtomic(this.path, text));
    return this.#writing;
  }
}
