import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** A web server on 127.0.0.1 serving the routes a test gives it, recording every request. */
export interface LocalWebServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  routes: Map<string, Route>;
  requests: IncomingMessage[];
  url(path: string): string;
  close(): Promise<void>;
}

export async function startLocalWebServer(routes: Record<string, Route> = {}): Promise<LocalWebServer> {
  const table = new Map(Object.entries(routes));
  const requests: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req);
    const route = table.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (route) route(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    routes: table,
    requests,
    url: (path) => `${origin}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A route answering `body` with `type`. */
export function serve(body: string | Uint8Array, type: string, headers: Record<string, string> = {}): Route {
  return (_req, res) => res.writeHead(200, { 'content-type': type, ...headers }).end(body);
}

/** A route redirecting to `location`. */
export function redirect(location: string, status = 302): Route {
  return (_req, res) => res.writeHead(status, { location }).end();
}
