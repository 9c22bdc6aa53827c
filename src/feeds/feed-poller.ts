import type { Article } from '../corpus/article.ts';
import type { CorpusEditor } from '../corpus-editing/corpus-editor.ts';
import { type CorpusStore, CorpusStoreError, type PreparedArticle } from '../corpus-editing/corpus-store.ts';
import { decodePage } from '../extract/page-dom.ts';
import { fetchWebArticle, importRefusal } from '../import/web-article.ts';
import { type Actor, systemActor } from '../lifecycle/audit-log.ts';
import { summarizeOutcome } from '../lifecycle/reloader.ts';
import type { AddressPolicy } from '../web/address-policy.ts';
import { FetchRefusedError } from '../web/fetch-refused.ts';
import { safeFetch } from '../web/safe-fetch.ts';
import type { FeedRecord, FeedState } from './feed-state.ts';
import { FEED_TYPES, FeedFormatError, type ReadFeed, readFeed } from './read-feed.ts';

/** The longest a failing feed waits between two polls. */
const MAX_BACK_OFF_MS = 24 * 60 * 60 * 1000;
/** New items fetched per poll: a feed that suddenly lists 500 items is read over several polls. */
const MAX_ITEMS_PER_POLL = 20;

/** Options of {@link FeedPoller}. */
export interface FeedPollerOptions {
  state: FeedState;
  store: CorpusStore;
  editor: CorpusEditor;
  /** The articles serving now, for duplicates. */
  articles: () => readonly Article[];
  policy: AddressPolicy;
  /** FEED_POLL_MINUTES, in milliseconds. */
  intervalMs: number;
  /** @default Date.now */
  now?: () => number;
  /** Hears of each poll's outcome, for the log. */
  onPolled?: (report: PollReport) => void;
}

/** What one poll of one feed did. */
export interface PollReport {
  url: string;
  status: 'not-modified' | 'polled' | 'failed';
  added: string[];
  /** Items already in the corpus or seen before. */
  duplicates: number;
  /** Items whose page could not be read (not an article, refused, ...). */
  unreadable: number;
  error?: string;
}

/** A feed could not be followed: the message is for the moderator. */
export class FeedRefusedError extends Error {
  override name = 'FeedRefusedError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Polls every followed feed when it is due (FEED_POLL_MINUTES; a failing feed backs off, doubling up
 * to a day), with a conditional request, and adds the new items of each poll in one batch through the
 * corpus editor. Items are recognised again by GUID, link and canonical URL (and by the articles
 * already in the corpus), and what was seen is persisted, so a restart adds nothing twice. Feeds are
 * polled one after another and each in isolation: one that fails does not stop the others.
 */
export class FeedPoller {
  readonly #options: FeedPollerOptions;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #polling: Promise<PollReport[]> | undefined;

  constructor(options: FeedPollerOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  list(): readonly FeedRecord[] {
    return this.#options.state.list();
  }

  /** Fetches and reads the feed once (so a wrong link is refused now, not at the first poll), then follows it. */
  async add(url: string, actor: Actor): Promise<{ record: FeedRecord; items: number }> {
    if (this.#options.state.get(url)) {
      throw new FeedRefusedError('exists', 'That feed is already followed.');
    }
    const { feed } = await this.#fetch(url, {});
    const record: FeedRecord = {
      url,
      ...(feed?.title ? { title: feed.title } : {}),
      addedBy: actor.name,
      addedAt: new Date(this.#now()).toISOString(),
      errors: 0,
      nextPollAt: new Date(this.#now()).toISOString(),
      itemsAdded: 0,
      seen: [],
    };
    await this.#options.state.put(record);
    return { record, items: feed?.items.length ?? 0 };
  }

  remove(url: string): Promise<boolean> {
    return this.#options.state.remove(url);
  }

  /** Reads the state file again: another replica polls the feeds, or changed them. */
  refresh(): Promise<void> {
    return this.#options.state.refresh();
  }

  /** Polls every feed that is due, one after another. Never throws: each feed's failure is its own. */
  pollDue(): Promise<PollReport[]> {
    this.#polling ??= this.#pollDue().finally(() => {
      this.#polling = undefined;
    });
    return this.#polling;
  }

  /** Checks for due feeds every `everyMs` (at most a minute) until `stop`. */
  start(everyMs = Math.min(60_000, this.#options.intervalMs)): void {
    this.#timer ??= setInterval(() => void this.pollDue(), everyMs);
    this.#timer.unref();
    void this.pollDue();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async #pollDue(): Promise<PollReport[]> {
    // Another replica may have polled or changed the feeds since (it held the lease before this one).
    await this.#options.state.refresh();
    const reports: PollReport[] = [];
    for (const record of this.#options.state.list()) {
      if (Date.parse(record.nextPollAt) > this.#now()) continue;
      const report = await this.#poll(record);
      this.#options.onPolled?.(report);
      reports.push(report);
    }
    return reports;
  }

  async #poll(record: FeedRecord): Promise<PollReport> {
    const report: PollReport = { url: record.url, status: 'polled', added: [], duplicates: 0, unreadable: 0 };
    const polledAt = new Date(this.#now()).toISOString();
    try {
      const { feed, etag, lastModified } = await this.#fetch(record.url, record);
      if (feed === undefined) {
        await this.#options.state.put({
          ...record,
          lastPollAt: polledAt,
          errors: 0,
          lastError: undefined,
          nextPollAt: this.#next(0),
        });
        return { ...report, status: 'not-modified' };
      }
      const seen = new Set(record.seen);
      const { batch, newlySeen, unreadable } = await this.#collect(feed, seen, report);
      let itemsAdded = record.itemsAdded;
      if (batch.length > 0) {
        const outcome = await this.#options.editor.addBatch(
          this.#actor(record),
          batch.map((entry) => entry.prepared),
        );
        if (outcome.status !== 'applied') {
          throw new FeedRefusedError(
            'rolled-back',
            `The new items were not added: ${summarizeOutcome(outcome.reload)}`,
          );
        }
        report.added = outcome.ids;
        itemsAdded += outcome.ids.length;
        for (const entry of batch) newlySeen.push(...entry.keys);
      }
      await this.#options.state.put({
        ...record,
        ...(feed.title ? { title: feed.title } : {}),
        etag,
        lastModified,
        lastPollAt: polledAt,
        errors: 0,
        lastError:
          unreadable.length > 0
            ? `${unreadable.length} item${unreadable.length === 1 ? '' : 's'} could not be read (not added, not tried again): ${unreadable.join('; ')}`
            : undefined,
        nextPollAt: this.#next(0),
        itemsAdded,
        seen: [...record.seen, ...newlySeen],
      });
      return report;
    } catch (error) {
      // Even a bug is this feed's failure alone: the others are still polled.
      const message = describeFailure(error) ?? `unexpected error (${String(error)})`;
      const errors = record.errors + 1;
      await this.#options.state.put({
        ...record,
        lastPollAt: polledAt,
        errors,
        lastError: message,
        nextPollAt: this.#next(errors),
      });
      return { ...report, status: 'failed', added: [], error: message };
    }
  }

  /** The new items, fetched and validated, and the keys of those that are duplicates or unreadable. */
  async #collect(feed: ReadFeed, seen: Set<string>, report: PollReport) {
    const { store, policy } = this.#options;
    const known = [...this.#options.articles()];
    const batch: { prepared: PreparedArticle; keys: string[] }[] = [];
    const newlySeen: string[] = [];
    const unreadable: string[] = [];
    const fresh = feed.items.filter((item) => !seen.has(item.guid) && !seen.has(item.link));
    // Oldest first, as they were published, once the newest few are picked.
    for (const item of fresh.slice(0, MAX_ITEMS_PER_POLL).reverse()) {
      const keys = [item.guid, item.link];
      let fetched = false;
      try {
        const article = await fetchWebArticle(item.link, { ...policy, known });
        fetched = true;
        if (article.canonicalUrl) keys.push(article.canonicalUrl);
        const duplicate =
          article.alreadyKnown ||
          (article.canonicalUrl !== undefined && seen.has(article.canonicalUrl)) ||
          known.some((other) => other.id === article.id);
        if (duplicate) {
          report.duplicates++;
          newlySeen.push(...keys);
          continue;
        }
        const prepared = await store.prepare(article.fileName, new TextEncoder().encode(article.markdown), {
          articles: known,
          version: '',
        });
        known.push(prepared.article);
        batch.push({ prepared, keys });
      } catch (error) {
        // Whatever went wrong fetching and reading this item's page is this item's alone: it is recorded
        // as unreadable, with its reason, and seen, so that it never holds back the items after it nor
        // the next poll. Writing it is another matter: a store that fails fails the poll, to be retried.
        const refusal =
          importRefusal(error)?.message ??
          (error instanceof CorpusStoreError
            ? error.message
            : fetched
              ? undefined
              : `unexpected error (${String(error)})`);
        if (refusal === undefined) throw error;
        report.unreadable++;
        unreadable.push(`${item.link}: ${refusal}`);
        newlySeen.push(...keys);
      }
    }
    report.duplicates += feed.items.length - fresh.length;
    return { batch, newlySeen, unreadable };
  }

  /** The feed, or `feed: undefined` for a 304. */
  async #fetch(
    url: string,
    validators: { etag?: string | undefined; lastModified?: string | undefined },
  ): Promise<{ feed: ReadFeed | undefined; etag: string | undefined; lastModified: string | undefined }> {
    const fetched = await safeFetch(url, { ...this.#options.policy, accept: FEED_TYPES, ...validators });
    if (fetched.notModified)
      return { feed: undefined, etag: validators.etag, lastModified: validators.lastModified };
    const feed = readFeed(decodePage(fetched.body, fetched.charset), fetched.url);
    return { feed, etag: fetched.etag, lastModified: fetched.lastModified };
  }

  #next(errors: number): string {
    const wait = Math.min(MAX_BACK_OFF_MS, this.#options.intervalMs * 2 ** errors);
    return new Date(this.#now() + wait).toISOString();
  }

  #actor(record: FeedRecord): Actor {
    return systemActor(`feed ${record.title ?? record.url}`);
  }
}

/** The plain-words reason a poll failed, or undefined for a bug. */
export function describeFailure(error: unknown): string | undefined {
  if (
    error instanceof FetchRefusedError ||
    error instanceof FeedFormatError ||
    error instanceof FeedRefusedError
  ) {
    return error.message;
  }
  if (error instanceof CorpusStoreError) return error.message;
  return undefined;
}
