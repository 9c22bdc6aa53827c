import type { Article, Passage } from '../corpus/article.ts';
import type { CorpusEditor } from '../corpus-editing/corpus-editor.ts';
import type { FeedPoller } from '../feeds/feed-poller.ts';
import type { ReloadOutcome, ReloadRequest } from '../lifecycle/reloader.ts';
import type { Answer, AnswerOptions, Timeline } from '../search/answer.ts';
import type { Outlet } from '../search/outlets.ts';
import type { Period } from '../search/period.ts';
import type { SourceMessage } from './incoming.ts';

/**
 * The part of the core's search engine the commands use. Declared here, structurally, so the command
 * layer depends on a narrow contract rather than a class; `Engine` and `WorkerEngine` satisfy it.
 */
export interface EngineView {
  readonly version: string;
  readonly passageCount: number;
  answer(question: string, options?: AnswerOptions): Answer;
  /** `answer` without holding up this thread while the index (perhaps on another thread) is searched. */
  answerAsync(question: string, options?: AnswerOptions): Promise<Answer>;
  articles(): readonly Article[];
  article(id: string): Article | undefined;
  passage(citation: string): { article: Article; passage: Passage } | undefined;
  context(
    citation: string,
    radius?: number,
  ): { article: Article; passages: Passage[]; focus: number } | undefined;
  closestHeadlines(question: string, limit?: number): Article[];
  closestHeadlinesAsync(question: string, limit?: number): Promise<Article[]>;
  timelineAsync(topic: string, options?: { period?: Period }): Promise<Timeline>;
  articlesMentioningAsync(text: string, limit?: number): Promise<Article[]>;
  suggestArticles(text: string, limit?: number): Article[];
  /** The corpus's outlets, its articles' publishers (`/settings outlets`, `/ask source:`). */
  outlets(): readonly Outlet[];
  outlet(name: string): Outlet | undefined;
  suggestOutlets(text: string, limit?: number): Outlet[];
  suggestCitations(text: string, limit?: number): Promise<{ citation: string; preview: string }[]>;
}

/** The part of the core's `Library` the commands use: read `engine` per request, never cache it. */
export interface LibraryView {
  readonly engine: EngineView;
  readonly loadedAt: Date;
}

/**
 * Corpus administration, for the commands that reload or edit the corpus (`/reload`, `/corpus`). Start-up
 * puts one (a `CorpusLifecycle`) in the command context when the bot serves a corpus it can reload;
 * without one those commands say so.
 */
export interface CorpusAdministration {
  /** Never overlaps another reload and never swaps in a corpus that failed validation. */
  reload(request?: ReloadRequest): Promise<ReloadOutcome>;
  /** The two-step add / replace / remove: preview, then confirm or cancel. */
  readonly editor: Pick<CorpusEditor, 'previewAdd' | 'previewRemove' | 'confirm' | 'cancel'>;
  /** The largest article file accepted, in bytes. */
  readonly maxArticleBytes: number;
}

/**
 * Following news feeds, for `/feeds`. Start-up puts one (a `FeedPoller`) in the command context when
 * the corpus is a folder the bot can add to; without one `/feeds` says so.
 */
export type FeedsAdministration = Pick<
  FeedPoller,
  'add' | 'remove' | 'list' | 'pollDue' | 'setFilter' | 'settings' | 'setAlertsChannel' | 'refresh'
>;

/** What one process serves, as `/about` lists it when the bot runs as several shards. */
export interface PeerStatus {
  shard: number;
  version: string;
  articles: number;
  passages: number;
}

/** A message of a channel or thread, as Discord's REST API lists it, as much as the bot reads of it. */
export interface ChannelMessage extends SourceMessage {
  authorId: string;
  /** When Discord says it was sent (ISO 8601). */
  sentAt: string;
}

/**
 * Threads through Discord's REST API (the gateway and the HTTP endpoint alike): opening one on an
 * answer (thread mode) and reading a thread's messages, whose answers are a later `/ask`'s context.
 * Start-up puts one in the command context when the bot has a token; the console has none.
 */
export interface ThreadsView {
  /** Starts a thread on a message (`POST /channels/{id}/messages/{id}/threads`); resolves to its id. */
  startThread(channelId: string, messageId: string, name: string): Promise<string>;
  /** A channel's (or thread's) latest messages, newest first (`GET /channels/{id}/messages`). */
  latestMessages(channelId: string, limit: number): Promise<ChannelMessage[]>;
  /** One message, or null when it is gone (`GET /channels/{id}/messages/{id}`). */
  message(channelId: string, messageId: string): Promise<ChannelMessage | null>;
}
