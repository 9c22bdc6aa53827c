import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** The attacks of issue 31 items 3 and 4 on the endpoint's connections, each from loopback only. */
export const ATTACKS = ['idle', 'trickle', 'held-body', 'pipelined'] as const;
export type AttackKind = (typeof ATTACKS)[number];

export interface AttackOptions {
  kind: AttackKind;
  port: number;
  /** Sockets kept open at once; each is reopened as soon as the endpoint closes it. */
  sockets: number;
  /**
   * Loopback addresses the sockets come from (127.0.0.2 onwards), spread evenly: one address is one
   * attacker; several stand for many, which a cap per address alone would not stop.
   */
  sources: number;
  /** Bytes a second each pipelining socket writes (`pipelined` only). */
  bytesPerSecond?: number;
}

export interface RunningAttack {
  /** Sockets the endpoint closed, each then reopened. */
  reopened(): number;
  stop(): Promise<void>;
}

const MAX_BODY = 262_144;

/** Headers of a POST shaped like Discord's but signed by nobody. */
function forgedHead(contentLength: number): string {
  return [
    'POST /interactions HTTP/1.1',
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    `X-Signature-Ed25519: ${'ab'.repeat(64)}`,
    `X-Signature-Timestamp: ${Math.floor(Date.now() / 1000)}`,
    `Content-Length: ${contentLength}`,
    '',
    '',
  ].join('\r\n');
}

/**
 * Opens `sockets` connections doing `kind` and keeps that many open until stopped:
 * - `idle`: connect and send nothing;
 * - `trickle`: a request line, then one header line every half second, never finishing;
 * - `held-body`: forged headers and all but one byte of a 256 KiB body, then nothing (holding the
 *   budget of unverified bytes);
 * - `pipelined`: forged 1 KiB requests back to back at `bytesPerSecond`, reading nothing of the answers.
 */
export function startAttack(options: AttackOptions): RunningAttack {
  let stopped = false;
  let reopened = 0;
  const open = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const pipelinedChunk = Buffer.from(
    Array.from({ length: 50 }, () => `${forgedHead(1024)}${'{'.padEnd(1024, ' ')}`).join(''),
  );
  const heldBody = Buffer.alloc(MAX_BODY - 1, 0x20);

  const launch = (slot: number): void => {
    if (stopped) return;
    const socket = connect({
      port: options.port,
      host: '127.0.0.1',
      localAddress: `127.0.0.${2 + (slot % options.sources)}`,
    });
    open.add(socket);
    socket.on('error', () => undefined);
    // The answers are not read by an attacker, but draining them keeps this process's memory flat.
    socket.on('data', () => undefined);
    socket.once('close', () => {
      open.delete(socket);
      if (stopped) return;
      reopened += 1;
      // A short pause, as a real client's reconnect would have; it also keeps a refused socket from
      // spinning this process.
      const timer = setTimeout(() => {
        timers.delete(timer);
        launch(slot);
      }, 20);
      timers.add(timer);
    });
    socket.once('connect', () => {
      switch (options.kind) {
        case 'idle':
          break;
        case 'trickle': {
          socket.write('POST /interactions HTTP/1.1\r\nHost: 127.0.0.1\r\n');
          let n = 0;
          const timer = setInterval(() => {
            if (socket.destroyed) clearInterval(timer);
            else socket.write(`X-Trickle-${n++}: x\r\n`);
          }, 500);
          socket.once('close', () => clearInterval(timer));
          break;
        }
        case 'held-body':
          socket.write(forgedHead(MAX_BODY));
          socket.write(heldBody);
          break;
        case 'pipelined':
          void pipeline(socket, pipelinedChunk, options.bytesPerSecond ?? 5 * 2 ** 20);
          break;
      }
    });
  };

  for (let slot = 0; slot < options.sockets; slot++) launch(slot);
  return {
    reopened: () => reopened,
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      for (const socket of open) socket.destroy();
      await sleep(200);
    },
  };
}

/** Writes `chunk` again and again at about `bytesPerSecond`, waiting whenever the socket is full. */
async function pipeline(socket: Socket, chunk: Buffer, bytesPerSecond: number): Promise<void> {
  const interval = (chunk.length / bytesPerSecond) * 1000;
  while (!socket.destroyed) {
    const started = performance.now();
    if (!socket.write(chunk)) await drainedOrClosed(socket);
    await sleep(Math.max(0, interval - (performance.now() - started)));
  }
}

function drainedOrClosed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}
