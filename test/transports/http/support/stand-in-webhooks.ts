import { createServer, type Server } from 'node:http';
import { close, listen } from './http-client.ts';

/** One request the stand-in received. */
export interface WebhookCall {
  method: string;
  path: string;
  body: unknown;
}

/**
 * A tiny local stand-in for Discord's interaction webhook routes (`/api/v10/webhooks/...`): it records
 * every call and answers as Discord does (the message for PATCH/POST, 204 for DELETE).
 */
export class StandInWebhooks {
  readonly calls: WebhookCall[] = [];
  readonly #server: Server;
  readonly #waiters: { count: number; resolve: () => void }[] = [];
  /** `DISCORD_API_BASE` pointing here. */
  apiBase = '';

  constructor() {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        const body: unknown = text ? JSON.parse(text) : undefined;
        this.calls.push({ method: request.method ?? '', path: request.url ?? '', body });
        if (request.method === 'DELETE') {
          response.writeHead(204).end();
        } else {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ id: '9999999999', ...(typeof body === 'object' ? body : {}) }));
        }
        for (const waiter of [...this.#waiters]) {
          if (this.calls.length >= waiter.count) {
            this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
            waiter.resolve();
          }
        }
      });
    });
  }

  async start(): Promise<this> {
    this.apiBase = `${await listen(this.#server)}/api`;
    return this;
  }

  /** Resolves once `count` calls in all have arrived. */
  received(count: number): Promise<WebhookCall[]> {
    if (this.calls.length >= count) return Promise.resolve(this.calls);
    return new Promise((resolve) => this.#waiters.push({ count, resolve: () => resolve(this.calls) }));
  }

  stop(): Promise<void> {
    return close(this.#server);
  }
}
