import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { isErrnoException, writeFileAtomic } from '../files/atomic-write.ts';

/** How many GUIDs and URLs a feed remembers: far more than any feed lists at once. */
const SEEN_KEPT = 5000;

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
});

export type FeedRecord = z.infer<typeof FeedRecordSchema>;

const StateFileSchema = z.object({ version: z.literal(1), feeds: z.array(FeedRecordSchema) });

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
  #writing: Promise<void> = Promise.resolve();
  readonly #shared: boolean;

  private constructor(path: string, feeds: FeedRecord[], shared: boolean) {
    this.path = path;
    this.#feeds = feeds;
    this.#shared = shared;
  }

  /**
   * Reads the state file; a missing file is no feeds yet. Throws `FeedStateError` for an unreadable one.
   * `shared`: other replicas write the same file (REDIS_URL), so every change reads it again first.
   */
  static async open(path: string, options: { shared?: boolean } = {}): Promise<FeedState> {
    return new FeedState(path, await FeedState.#read(path), options.shared ?? false);
  }

  static async #read(path: string): Promise<FeedRecord[]> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (isErrnoException(error) && error.code === 'ENOENT') return [];
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
    return parsed.data.feeds;
  }

  /** Reads the file again (another replica changed it); an unreadable file leaves what is known. */
  async refresh(): Promise<void> {
    await this.#writing.catch(() => undefined);
    this.#feeds = await FeedState.#read(this.path).catch(() => this.#feeds);
  }

  list(): readonly FeedRecord[] {
    return this.#feeds;
  }

  get(url: string): FeedRecord | undefined {
    return this.#feeds.find((feed) => feed.url === url);
  }

  /** Adds a feed or changes one, then persists. */
  async put(record: FeedRecord): Promise<void> {
    if (this.#shared) await this.refresh();
    const kept = { ...record, seen: record.seen.slice(-SEEN_KEPT) };
    const at = this.#feeds.findIndex((feed) => feed.url === record.url);
    this.#feeds = at < 0 ? [...this.#feeds, kept] : this.#feeds.map((feed, i) => (i === at ? kept : feed));
    await this.#save();
  }

  /** Removes a feed; resolves whether there was one. */
  async remove(url: string): Promise<boolean> {
    if (this.#shared) await this.refresh();
    const before = this.#feeds.length;
    this.#feeds = this.#feeds.filter((feed) => feed.url !== url);
    if (this.#feeds.length === before) return false;
    await this.#save();
    return true;
  }

  /** Writes are queued so that two changes never race to the same file. */
  #save(): Promise<void> {
    const text = `${JSON.stringify({ version: 1, feeds: this.#feeds }, null, 2)}\n`;
    this.#writing = this.#writing.catch(() => undefined).then(() => writeFileAtomic(this.path, text));
    return this.#writing;
  }
}
