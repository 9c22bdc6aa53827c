import { randomBytes } from 'node:crypto';
import { isShardMessage, type MessageLink, type ShardMessage, type ShardStatus } from './protocol.ts';

/** Options of {@link ManagerRelay}. */
export interface ManagerRelayOptions {
  /**
   * How long to wait for shards to answer a status query, in milliseconds. Shards that have not
   * answered by then are left out of the report.
   * @default 2000
   */
  statusTimeoutMs?: number;
}

/**
 * The sharding manager's side of corpus coordination: forwards a shard's "corpus changed" to every
 * other shard, and gathers every shard's status for a shard that asks (for /about). Holds no index.
 */
export class ManagerRelay {
  readonly #links = new Map<number, MessageLink>();
  readonly #pending = new Map<string, { statuses: ShardStatus[]; expected: number; finish: () => void }>();
  readonly #timeoutMs: number;

  constructor(options: ManagerRelayOptions = {}) {
    this.#timeoutMs = options.statusTimeoutMs ?? 2000;
  }

  /** Starts relaying for a shard; a respawned shard with the same id replaces the old link. */
  attach(link: MessageLink): () => void {
    this.#links.set(link.id, link);
    const stop = link.onMessage((message) => {
      if (isShardMessage(message)) this.#handle(link, message);
    });
    return () => {
      stop();
      if (this.#links.get(link.id) === link) this.#links.delete(link.id);
    };
  }

  #handle(from: MessageLink, message: ShardMessage): void {
    switch (message.type) {
      case 'newsdesk:corpus-changed':
        for (const link of this.#links.values()) if (link.id !== from.id) send(link, message);
        return;
      case 'newsdesk:status-query':
        void this.#gather().then((statuses) =>
          send(from, { type: 'newsdesk:status-report', nonce: message.nonce, statuses }),
        );
        return;
      case 'newsdesk:status-response': {
        const pending = this.#pending.get(message.nonce);
        if (!pending) return;
        pending.statuses.push(message.status);
        if (pending.statuses.length >= pending.expected) pending.finish();
        return;
      }
      default:
        return;
    }
  }

  /** Asks every shard for its status; resolves with those that answered within the timeout, by shard id. */
  #gather(): Promise<ShardStatus[]> {
    const nonce = randomBytes(8).toString('hex');
    const links = [...this.#links.values()];
    return new Promise((resolve) => {
      const statuses: ShardStatus[] = [];
      const finish = () => {
        clearTimeout(timer);
        this.#pending.delete(nonce);
        resolve([...statuses].sort((a, b) => a.shard - b.shard));
      };
      const timer = setTimeout(finish, this.#timeoutMs);
      this.#pending.set(nonce, { statuses, expected: links.length, finish });
      for (const link of links) send(link, { type: 'newsdesk:status-request', nonce });
      if (links.length === 0) finish();
    });
  }
}

function send(link: MessageLink, message: ShardMessage): void {
  // A shard that is restarting cannot take messages; it reads the corpus from disk when it comes back.
  Promise.resolve()
    .then(() => link.send(message))
    .catch(() => undefined);
}
