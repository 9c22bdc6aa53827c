import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Library } from '../library.ts';
import type { CorpusLifecycle } from '../lifecycle/corpus-lifecycle.ts';
import type { Logger } from '../logging/logger.ts';
import { FeedPoller } from './feed-poller.ts';
import type { FeedPublisher } from './feed-publisher.ts';
import { FeedState, FeedStateError } from './feed-state.ts';

/** Where the feed state lives: beside the corpus folder, `corpus` → `corpus.feeds.json`. */
export function feedStatePath(corpusPath: string): string {
  const folder = path.resolve(corpusPath);
  return path.join(path.dirname(folder), `${path.basename(folder)}.feeds.json`);
}

/**
 * The poller for the feeds in the state file beside the corpus folder, for `/feeds` and for start-up to
 * `start()`. None for a `.jsonl` corpus (there is no folder to add to) or when the state file is
 * unreadable (logged; the file is left as it is for the operator).
 */
export async function openFeeds(options: {
  library: Library;
  lifecycle: CorpusLifecycle;
  config: Config;
  logger: Logger;
  /** Posts articles and health alerts in Discord; none at the console. */
  publisher?: FeedPublisher | undefined;
  /** The clock of polls, back-off and health alerts (FEED_SILENT_HOURS), for tests. @default Date.now */
  now?: () => number;
}): Promise<FeedPoller | undefined> {
  const { library, lifecycle, config, logger } = options;
  if (
    !(await stat(config.CORPUS_PATH).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  )
    return undefined;
  let state: FeedState;
  try {
    // With REDIS_URL, replicas share the folder and so the state file beside it.
    state = await FeedState.open(feedStatePath(config.CORPUS_PATH), {
      shared: config.REDIS_URL !== undefined,
    });
  } catch (error) {
    if (!(error instanceof FeedStateError)) throw error;
    logger.error('feeds not followed', { error: error.message });
    return undefined;
  }
  return new FeedPoller({
    state,
    store: lifecycle.store,
    editor: lifecycle.editor,
    articles: () => library.engine.corpus.articles,
    policy: { allowPrivate: config.FETCH_ALLOW_PRIVATE },
    intervalMs: config.FEED_POLL_MINUTES * 60_000,
    publisher: options.publisher,
    postsPerPoll: config.FEED_POSTS_PER_POLL,
    silentMs: config.FEED_SILENT_HOURS * 3_600_000,
    ...(options.now ? { now: options.now } : {}),
    onPostFailed: (url, what, error) => logger.warn('feed post failed', { url, what, error }),
    onPolled: (report) =>
      (report.status === 'failed' ? logger.warn : logger.info)('feed polled', { ...report }),
  });
}
