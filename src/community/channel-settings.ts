import type Database from 'better-sqlite3';

/** How the bot behaves in one channel of a server, as its moderators set it with `/settings`. */
export interface ChannelSettings {
  /** An answer opens a thread, and questions inside it carry the thread's context. */
  threadMode: boolean;
  /** Whether answers are shown to everyone in the channel or only to the asker, by default. */
  visibility: 'public' | 'private';
  /** The publishers (as the corpus names them) answers come from; empty: every outlet. */
  outlets: string[];
}

/** A channel nothing was set for. */
export const DEFAULT_CHANNEL_SETTINGS: Readonly<ChannelSettings> = Object.freeze({
  threadMode: false,
  visibility: 'public',
  outlets: [],
});

/** What one `/settings` change sets; what it leaves out stays as it was. */
export type ChannelSettingsChange = Partial<ChannelSettings>;

/** A `channel_settings` row as both stores return it. */
export interface ChannelSettingsRow {
  thread_mode: number | boolean;
  visibility: string;
  outlets: string;
}

/** A guild and one of its channels. */
export interface ChannelPlace {
  guildId: string;
  channelId: string;
}

/**
 * Per-channel settings and each guild's answer channels, in the SQLite file. A guild with no answer
 * channel listed is answered everywhere; once one is listed, only in the listed ones. Each change is
 * one statement (an upsert or a delete), so shards and replicas changing the same channel never lose
 * one another's other fields.
 */
export class ChannelSettingsStore {
  readonly #db: Database.Database;

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** The channel's settings, or the defaults when nothing was set there. */
  of(place: ChannelPlace): ChannelSettings {
    const row = this.#db
      .prepare<[string, string], ChannelSettingsRow>(
        'SELECT thread_mode, visibility, outlets FROM channel_settings WHERE guild_id = ? AND channel_id = ?',
      )
      .get(place.guildId, place.channelId);
    return settingsFromRow(row);
  }

  /** Changes what `change` names, keeps the rest; returns the channel's settings after. */
  change(place: ChannelPlace, change: ChannelSettingsChange, at: Date): ChannelSettings {
    const values = changeValues(change);
    const row = this.#db
      .prepare<
        [
          {
            guild: string;
            channel: string;
            thread: number | null;
            visibility: string | null;
            outlets: string | null;
            at: number;
          },
        ],
        ChannelSettingsRow
      >(
        `INSERT INTO channel_settings (guild_id, channel_id, thread_mode, visibility, outlets, updated_at)
         VALUES (@guild, @channel, COALESCE(@thread, 0), COALESCE(@visibility, 'public'), COALESCE(@outlets, '[]'), @at)
         ON CONFLICT (guild_id, channel_id) DO UPDATE SET
           thread_mode = COALESCE(@thread, thread_mode),
           visibility = COALESCE(@visibility, visibility),
           outlets = COALESCE(@outlets, outlets),
           updated_at = @at
         RETURNING thread_mode, visibility, outlets`,
      )
      .get({
        guild: place.guildId,
        channel: place.channelId,
        thread: values.threadMode === null ? null : Number(values.threadMode),
        visibility: values.visibility,
        outlets: values.outlets,
        at: at.getTime(),
      });
    return settingsFromRow(row);
  }

  /** Forgets the channel's settings (back to the defaults); false if none were set. */
  reset(place: ChannelPlace): boolean {
    return (
      this.#db
        .prepare('DELETE FROM channel_settings WHERE guild_id = ? AND channel_id = ?')
        .run(place.guildId, place.channelId).changes === 1
    );
  }

  /** The channels of the guild the bot answers in, oldest listed first; empty: every channel. */
  answerChannels(guildId: string): string[] {
    return this.#db
      .prepare<[string], { channel_id: string }>(
        'SELECT channel_id FROM answer_channels WHERE guild_id = ? ORDER BY added_at, channel_id',
      )
      .all(guildId)
      .map((row) => row.channel_id);
  }

  /** Lists a channel to answer in; false if it already was. */
  addAnswerChannel(place: ChannelPlace, at: Date): boolean {
    return (
      this.#db
        .prepare(
          'INSERT INTO answer_channels (guild_id, channel_id, added_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
        )
        .run(place.guildId, place.channelId, at.getTime()).changes === 1
    );
  }

  /** Takes a channel off the list; false if it was not on it. */
  removeAnswerChannel(place: ChannelPlace): boolean {
    return (
      this.#db
        .prepare('DELETE FROM answer_channels WHERE guild_id = ? AND channel_id = ?')
        .run(place.guildId, place.channelId).changes === 1
    );
  }

  /** Empties the guild's list, so the bot answers everywhere again; returns how many were listed. */
  answerEverywhere(guildId: string): number {
    return this.#db.prepare('DELETE FROM answer_channels WHERE guild_id = ?').run(guildId).changes;
  }
}

/** The change as statement parameters: null for what it leaves as it was. */
export function changeValues(change: ChannelSettingsChange): {
  threadMode: boolean | null;
  visibility: string | null;
  outlets: string | null;
} {
  return {
    threadMode: change.threadMode ?? null,
    visibility: change.visibility ?? null,
    outlets: change.outlets === undefined ? null : JSON.stringify(uniqueOutlets(change.outlets)),
  };
}

/** Outlets in the order given, each once (names compared without regard to case). */
export function uniqueOutlets(outlets: readonly string[]): string[] {
  const seen = new Set<string>();
  return outlets.filter((outlet) => {
    const key = outlet.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function settingsFromRow(row: ChannelSettingsRow | undefined): ChannelSettings {
  if (!row) return { ...DEFAULT_CHANNEL_SETTINGS, outlets: [] };
  const outlets: unknown = JSON.parse(row.outlets);
  return {
    threadMode: row.thread_mode === true || row.thread_mode === 1,
    visibility: row.visibility === 'private' ? 'private' : 'public',
    outlets: Array.isArray(outlets) ? outlets.filter((o): o is string => typeof o === 'string') : [],
  };
}

/** What the bot knows of a channel when it answers there: its settings and where the guild is answered. */
export interface ChannelView {
  settings: ChannelSettings;
  /** The guild's answer channels; empty: every channel. */
  answerChannels: string[];
}

type Awaitable<T> = T | Promise<T>;

/**
 * What `channelView` needs of the `RecordKeeper`, declared here rather than imported: the keeper's
 * store imports this file.
 */
export interface SettingsReader {
  askOr<T>(
    fallback: T,
    run: (store: {
      settings: {
        of(place: ChannelPlace): Awaitable<ChannelSettings>;
        answerChannels(guildId: string): Awaitable<string[]>;
      };
    }) => Awaitable<T>,
    timeoutMs?: number,
  ): Promise<T>;
}

/**
 * The longest a question waits for its channel's settings: two indexed reads, well under a
 * millisecond in SQLite and a few on a PostgreSQL server nearby; past it, the settings last read here.
 */
export const SETTINGS_READ_TIMEOUT_MS = 500;

// What was last read per keeper: while the database does not answer, a channel keeps the settings it
// last had here and a guild its answer channels (a restricted guild stays restricted), not none.
interface LastRead {
  settings: Map<string, ChannelSettings>;
  answerChannels: Map<string, string[]>;
}
const lastRead = new WeakMap<SettingsReader, LastRead>();
const LAST_READ_KEPT = 10_000;

/**
 * The settings of the channel an interaction came from, for any command that answers there. A direct
 * message, a bot that stores nothing, or a database that does not answer in time (with nothing read
 * before) gives the defaults: answering never waits on the records beyond the keeper's short timeout.
 */
export async function channelView(
  keeper: SettingsReader | undefined,
  place: { guildId: string | null; channelId: string | null },
): Promise<ChannelView> {
  const { guildId, channelId } = place;
  const defaults = (): ChannelSettings => ({ ...DEFAULT_CHANNEL_SETTINGS, outlets: [] });
  if (!keeper || guildId === null || channelId === null) return { settings: defaults(), answerChannels: [] };
  let seen = lastRead.get(keeper);
  if (!seen) {
    seen = { settings: new Map(), answerChannels: new Map() };
    lastRead.set(keeper, seen);
  }
  const key = `${guildId}:${channelId}`;
  const read = await keeper.askOr<ChannelView | undefined>(
    undefined,
    async (store) => ({
      settings: await store.settings.of({ guildId, channelId }),
      answerChannels: await store.settings.answerChannels(guildId),
    }),
    SETTINGS_READ_TIMEOUT_MS,
  );
  if (!read) {
    return {
      settings: seen.settings.get(key) ?? defaults(),
      answerChannels: seen.answerChannels.get(guildId) ?? [],
    };
  }
  if (seen.settings.size >= LAST_READ_KEPT) seen.settings.clear();
  if (seen.answerChannels.size >= LAST_READ_KEPT) seen.answerChannels.clear();
  seen.settings.set(key, read.settings);
  seen.answerChannels.set(guildId, read.answerChannels);
  return read;
}
