/**
 * Messages between shard processes and the sharding manager, sent over discord.js's process channel
 * (`client.shard.send` / `shard.send`). The `newsdesk:` prefix keeps them apart from discord.js's own.
 */
export type ShardMessage =
  /** A shard's corpus changed (reload, /corpus edit): the others should reload from disk. */
  | { type: 'newsdesk:corpus-changed'; from: number; version: string }
  /** A shard asks the manager for every shard's status (for /about). */
  | { type: 'newsdesk:status-query'; nonce: string }
  /** The manager asks one shard for its status. */
  | { type: 'newsdesk:status-request'; nonce: string }
  /** A shard's answer to a status request. */
  | { type: 'newsdesk:status-response'; nonce: string; status: ShardStatus }
  /** The manager's answer to a status query: every shard that answered in time. */
  | { type: 'newsdesk:status-report'; nonce: string; statuses: ShardStatus[] };

/** What one shard is serving. */
export interface ShardStatus {
  shard: number;
  version: string;
  articles: number;
  passages: number;
  /** ISO time the serving engine was swapped in. */
  loadedAt: string;
}

export function isShardMessage(message: unknown): message is ShardMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { type?: unknown }).type === 'string' &&
    (message as { type: string }).type.startsWith('newsdesk:')
  );
}

/** A two-way message channel to one peer: the manager's view of a shard, or a shard's view of the manager. */
export interface MessageLink {
  /** The shard id (on the manager's side: the shard's; on a shard's side: its own). */
  id: number;
  send(message: ShardMessage): unknown;
  /** Subscribes to incoming messages; returns a function that unsubscribes. */
  onMessage(listener: (message: unknown) => void): () => void;
}
