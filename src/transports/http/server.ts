import type { KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  type APIInteraction,
  type APIInteractionResponse,
  InteractionResponseType,
  InteractionType,
} from 'discord.js';
import {
  APOLOGY,
  type DispatchContext,
  type DispatchOutcome,
  dispatchInteraction,
} from '../../interactions/dispatch.ts';
import { fromApiInteraction } from '../../interactions/from-api.ts';
import type { IncomingInteraction } from '../../interactions/incoming.ts';
import type { LibraryView } from '../../interactions/library-view.ts';
import { ephemeral, finalizeReply } from '../../interactions/render/payload.ts';
import type { Logger } from '../../logging/logger.ts';
import { admitRequest } from './admit-request.ts';
import { ByteBudget } from './byte-budget.ts';
import { type FirstResponse, HttpResponder } from './http-responder.ts';
import { LogThrottle } from './log-throttle.ts';
import { EndpointMetrics, type Outcome } from './metrics.ts';
import { ReplayGuard } from './replay-guard.ts';
import { publicKeyFromHex } from './verify-signature.ts';
import { WebhookClient } from './webhook-client.ts';

export interface InteractionServerOptions {
  /** The application's Ed25519 public key: 64 hex characters as the developer portal shows it, or a key. */
  publicKey: string | KeyObject;
  /** The corpus being served (a `Library`): read per request, so a reload takes effect at once. */
  library: LibraryView;
  /**
   * Everything else the command dispatcher needs: commands, config, logger, rate limiter, clock.
   * Its `logger` also receives the endpoint's own warnings and errors.
   */
  context: Omit<DispatchContext, 'library'>;
  /** Discord's REST base URL (`DISCORD_API_BASE`), for the webhook follow-ups of deferred answers. */
  apiBase: string;
  /**
   * The application id used in webhook routes.
   * @default the `application_id` of each (signed) interaction
   */
  applicationId?: string;
  /**
   * Largest request body accepted; larger ones get 413 and are not read further. Discord's largest
   * payloads, a context menu on a long message with embeds, are some tens of kilobytes.
   * @default 262_144 (256 KiB)
   */
  maxBodyBytes?: number;
  /**
   * How far `X-Signature-Timestamp` may be from this machine's clock, in seconds.
   * @default 300
   */
  timestampToleranceSeconds?: number;
  /**
   * Safety net under the dispatcher's own deferral (`context.deferAfterMs`, 2 s): if nothing has
   * answered after this long, the endpoint acknowledges for it, since Discord fails an interaction not
   * answered within 3 seconds (autocomplete gets no choices; a slow button a deferred update).
   * @default 2_500
   */
  acknowledgeAfterMs?: number;
  /**
   * Connections open at once; requests arriving on connections past it get 503 and are not read.
   * @default 512
   */
  maxConnections?: number;
  /**
   * Bytes that requests not yet verified may buffer together; a request that would go past it gets
   * 503. Signed requests are small: this is room for a hundred of the largest at once.
   * @default 16 MiB
   */
  maxUnverifiedBytes?: number;
  /** Stands in for global `fetch` in webhook calls. */
  fetch?: typeof fetch;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;
const CLOSING_JSON_HEADERS = { ...JSON_HEADERS, connection: 'close' } as const;

/**
 * The HTTP interactions endpoint: `POST /interactions` (signed by Discord), `GET /healthz` and
 * `GET /metrics`. Stateless apart from the replay memory, so replicas can share one application.
 * Returns the server unstarted: call `listen()`.
 */
export function createInteractionServer(options: InteractionServerOptions): Server {
  const publicKey =
    typeof options.publicKey === 'string' ? publicKeyFromHex(options.publicKey) : options.publicKey;
  const admission = {
    publicKey,
    maxBodyBytes: options.maxBodyBytes ?? 262_144,
    replayGuard: new ReplayGuard({ toleranceSeconds: options.timestampToleranceSeconds ?? 300 }),
    unverifiedBytes: new ByteBudget(options.maxUnverifiedBytes ?? 16 * 2 ** 20),
  };
  const maxConnections = options.maxConnections ?? 512;
  let connections = 0;
  const metrics = new EndpointMetrics();
  const webhook = new WebhookClient({
    apiBase: options.apiBase,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const logger: Logger = options.context.logger;
  const refusals = new LogThrottle(logger);
  const context: DispatchContext = { ...options.context, library: options.library };
  const acknowledgeAfterMs = options.acknowledgeAfterMs ?? 2_500;
  const reloads = new ReloadCounter();
  const startedAt = performance.timeOrigin;

  /**
   * Admits and reads one POST: refused, malformed and PING requests are answered here (`undefined`);
   * anything else comes back as the interaction to dispatch (`incoming` null for a kind not handled).
   */
  const readInteraction = async (
    request: IncomingMessage,
    response: ServerResponse,
    finish: (command: string, outcome: Outcome) => void,
  ): Promise<{ raw: APIInteraction; incoming: IncomingInteraction | null } | undefined> => {
    const admitted = await admitRequest(request, admission);
    if (!admitted.admitted) {
      // An unread body may still be arriving; closing is cheaper than reading it to keep the connection.
      const headers = admitted.bodyUnread ? CLOSING_JSON_HEADERS : JSON_HEADERS;
      sendJson(response, admitted.status, { error: admitted.message }, headers);
      finish('none', admitted.outcome);
      if (admitted.outcome === 'aborted' || admitted.outcome === 'overloaded') {
        // Worth an operator's attention, but anyone can cause them: one line per kind per 10 s.
        refusals.warn(admitted.outcome, 'request refused', {
          status: admitted.status,
          reason: admitted.message,
        });
      } else {
        // Debug only: Discord's own probes send forged requests, and a flood must not flood the log too.
        logger.debug('request refused', { status: admitted.status, reason: admitted.message });
      }
      return undefined;
    }
    const raw = parseInteraction(admitted.body);
    if (raw === undefined) {
      sendJson(response, 400, { error: 'body is not an interaction' });
      finish('none', 'bad_request');
      return undefined;
    }
    if (raw.type === InteractionType.Ping) {
      sendJson(response, 200, { type: InteractionResponseType.Pong });
      finish('ping', 'answered');
      return undefined;
    }
    try {
      return { raw, incoming: fromApiInteraction(raw) };
    } catch (error) {
      logger.warn('interaction payload not understood', {
        interaction: raw.id,
        reason: error instanceof Error ? error.message : String(error),
      });
      sendJson(response, 400, { error: 'interaction payload not understood' });
      finish('none', 'bad_request');
      return undefined;
    }
  };

  /** Dispatches, acknowledging for the handler if it has not answered within `acknowledgeAfterMs`. */
  const dispatchBeforeDeadline = async (
    raw: APIInteraction,
    incoming: IncomingInteraction,
    responder: HttpResponder,
  ): Promise<DispatchOutcome> => {
    const kind =
      incoming.kind === 'autocomplete' ? 'autocomplete' : incoming.kind === 'button' ? 'update' : 'message';
    const deadline = setTimeout(() => {
      responder
        .autoDefer(kind)
        .catch((error: unknown) =>
          logger.error('could not acknowledge a slow interaction', { interaction: raw.id, error }),
        );
    }, acknowledgeAfterMs);
    try {
      // Documented never to reject (every failure becomes a private reply); this is belt and braces.
      return await dispatchInteraction(incoming, responder, context);
    } catch (error) {
      logger.error('dispatcher rejected', { interaction: raw.id, error });
      return { name: 'unknown', outcome: 'error' };
    } finally {
      clearTimeout(deadline);
    }
  };

  const serveInteraction = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const started = process.hrtime.bigint();
    const read = await readInteraction(request, response, (command, outcome) =>
      metrics.record(command, outcome, elapsedSeconds(started)),
    );
    if (read === undefined) return;
    const { raw, incoming } = read;
    reloads.observe(options.library.engine);
    let respondedAfter = 0;
    const responder = new HttpResponder({
      applicationId: options.applicationId ?? raw.application_id,
      token: raw.token,
      webhook,
      respond: (body) => {
        respondedAfter = elapsedSeconds(started);
        return sendJson(response, 200, body);
      },
    });
    if (incoming === null) {
      await responder.reply(
        finalizeReply(ephemeral({ content: 'Newsdesk does not handle this kind of interaction.' })),
      );
      metrics.record(rawLabel(raw), 'ignored', respondedAfter);
      return;
    }
    let result = await dispatchBeforeDeadline(raw, incoming, responder);
    if (responder.firstResponse === undefined) {
      logger.error('interaction ended without an answer', { interaction: raw.id, command: result.name });
      await responder.reply(finalizeReply(ephemeral({ content: APOLOGY })));
      result = { ...result, outcome: 'error' };
    }
    metrics.record(result.name, outcomeOf(result, responder.firstResponse), respondedAfter);
  };

  const serveHealth = (response: ServerResponse): void => {
    const engine = options.library.engine;
    reloads.observe(engine);
    sendJson(response, 200, {
      status: 'ok',
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      corpus: {
        version: engine.version,
        articles: engine.articles().length,
        passages: engine.passageCount,
        loadedAt: options.library.loadedAt.toISOString(),
      },
    });
  };

  const serveMetrics = async (response: ServerResponse): Promise<void> => {
    const engine = options.library.engine;
    reloads.observe(engine);
    const text = await metrics.render({
      version: engine.version,
      articles: engine.articles().length,
      passages: engine.passageCount,
      loadedAt: options.library.loadedAt,
      reloads: reloads.count,
    });
    response.writeHead(200, { 'content-type': metrics.contentType });
    response.end(text);
  };

  const routes: Record<
    string,
    { methods: string[]; serve: (request: IncomingMessage, response: ServerResponse) => unknown }
  > = {
    '/interactions': { methods: ['POST'], serve: serveInteraction },
    '/healthz': { methods: ['GET', 'HEAD'], serve: (_request, response) => serveHealth(response) },
    '/metrics': { methods: ['GET', 'HEAD'], serve: (_request, response) => serveMetrics(response) },
  };

  // Node checks headersTimeout and requestTimeout only this often (30 s by default), which let a client
  // trickling its headers hold a socket for 40 s against a 10 s limit.
  const server = createServer({ connectionsCheckingInterval: 1_000 }, (request, response) => {
    if (connections > maxConnections) {
      sendJson(response, 503, { error: 'too many connections; try again' }, CLOSING_JSON_HEADERS);
      metrics.record('none', 'overloaded', 0);
      refusals.warn('connections', 'request refused', {
        status: 503,
        reason: 'too many connections',
        connections,
      });
      return;
    }
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/';
    const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
    if (!route) {
      sendJson(response, 404, { error: 'not found' }, CLOSING_JSON_HEADERS);
      return;
    }
    if (!route.methods.includes(request.method ?? '')) {
      sendJson(
        response,
        405,
        { error: 'method not allowed' },
        { ...CLOSING_JSON_HEADERS, allow: route.methods.join(', ') },
      );
      return;
    }
    Promise.resolve()
      .then(() => route.serve(request, response))
      .catch((error: unknown) => {
        logger.error('request failed', { path, error });
        if (!response.headersSent) sendJson(response, 500, { error: 'internal error' });
        else response.destroy();
      });
  });
  // Discord delivers whole requests at once; a client trickling one in is holding a socket for nothing.
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  server.on('connection', (socket: Socket) => {
    connections += 1;
    socket.once('close', () => {
      connections -= 1;
    });
  });
  return server;
}

/** Counts engine swaps seen by the endpoint, i.e. corpus reloads that took effect. */
class ReloadCounter {
  #engine: object | undefined;
  count = 0;

  observe(engine: object): void {
    if (this.#engine !== undefined && this.#engine !== engine) this.count += 1;
    this.#engine = engine;
  }
}

/** The parsed interaction, or `undefined` when the JSON is malformed or not shaped like one. */
function parseInteraction(body: Buffer): APIInteraction | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const fields = value as Record<string, unknown>;
  if (typeof fields.type !== 'number' || typeof fields.id !== 'string') return undefined;
  if (fields.type !== InteractionType.Ping) {
    if (typeof fields.token !== 'string' || typeof fields.application_id !== 'string') return undefined;
    if (!/^\d{5,25}$/.test(fields.application_id) || fields.token === '' || fields.token.length > 1000) {
      return undefined;
    }
  }
  // The signature proves Discord sent it, so its shape is Discord's documented one.
  return value as APIInteraction;
}

/** The metrics label of an interaction the dispatcher does not handle. */
function rawLabel(raw: APIInteraction): string {
  return raw.type === InteractionType.MessageComponent ? 'component' : 'other';
}

/** The counter's outcome: how the dispatcher ended, and for a success how it was answered. */
function outcomeOf(result: DispatchOutcome, first: FirstResponse | undefined): Outcome {
  if (result.outcome === 'user-error') return 'refused';
  if (result.outcome === 'error') return 'failed';
  return first === 'deferred' ? 'deferred' : 'answered';
}

function elapsedSeconds(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Writes a JSON response; resolves when it has been handed to the socket (or the socket is gone). */
function sendJson(
  response: ServerResponse,
  status: number,
  body: APIInteractionResponse | Record<string, unknown>,
  headers: Record<string, string> = JSON_HEADERS,
): Promise<void> {
  const text = JSON.stringify(body);
  return new Promise((resolve) => {
    response.once('close', resolve);
    response.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(text) });
    response.end(text, resolve);
  });
}
