import { randomBytes } from 'node:crypto';
import type { CorpusSync } from '../health.ts';
import type { LibraryView } from '../interactions/library-view.ts';
import { systemActor } from '../lifecycle/audit-log.ts';
import type { CorpusLifecycle } from '../lifecycle/corpus-lifecycle.ts';
import type { ReloadOutcome } from '../lifecycle/reloader.ts';
import type { Logger } from '../logging/logger.ts';
import type { RedisLink } from './redis-link.ts';

const CHANNEL = 'newsdesk:corpus-changed';
/** The version the last announced change produced, for a replica that missed the message. */
const CURRENT = 'newsdesk:corpus-version';

/** One replica's announcement: its corpus changed, and reading the shared folder now gives `version`. */
interface Announcement {
  from: string;
  version: string;
}

/**
 * Every replica serves the same corpus version (REDIS_URL): when one replica's corpus changes (a
 * `/reload`, `/corpus add`, a feed poll, SIGHUP, the folder watch), it publishes the version it now
 * serves, and the others reload from the corpus folder they share. A reload caused by an announcement
 * is not announced again, so nothing loops. A replica whose reload does not give the announced version
 * (the folder is not shared, a file it cannot read) keeps serving what it has and says so (`sync`). The
 * version is also kept in Redis and checked every few seconds, so a replica that missed the message
 * (Redis was down, it was starting) catches up by itself.
 */
export class ReloadAnnouncements {
  readonly id = randomBytes(6).toString('hex');
  readonly #redis: RedisLink;
  readonly #library: LibraryView;
  readonly #lifecycle: Pick<CorpusLifecycle, 'reload' | 'onReloaded'>;
  readonly #logger: Logger;
  readonly #stops: (() => void)[] = [];
  #announced: string | undefined;
  #problem: string | undefined;
  /** A change this replica could not announce (Redis was away), announced at the next check. */
  #pendingAnnouncement: string | undefined;
  /** The announced version last reloaded for, so a version this replica cannot read is tried again only slowly. */
  #triedFor: { version: string; at: number } | undefined;

  constructor(options: {
    redis: RedisLink;
    library: LibraryView;
    lifecycle: Pick<CorpusLifecycle, 'reload' | 'onReloaded'>;
    logger: Logger;
    /** How often the kept version is checked. @default 5000 */
    checkEveryMs?: number;
  }) {
    this.#redis = options.redis;
    this.#library = options.library;
    this.#lifecycle = options.lifecycle;
    this.#logger = options.logger;
    const subscriber = options.redis.subscriber;
    const onMessage = (channel: string, text: string) => {
      if (channel !== CHANNEL) return;
      const message = parse(text);
      if (message && message.from !== this.id) void this.#follow(message.version, `replica ${message.from}`);
    };
    subscriber.on('message', onMessage);
    void subscriber.subscribe(CHANNEL).catch((error: unknown) => options.redis.state.failed(error));
    this.#stops.push(
      () => subscriber.off('message', onMessage),
      options.lifecycle.onReloaded((engine, report) => {
        if (report.trigger === 'replica-broadcast' || report.trigger === 'startup' || report.unchanged)
          return;
        void this.#announce(engine.version);
      }),
    );
    const timer = setInterval(() => void this.#check(), options.checkEveryMs ?? 5_000);
    timer.unref();
    this.#stops.push(() => clearInterval(timer));
    void this.#check();
  }

  sync(): CorpusSync {
    const serving = this.#library.engine.version;
    const inStep = this.#announced === undefined || this.#announced === serving;
    return {
      ...(this.#announced ? { announced: this.#announced } : {}),
      serving,
      inStep,
      ...(!inStep && this.#problem ? { problem: this.#problem } : {}),
    };
  }

  stop(): void {
    for (const stop of this.#stops.splice(0)) stop();
  }

  async #announce(version: string): Promise<void> {
    this.#announced = version;
    this.#problem = undefined;
    const message: Announcement = { from: this.id, version };
    try {
      await this.#redis.run(async (redis) => {
        await redis.set(CURRENT, version);
        await redis.publish(CHANNEL, JSON.stringify(message));
      });
      this.#logger.info('corpus change announced to the other replicas', { version });
    } catch (error) {
      // They catch up from the kept version once Redis is back; this replica sets it again then.
      this.#pendingAnnouncement = version;
      this.#logger.warn('corpus change not announced (Redis unavailable); announced once it is back', {
        version,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** Reads the kept version; announces a change Redis missed, or follows one this replica missed. */
  async #check(): Promise<void> {
    const pending = this.#pendingAnnouncement;
    if (pending !== undefined) {
      this.#pendingAnnouncement = undefined;
      if (pending === this.#library.engine.version) await this.#announce(pending);
      return;
    }
    let kept: string | null;
    try {
      kept = await this.#redis.run((redis) => redis.get(CURRENT));
    } catch {
      return;
    }
    if (kept === null) return;
    if (kept === this.#library.engine.version) {
      this.#announced = kept;
      return;
    }
    // Tried lately and could not read it: again every minute, not every check.
    if (this.#triedFor?.version === kept && Date.now() - this.#triedFor.at < 60_000) return;
    await this.#follow(kept, 'the version the replicas announced');
  }

  /** Reloads from the shared folder to serve `version`; keeps serving its own if that is not what it reads. */
  async #follow(version: string, from: string): Promise<void> {
    this.#announced = version;
    if (this.#library.engine.version === version) return;
    this.#triedFor = { version, at: Date.now() };
    const outcome = await this.#lifecycle.reload({
      trigger: 'replica-broadcast',
      actor: systemActor(from),
      queue: true,
    });
    const serving = this.#library.engine.version;
    if (serving === version) {
      this.#problem = undefined;
      this.#logger.info('corpus reload (another replica changed the corpus)', { from, version });
      return;
    }
    this.#problem = describeMiss(outcome, version, serving);
    this.#logger.warn('corpus reload: this replica cannot serve the version the others announced', {
      from,
      announced: version,
      serving,
      problem: this.#problem,
    });
  }
}

function describeMiss(outcome: ReloadOutcome, announced: string, serving: string): string {
  const why =
    outcome.status === 'refused' || outcome.status === 'failed'
      ? `its reload was ${outcome.status}: ${outcome.message}`
      : outcome.status === 'busy'
        ? 'a reload was already running'
        : 'the corpus folder it reads is not the one the other replicas read';
  return `announced ${announced}, serving ${serving}: ${why}`;
}

function parse(text: string): Announcement | undefined {
  try {
    const value = JSON.parse(text) as Partial<Announcement>;
    return typeof value.from === 'string' && typeof value.version === 'string'
      ? { from: value.from, version: value.version }
      : undefined;
  } catch {
    return undefined;
  }
}
