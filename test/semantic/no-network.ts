import dns from 'node:dns';
import net from 'node:net';

/** What tried to reach the network while it was blocked. */
export interface NetworkBlock {
  attempts: string[];
  restore(): void;
}

/**
 * Makes the network unreachable from this thread: every socket connect, DNS lookup and `fetch` fails at
 * once and is recorded. Node's HTTP clients, `node-fetch` and undici all connect through `net.Socket`.
 */
export function blockNetwork(): NetworkBlock {
  const attempts: string[] = [];
  const connect = net.Socket.prototype.connect;
  const lookup = dns.lookup;
  const fetch = globalThis.fetch;
  net.Socket.prototype.connect = function blocked(this: net.Socket, ...args: unknown[]) {
    attempts.push(`connect ${JSON.stringify(args[0])}`);
    throw new Error('network blocked by the test');
  } as typeof connect;
  dns.lookup = ((hostname: string) => {
    attempts.push(`lookup ${hostname}`);
    throw new Error('network blocked by the test');
  }) as unknown as typeof dns.lookup;
  globalThis.fetch = (async (input: unknown) => {
    attempts.push(`fetch ${String(input)}`);
    throw new Error('network blocked by the test');
  }) as typeof globalThis.fetch;
  return {
    attempts,
    restore() {
      net.Socket.prototype.connect = connect;
      dns.lookup = lookup;
      globalThis.fetch = fetch;
    },
  };
}
