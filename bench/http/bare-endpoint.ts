import type { KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { admitRequest } from '../../src/transports/http/admit-request.ts';
import { ReplayGuard } from '../../src/transports/http/replay-guard.ts';

const PONG = JSON.stringify({ type: 1 });

/**
 * The benchmark's peer: an endpoint that only verifies requests, with the very admission code of the
 * real one (content type, body limit, Ed25519, timestamp, replay), and answers PONG to all of them.
 * The gap between the two is what commands, search and rendering cost.
 */
export function createBareEndpoint(publicKey: KeyObject): Server {
  const admission = { publicKey, maxBodyBytes: 262_144, replayGuard: new ReplayGuard() };
  return createServer((request, response) => {
    admitRequest(request, admission).then(
      (admitted) => {
        if (!admitted.admitted) {
          response.writeHead(admitted.status, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: admitted.message }));
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': PONG.length });
        response.end(PONG);
      },
      () => {
        response.writeHead(500).end();
      },
    );
  });
}
