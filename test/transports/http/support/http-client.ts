import type { Server } from 'node:http';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HttpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as it is; chunks are written one by one (chunked encoding unless a content-length is set). */
  body?: string | Buffer | Buffer[];
}

/** A raw HTTP request with node:http, so tests can send what `fetch` would refuse or fix up. */
export function send(url: string, options: SendOptions = {}): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: options.method ?? 'POST', headers: options.headers ?? {} },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
        incoming.on('error', reject);
      },
    );
    // The server may answer (413) and close before a huge body is written; the answer is what counts.
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    const chunks =
      options.body === undefined ? [] : Array.isArray(options.body) ? options.body : [options.body];
    for (const chunk of chunks) outgoing.write(chunk);
    outgoing.end();
  });
}

/** Starts a server on loopback with an ephemeral port and returns its base URL. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
