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
import { type FeedFilter, FilterRefusedError, judge } from './feed-filter.ts';
import type { FeedPublisher, PostTarget } from './feed-publisher.ts';
import type { FeedHealth, FeedRecord, FeedSettings, FeedState, QueuedPost } from './feed-state.ts';
import { FEED_TYPES, FeedFormatError, type FeedItem, type ReadFeed, readFeed } from './read-feed.ts';

/** The longest a failing feed waits between two polls. */
const MAX_BACK_OFF_MS = 24 * 60 * 60 * 1000;
/** New items fetched per poll: a feed that suddenly lists 500 items is read over several polls. */
const MAX_ITEMS_PER_POLL = 20;
/** Failed reads in a row after which the moderators hear that a feed is failing. */
export const FAILURES_ALERTED = 3;
/** Headlines of skipped items kept for `/feeds list`. */
const FILTERED_KEPT = 5;

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
  /** Posts articles and health alerts in Discord; without one, nothing is posted (the console). */
  publisher?: FeedPublisher | undefined;
  /** FEED_POSTS_PER_POLL: articles one feed posts per poll at most. @default 5 */
  postsPerPoll?: number;
  /** FEED_SILENT_HOURS, in milliseconds: a feed that brings nothing this long is reported. @default 48 h */
  silentMs?: number;
  /** Hears of a post or an alert that failed (kept, tried again next poll), for the log. */
  onPostFailed?: (url: string, what: 'article' | 'alert', error: string) => void;
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
  /** Items the feed's filter skipped. */
  filtered?: number;
  /** Articles posted in the feed's channel by this poll. */
  posted?: number;
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
  async add(
    url: string,
    actor: Actor,
    options: { post?: { channelId: string; thread: boolean } } = {},
  ): Promise<{ record: FeedRecord; items: number }> {
    if (this.#options.state.get(url)) {
      throw new FeedRefusedError('exists', 'That feed is already followed.');
    }
    const post = options.post ? await this.#target(options.post.channelId, options.post.thread) : undefined;
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
      ...(post ? { post, queue: [] } : {}),
    };
    await this.#options.state.put(record);
    return { record, items: feed?.items.length ?? 0 };
  }

  /** Sets or clears (`undefined`) a feed's filter; resolves to the feed, or undefined when none has the link. */
  async setFilter(url: string, filter: FeedFilter | undefined): Promise<FeedRecord | undefined> {
    if (this.#options.state.get(url) === undefined) await this.#options.state.refresh();
    return this.#options.state.update(url, (record) => {
      const { filter: _old, ...rest } = record;
      return filter ? { ...rest, filter } : rest;
    });
  }

  /** The settings of every feed (the moderators' alert channel). */
  settings(): FeedSettings {
    return this.#options.state.settings();
  }

  /** Sets the moderators' channel for health alerts (a text channel the bot can see), or clears it. */
  async setAlertsChannel(channelId: string | undefined): Promise<void> {
    if (channelId !== undefined) {
      const target = await this.#target(channelId, false);
      if (target.forum)
        throw new FeedRefusedError(
          'bad-channel',
          'Alerts go to a text channel, not a forum: name a text channel.',
        );
    }
    await this.#options.state.putSettings(channelId === undefined ? {} : { alertsChannelId: channelId });
  }

  /** Where a feed's articles can go: the channel must be one the bot sees, a text or a forum channel. */
  async #target(channelId: string, thread: boolean): Promise<PostTarget> {
    const publisher = this.#options.publisher;
    if (publisher === undefined)
      throw new FeedRefusedError(
        'no-posting',
        'This bot cannot post in channels: it runs without Discord here.',
      );
    const kind = await publisher.channelKind(channelId);
    if (kind === 'unknown')
      throw new FeedRefusedError(
        'bad-channel',
        'The bot cannot see that channel: give it View Channel and Send Messages there, or name another.',
      );
    if (kind === 'other')
      throw new FeedRefusedError(
        'bad-channel',
        'Articles can be posted in a text or forum channel only; name one.',
      );
    return { channelId, thread: kind === 'forum' ? false : thread, forum: kind === 'forum' };
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
      // Posting and alerting after the state is saved: what a post needs is persisted before it is tried.
      const posted = await this.#publish(record.url).catch(() => 0);
      if (posted > 0) report.posted = posted;
      await this.#checkHealth(record.url).catch(() => undefined);
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
        await this.#save(record, (current) => ({
          ...current,
          lastPollAt: polledAt,
          errors: 0,
          lastError: undefined,
          nextPollAt: this.#next(0),
        }));
        return { ...report, status: 'not-modified' };
      }
      const seen = new Set(record.seen);
      const { batch, newlySeen, unreadable, filtered, fresh } = await this.#collect(
        feed,
        seen,
        report,
        record.filter,
      );
      const queued: QueuedPost[] = [];
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
        for (const entry of batch) {
          newlySeen.push(...entry.keys);
          if (record.post) queued.push(queuedPost(entry.prepared, entry.keys[0]!, entry.link));
        }
      }
      // Onto the feed as it is now: a filter set or a removal made during the fetch is kept.
      await this.#save(record, (current) => ({
        ...current,
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
        itemsAdded: current.itemsAdded + report.added.length,
        seen: [...current.seen, ...newlySeen],
        // Queued in the same write as the items are marked seen: none is posted twice or lost.
        ...(current.post ? { queue: [...(current.queue ?? []), ...queued] } : {}),
        ...(filtered.length > 0
          ? {
              itemsFiltered: (current.itemsFiltered ?? 0) + filtered.length,
              filtered: [...(current.filtered ?? []), ...filtered].slice(-FILTERED_KEPT),
            }
          : {}),
        ...(fresh > 0 ? { lastNewItemAt: polledAt } : {}),
      }));
      if (filtered.length > 0) report.filtered = filtered.length;
      return report;
    } catch (error) {
      // Even a bug is this feed's failure alone: the others are still polled.
      const message = describeFailure(error) ?? `unexpected error (${String(error)})`;
      await this.#save(record, (current) => ({
        ...current,
        lastPollAt: polledAt,
        errors: current.errors + 1,
        lastError: message,
        nextPollAt: this.#next(current.errors + 1),
      }));
      return { ...report, status: 'failed', added: [], error: message };
    }
  }

  /** The new items, fetched and validated, and the keys of those that are duplicates or unreadable. */
  async #collect(feed: ReadFeed, seen: Set<string>, report: PollReport, filter: FeedFilter | undefined) {
    const { store, policy } = this.#options;
    const known = [...this.#options.articles()];
    const batch: { prepared: PreparedArticle; keys: string[]; link: string }[] = [];
    const newlySeen: string[] = [];
    const unreadable: string[] = [];
    const filtered: string[] = [];
    const fresh = feed.items.filter((item) => !seen.has(item.guid) && !seen.has(item.link));
    // The filter first, on the feed's own title and summary: an item it skips is never fetched, and
    // does not count against the items fetched per poll. The rest wait for a later poll, unseen.
    const picked: FeedItem[] = [];
    const kept = new Set<FeedItem>();
    for (const item of fresh) {
      if (picked.length >= MAX_ITEMS_PER_POLL) break;
      if (filter) {
        const text = [item.title, item.summary].filter((part) => part !== undefined).join('\n');
        const verdict = judge(filter, text, item.summary !== undefined);
        if (verdict === 'skip') {
          filtered.push(item.title ?? item.link);
          newlySeen.push(item.guid, item.link);
          continue;
        }
        if (verdict === 'keep') kept.add(item);
      }
      picked.push(item);
    }
    // Oldest first, as they were published, once the newest few are picked.
    for (const item of picked.reverse()) {
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
        // Title and summary did not settle it (the feed gives no summary): the article's text does.
        if (filter && !kept.has(item)) {
          const text = [prepared.article.title, ...prepared.article.passages.map((p) => p.text)].join('\n');
          if (judge(filter, text, true) === 'skip') {
            filtered.push(prepared.article.title);
            newlySeen.push(...keys);
            continue;
          }
        }
        known.push(prepared.article);
        batch.push({ prepared, keys, link: item.link });
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
    return { batch, newlySeen, unreadable, filtered, fresh: fresh.length };
  }

  /**
   * Posts the oldest of the feed's queued articles, at most FEED_POSTS_PER_POLL, one at a time: each is
   * marked as tried before it is posted and taken off the queue once it is, both written to the state
   * file. A post cut short by a crash is looked for before it is posted again; one that fails stays
   * first in the queue for the next poll. Resolves to how many were posted.
   */
  async #publish(url: string): Promise<number> {
    const { publisher, state } = this.#options;
    const limit = this.#options.postsPerPoll ?? 5;
    if (publisher === undefined) return 0;
    let posted = 0;
    while (posted < limit) {
      let next: QueuedPost | undefined;
      let resume = false;
      // Each write onto the feed as it is now (a moderator may change it while a post is sent); a
      // feed removed meanwhile posts nothing more.
      const record = await state.update(url, (current) => {
        next = current.queue?.[0];
        if (current.post === undefined || next === undefined) return undefined;
        resume = next.attemptedAt !== undefined;
        const attempted = { ...next, attemptedAt: new Date(this.#now()).toISOString() };
        return { ...current, queue: [attempted, ...current.queue!.slice(1)] };
      });
      if (record?.post === undefined || next === undefined) break;
      const key = next.key;
      try {
        await publisher.postArticle(record.post, next, { resume });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.#options.onPostFailed?.(url, 'article', message);
        await state.update(url, (current) => ({ ...current, postError: message }));
        break;
      }
      const done = await state.update(url, (current) => ({
        ...current,
        queue: (current.queue ?? []).filter((queued) => queued.key !== key),
        postError: undefined,
        postsMade: (current.postsMade ?? 0) + 1,
      }));
      if (done === undefined) break;
      posted++;
    }
    return posted;
  }

  /**
   * The feed's health after a poll: failing after FAILURES_ALERTED failed reads in a row, silent when
   * nothing new came for FEED_SILENT_HOURS, else ok. A change is written first, with a message owed to
   * the moderators' channel (a recovery only after an alert that was delivered); the message is then
   * posted and marked delivered, so a restart neither repeats it nor forgets one owed.
   */
  async #checkHealth(url: string): Promise<void> {
    const { state, publisher } = this.#options;
    const record = state.get(url);
    if (record === undefined) return;
    const silentMs = this.#options.silentMs ?? 48 * 3_600_000;
    const quietSince = Date.parse(record.lastNewItemAt ?? record.addedAt);
    const status: FeedHealth['status'] =
      record.errors >= FAILURES_ALERTED ? 'failing' : this.#now() - quietSince >= silentMs ? 'silent' : 'ok';
    let health: FeedHealth = record.health ?? {
      status: 'ok',
      since: record.addedAt,
      alerted: false,
      owed: false,
    };
    if (status !== health.status) {
      const since = new Date(this.#now()).toISOString();
      health =
        status === 'ok'
          ? { status, since, alerted: false, owed: health.alerted, was: health.status }
          : { status, since, alerted: false, owed: true, was: health.status };
      const changed = health;
      if ((await state.update(url, (current) => ({ ...current, health: changed }))) === undefined) return;
    }
    const channelId = state.settings().alertsChannelId;
    if (!health.owed || channelId === undefined || publisher === undefined) return;
    // Marked as tried before it is sent, as an article's post is: after a crash the message is looked
    // for (sent since the first attempt) rather than sent twice. The first attempt's time is kept.
    const resume = health.attemptedAt;
    const attempted = { ...health, attemptedAt: resume ?? new Date(this.#now()).toISOString() };
    if (resume === undefined) {
      if ((await state.update(url, (current) => ({ ...current, health: attempted }))) === undefined) return;
    }
    try {
      await publisher.postAlert(
        channelId,
        {
          feed: record,
          status: health.status,
          was: health.was ?? 'ok',
          silentHours: Math.round(silentMs / 3_600_000),
        },
        { resume },
      );
    } catch (error) {
      this.#options.onPostFailed?.(url, 'alert', error instanceof Error ? error.message : String(error));
      return;
    }
    const { attemptedAt: _tried, ...settled } = health;
    const delivered = { ...settled, owed: false, alerted: true };
    await state.update(url, (current) => ({ ...current, health: delivered }));
  }

  /**
   * Saves what a poll owns onto the feed as it is now, not onto the record it read before the fetch:
   * nothing when the feed was removed meanwhile (or removed and followed again: another record).
   */
  #save(record: FeedRecord, change: (current: FeedRecord) => FeedRecord): Promise<FeedRecord | undefined> {
    return this.#options.state.update(record.url, (current) =>
      current.addedAt === record.addedAt && current.addedBy === record.addedBy ? change(current) : undefined,
    );
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

/** What a post shows of an article the feed brought. */
function queuedPost(prepared: PreparedArticle, key: string, link: string): QueuedPost {
  const { article } = prepared;
  const lede = article.passages[0]?.text;
  return {
    key,
    articleId: article.id,
    title: article.title,
    link: article.url ?? link,
    ...(article.publisher ? { outlet: article.publisher } : {}),
    ...(article.published ? { published: article.published } : {}),
    ...(lede ? { lede } : {}),
  };
}

/** The plain-words reason a poll failed, or undefined for a bug. */
export function describeFailure(error: unknown): string | undefined {
  if (
    error instanceof FilterRefusedError ||
    error instanceof FetchRefusedError ||
    error instanceof FeedFormatError ||
    error instanceof FeedRefusedError
  ) {
    return error.message;
  }
  if (error instanceof CorpusStoreError) return error.message;
  return undefined;
}
