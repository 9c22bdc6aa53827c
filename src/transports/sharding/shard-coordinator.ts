import { randomBytes } from 'node:crypto';
import type { LibraryView } from '../../interactions/library-view.ts';
import { systemActor } from '../../lifecycle/audit-log.ts';
import type { CorpusLifecycle } from '../../lifecycle/corpus-lifecycle.ts';
import type { ReloadOutcome } from '../../lifecycle/reloader.ts';
import { isShardMessage, type MessageLink, type ShardMessage, type ShardStatus } from './protocol.ts';

/** Options of {@link ShardCoordinator}. */
export interface ShardCoordinatorOptions {
  /** This shard's channel to the manager. */
  link: MessageLink;
  /** What this shard serves. */
  library: LibraryView;
  /** This shard's reloads: announced to the others, and run when another shard's corpus changed. */
  lifecycle: Pick<CorpusLifecycle, 'reload' | 'onReloaded'>;
  /** Hears the outcome of each reload another shard caused. */
  onRemoteReload?: (outcome: ReloadOutcome, from: number) => void;
  /** @default 3000 */
  statusTimeoutMs?: number;
}

/**
 * A shard's side of corpus coordination. Each shard holds its own read-only index; when one shard's
 * corpus changes (reload, /corpus edit) it tells the manager, which tells the others, and they reload
 * from the shared corpus folder. Reloads caused this way are not announced again, so nothing loops.
 */
export class ShardCoordinator {
  readonly #options: ShardCoordinatorOptions;
  readonly #queries = new Map<string, (statuses: ShardStatus[]) => void>();
  readonly #stops: (() => void)[] = [];

  constructor(options: ShardCoordinatorOptions) {
    this.#options = options;
    const { link, lifecycle } = options;
    this.#stops.push(
      link.onMessage((message) => {
        if (isShardMessage(message)) this.#handle(message);
      }),
      lifecycle.onReloaded((engine, report) => {
        if (report.trigger === 'shard-broadcast' || report.trigger === 'startup') return;
        link.send({ type: 'newsdesk:corpus-changed', from: link.id, version: engine.version });
      }),
    );
  }

  /** What this shard serves now. */
  status(): ShardStatus {
    const engine = this.#options.library.engine;
    return {
      shard: this.#options.link.id,
      version: engine.version,
      articles: engine.articles().length,
      passages: engine.passageCount,
      loadedAt: this.#options.library.loadedAt.toISOString(),
    };
  }

  /** Every shard's status, via the manager; shards that do not answer in time are left out. */
  statuses(): Promise<ShardStatus[]> {
    const nonce = randomBytes(8).toString('hex');
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#queries.delete(nonce);
        resolve([this.status()]);
      }, this.#options.statusTimeoutMs ?? 3000);
      this.#queries.set(nonce, (statuses) => {
        clearTimeout(timer);
        this.#queries.delete(nonce);
        resolve(statuses);
      });
      this.#options.link.send({ type: 'newsdesk:status-query', nonce });
    });
  }

  stop(): void {
    for (const stop of this.#stops.splice(0)) stop();
  }

  #handle(message: ShardMessage): void {
    const { link, library, lifecycle } = this.#options;
    switch (message.type) {
      case 'newsdesk:corpus-changed':
        if (message.from === link.id || message.version === library.engine.version) return;
        void lifecycle
          .reload({ trigger: 'shard-broadcast', actor: systemActor(`shard ${message.from}`), queue: true })
          .then((outcome) => this.#options.onRemoteReload?.(outcome, message.from));
        return;
      case 'newsdesk:status-request':
        link.send({ type: 'newsdesk:status-response', nonce: message.nonce, status: this.status() });
        return;
      case 'newsdesk:status-report':
        this.#queries.get(message.nonce)?.(message.statuses);
        return;
      default:
        return;
    }
  }
}

/** This process's channel to the sharding manager (discord.js forks shards with an IPC channel). */
export function processLink(id: number): MessageLink {
  return {
    id,
    send: (message) => process.send?.(message),
    onMessage: (listener) => {
      process.on('message', listener);
      return () => process.off('message', listener);
    },
  };
}
