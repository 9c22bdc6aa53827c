import type { Digest } from '../community/digests.ts';
import type { RecordKeeper } from '../community/record-keeper.ts';
import type { RecordStore } from '../community/record-store.ts';
import type { Article } from '../corpus/article.ts';
import {
  type DigestSchedule,
  describeSchedule,
  latestOccurrence,
  wallClockText,
} from '../digests/schedule.ts';
import { type DigestStory, matchesFilter, storiesOf } from '../digests/stories.ts';
import { type Disagreement, disagreementsOf } from '../factcheck/outlets-differ.ts';
import type { Logger } from '../logging/logger.ts';
import type { ReplyPayload } from './incoming.ts';
import type { EngineView, LibraryView } from './library-view.ts';
import type { ChannelPoster, RecordWriter } from './reload-notifier.ts';
import { renderDigestPage } from './render/digest.ts';
import { finalizeReply } from './render/payload.ts';

/** A stored digest's schedule. */
export function scheduleOf(digest: Digest): DigestSchedule {
  return {
    every: digest.every,
    weekday: digest.weekday,
    atMinutes: digest.atMinutes,
    timeZone: digest.timeZone,
  };
}

/**
 * The most new articles one digest groups, the latest arrived: grouping compares every pair, and a
 * period of a few hundred articles is more than a message's pages are read for.
 */
export const MAX_DIGEST_ARTICLES = 500;

/**
 * One page of a digest's period, from the articles that arrived in it and the corpus served now (an
 * article removed since is left out); undefined when none of them is one the digest takes.
 */
export async function digestPage(options: {
  store: Pick<RecordStore, 'digests'>;
  engine: Pick<EngineView, 'article' | 'passage'>;
  digest: Digest;
  after: number;
  until: number;
  offset: number;
}): Promise<ReplyPayload | undefined> {
  const { digest, after, until, engine } = options;
  const ids = await options.store.digests.arrivedBetween(after, until);
  const filter = { topic: digest.topic, outlets: digest.outlets };
  const articles = ids
    .map((id) => engine.article(id))
    .filter((a): a is Article => a !== undefined && matchesFilter(a, filter))
    .slice(-MAX_DIGEST_ARTICLES);
  const stories = storiesOf(articles);
  if (stories.length === 0 || options.offset >= stories.length) return undefined;
  return renderDigestPage({
    digest,
    schedule: describeSchedule(scheduleOf(digest)),
    stories: stories.map((story) => ({ ...story, disagreements: disagreementsIn(story, engine) })),
    offset: options.offset,
    after,
    until,
    since: wallClockText(digest.timeZone, after),
  });
}

/**
 * Where a story's outlets give a number, date or name differently in their opening paragraphs: the
 * lead's first paragraph aligned with the others', as an answer's grouped reports are
 * (`src/factcheck/outlets-differ.ts`).
 */
function disagreementsIn(
  story: DigestStory,
  engine: Pick<EngineView, 'article' | 'passage'>,
): Disagreement[] {
  if (story.outlets.length < 2) return [];
  const [lead, ...others] = story.articles.map((article) => engine.article(article.id));
  const first = lead?.passages[0];
  if (!lead || !first) return [];
  return disagreementsOf(
    {
      citation: first.id,
      quote: first.text,
      alsoReportedBy: others.flatMap((article) => (article?.passages[0] ? [article.passages[0].id] : [])),
      publisher: lead.publisher,
      title: lead.title,
    },
    engine,
  );
}

/** How often digests are checked: a digest goes out within this of its time. */
export const DIGEST_CHECK_MS = 30_000;

/**
 * Sends digests at their times, and records when each article arrived (what is new for them). Every
 * check reads the digests, and for each whose latest scheduled time has passed since its last period
 * claims that period (`DigestList.claim`: one process of all the shards, replicas and restarts wins),
 * then posts the period's stories, or nothing when nothing new arrived. A failed post gives the period
 * back for the next check (three failures in a row skip it). A process that dies between the claim
 * and the post loses that period's digest rather than risk sending it twice.
 */
export class DigestScheduler {
  readonly #store: RecordStore;
  readonly #poster: ChannelPoster | undefined;
  readonly #library: LibraryView;
  readonly #logger: Logger;
  readonly #now: () => Date;
  readonly #record: RecordWriter;
  /** Articles whose arrival this process has recorded (or found recorded). */
  readonly #recorded = new Set<string>();
  #checking: Promise<number> | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: {
    store: RecordStore;
    /** Without one (no token), arrivals are recorded but nothing is sent. */
    poster?: ChannelPoster;
    library: LibraryView;
    logger: Logger;
    now: () => Date;
    record: RecordWriter;
  }) {
    this.#store = options.store;
    this.#poster = options.poster;
    this.#library = options.library;
    this.#logger = options.logger;
    this.#now = options.now;
    this.#record = options.record;
  }

  /** Records the arrival of the engine's articles this process has not recorded yet (start-up, each reload). */
  recordArrivals(engine: Pick<EngineView, 'articles'>): void {
    const fresh = engine
      .articles()
      .map((article) => article.id)
      .filter((id) => !this.#recorded.has(id));
    if (fresh.length === 0) return;
    for (const id of fresh) this.#recorded.add(id);
    const at = this.#now();
    this.#record('article arrivals', (store) => store.digests.recordArrivals(fresh, at));
  }

  /** Checks every digest now (after the running check, if one is); resolves to how many were posted. */
  check(): Promise<number> {
    const previous = this.#checking ?? Promise.resolve(0);
    const next = previous.then(() => this.#checkAll());
    this.#checking = next.finally(() => {
      if (this.#checking === next) this.#checking = undefined;
    });
    return next;
  }

  /** Checks now and every `DIGEST_CHECK_MS`; returns a function that stops it. */
  start(intervalMs = DIGEST_CHECK_MS): () => void {
    void this.check();
    this.#timer = setInterval(() => void this.check(), intervalMs);
    this.#timer.unref();
    return () => clearInterval(this.#timer);
  }

  async #checkAll(): Promise<number> {
    if (!this.#poster) return 0;
    let digests: Digest[];
    try {
      digests = await this.#store.digests.all();
    } catch (error) {
      this.#logger.warn('digests: could not read them; checked again shortly', { error });
      return 0;
    }
    let posted = 0;
    for (const digest of digests) {
      try {
        if (await this.#send(digest, this.#poster)) posted += 1;
      } catch (error) {
        this.#logger.warn('digests: a check failed; tried again shortly', { digest: digest.id, error });
      }
    }
    return posted;
  }

  /** Claims and posts the digest's due period, if one is; true when a message went out. */
  async #send(digest: Digest, poster: ChannelPoster): Promise<boolean> {
    const now = this.#now();
    const period = latestOccurrence(scheduleOf(digest), now);
    const created = digest.createdAt.getTime();
    if (period <= created || (digest.lastPeriod !== null && period <= digest.lastPeriod)) return false;
    if (!(await this.#store.digests.claim(digest.id, digest.lastPeriod, period))) return false;
    const after = digest.lastPeriod ?? created;
    const message = await digestPage({
      store: this.#store,
      engine: this.#library.engine,
      digest,
      after,
      until: period,
      offset: 0,
    });
    const where = { digest: digest.id, guild: digest.guildId, channel: digest.channelId };
    if (!message) {
      this.#logger.info('digest: nothing new in the period; nothing sent', where);
      return false;
    }
    try {
      await poster.post(digest.channelId, finalizeReply(message));
    } catch (error) {
      const kept = await this.#store.digests.release(digest.id, digest.lastPeriod, period);
      this.#logger.warn(
        kept
          ? 'digest: the post failed; it is tried again at the next check'
          : 'digest: the post failed three times; this period is skipped',
        { ...where, error },
      );
      return false;
    }
    this.#record('digest sent', (store) => store.digests.sent(digest.id));
    this.#logger.info('digest sent', where);
    return true;
  }
}

/**
 * Digests beside the community records, for start-up: records the arrival of every article served
 * (now, and after each reload) and checks the digests every 30 s. Undefined when nothing is stored.
 */
export function startDigests(options: {
  keeper: RecordKeeper | undefined;
  library: LibraryView;
  lifecycle: { onReloaded(listener: (engine: EngineView) => void): () => void };
  logger: Logger;
  now: () => number;
  poster: ChannelPoster | undefined;
}): { scheduler: DigestScheduler; stop: () => void } | undefined {
  const { keeper } = options;
  if (!keeper) return undefined;
  const scheduler = new DigestScheduler({
    store: keeper.store,
    library: options.library,
    logger: options.logger,
    now: () => new Date(options.now()),
    record: keeper.write.bind(keeper),
    ...(options.poster ? { poster: options.poster } : {}),
  });
  scheduler.recordArrivals(options.library.engine);
  const unsubscribe = options.lifecycle.onReloaded((engine) => scheduler.recordArrivals(engine));
  const stopChecks = scheduler.start();
  return {
    scheduler,
    stop: () => {
      stopChecks();
      unsubscribe();
    },
  };
}
