import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** Connections open at once. */
  maxConnections: number;
  /** Connections open at once from one remote address. */
  maxPerAddress: number;
}

/** What the guard knows of one open connection. */
interface Tracked {
  address: string;
  /** Answering a verified request: never shed. */
  busy: boolean;
}

/**
 * Which connections stay open when there are too many. Anyone can open a connection and send nothing,
 * or trickle a request in, and 600 such once made every genuine PING get 503: refusing the newest
 * connection refused Discord's. Now one remote address may hold `maxPerAddress` connections, and one
 * more from it is closed at once, unread (the address is one client, and closing its older ones instead
 * would let it churn the endpoint through as many connections as it can open). Past `maxConnections`,
 * a new connection is let in and the oldest connection not answering a verified request is closed to
 * make room; only when every connection is answering a verified request is the newest one refused
 * (`refused`: its requests get 503).
 */
export class ConnectionGuard {
  readonly #limits: ConnectionLimits;
  /** Every open connection, oldest first (a Map keeps insertion order). */
  readonly #open = new Map<Socket, Tracked>();
  readonly #perAddress = new Map<string, Set<Socket>>();
  /** Connections let in past the limits with nothing to shed: their requests get 503. */
  readonly #refused = new WeakSet<Socket>();
  #shed = 0;
  #closedOverAddressCap = 0;

  constructor(limits: ConnectionLimits) {
    this.#limits = limits;
  }

  /** Registers a new connection, shedding an older one when a limit is reached. */
  admit(socket: Socket): void {
    const address = socket.remoteAddress ?? 'unknown';
    const sameAddress = this.#perAddress.get(address) ?? new Set<Socket>();
    if (sameAddress.size >= this.#limits.maxPerAddress) {
      socket.destroy();
      this.#closedOverAddressCap += 1;
      return;
    }
    if (this.#open.size >= this.#limits.maxConnections && !this.#shedOldest(this.#open.keys())) {
      this.#refused.add(socket);
    }
    this.#open.set(socket, { address, busy: false });
    sameAddress.add(socket);
    this.#perAddress.set(address, sameAddress);
    socket.once('close', () => this.#forget(socket, address));
  }

  /** Whether a request on this connection is to be refused: it came past the limits with nothing to shed. */
  refused(socket: Socket): boolean {
    return this.#refused.has(socket);
  }

  /** The connection is answering a verified request (`true`) or no longer (`false`). */
  setBusy(socket: Socket, busy: boolean): void {
    const tracked = this.#open.get(socket);
    if (tracked) tracked.busy = busy;
  }

  get open(): number {
    return this.#open.size;
  }

  /** Connections closed to make room since the start. */
  get shed(): number {
    return this.#shed;
  }

  /** Connections closed on arrival because their address held its cap, since the start. */
  get closedOverAddressCap(): number {
    return this.#closedOverAddressCap;
  }

  /** Closes the oldest connection of `candidates` not answering a verified request; false if none. */
  #shedOldest(candidates: Iterable<Socket>): boolean {
    for (const socket of candidates) {
      if (this.#open.get(socket)?.busy) continue;
      // Forgotten at once, not at 'close', so the room is there for the connection being admitted.
      this.#forget(socket, this.#open.get(socket)?.address ?? 'unknown');
      socket.destroy();
      this.#shed += 1;
      return true;
    }
    return false;
  }

  #forget(socket: Socket, address: string): void {
    if (!this.#open.delete(socket)) return;
    const sameAddress = this.#perAddress.get(address);
    sameAddress?.delete(socket);
    if (sameAddress?.size === 0) this.#perAddress.delete(address);
  }
}
