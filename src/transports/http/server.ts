import type { KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  type APIInteraction,
  type APIInteractionResponse,
  InteractionResponseType,
  InteractionType,
} from 'discord.js';
import type { ServiceHealth } from '../../health.ts';
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
import { type AdmissionOptions, admitRequest, type Refusal } from './admit-request.ts';
import { ByteBudget } from './byte-budget.ts';
import { ConnectionGuard } from './connection-guard.ts';
import { type FirstResponse, HttpResponder } from './http-responder.ts';
import { LogThrottle } from './log-throttle.ts';
import { EndpointMetrics, type Outcome } from './metrics.ts';
import { ReplayGuard, type ReplayMemory } from './replay-guard.ts';
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
   * Connections open at once. A connection past it closes the oldest one not answering a verified
   * request (idle, or still sending a request); only when every one is answering, its requests get 503.
   * @default 512
   */
  maxConnections?: number;
  /**
   * Connections open at once from one remote address; one more from it is closed at once, unread.
   * Behind a reverse proxy every connection comes from the proxy's address: give it `maxConnections`
   * there.
   * @default 32
   */
  maxConnectionsPerAddress?: number;
  /**
   * How long a connection may take to deliver a whole request (headers and body), in milliseconds.
   * Discord sends each request whole and waits 3 seconds for the answer: a request still arriving
   * after 2 is only holding a connection.
   * @default 2_000
   */
  unfinishedRequestMs?: number;
  /**
   * Requests one connection may carry before the endpoint closes it (keep-alive), so one connection
   * cannot pipeline requests without end.
   * @default 100
   */
  maxRequestsPerConnection?: number;
  /**
   * Bytes that requests not yet verified may buffer together; a request that needs room past it
   * closes the oldest requests holding some. Signed requests are small: this is room for a hundred of
   * the largest at once.
   * @default 16 MiB
   */
  maxUnverifiedBytes?: number;
  /**
   * A server to serve `GET /metrics` on instead of this one (METRICS_PORT), which then answers 404
   * for it: the counters stay off the public port. Unstarted; the caller listens.
   * @default `/metrics` on this server
   */
  metricsServer?: Server;
  /** Stands in for global `fetch` in webhook calls. */
  fetch?: typeof fetch;
  /**
   * The replay memory, given one every replica shares (REDIS_URL).
   * @default a `ReplayGuard` of this process, with `timestampToleranceSeconds`
   */
  replayGuard?: ReplayMemory;
  /**
   * What `/healthz` adds: the dependencies replicas share and whether this replica serves the corpus
   * version they announced. `status` becomes `degraded` when one of them is.
   */
  health?: () => ServiceHealth;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;
/** Requests one keep-alive connection carries by default; Node answers 503 to any sent after them. */
export const DEFAULT_MAX_REQUESTS_PER_CONNECTION = 100;

const CLOSING_JSON_HEADERS = { ...JSON_HEADERS, connection: 'close' } as const;
const NOT_HANDLED = 'Newsdesk does not handle this kind of interaction.';

/**
 * The HTTP interactions endpoint: `POST /interactions` (signed by Discord), `GET /healthz` and
 * `GET /metrics`. Stateless apart from the replay memory, so replicas can share one application.
 * Returns the server unstarted: call `listen()`.
 */
export function createInteractionServer(options: InteractionServerOptions): Server {
  const guard = new ConnectionGuard({
    maxConnections: options.maxConnections ?? 512,
    maxPerAddress: options.maxConnectionsPerAddress ?? 32,
  });
  const endpoint = new InteractionEndpoint(options, guard);
  // Node checks headersTimeout and requestTimeout only this often (30 s by default), which let a client
  // trickling its headers hold a socket for 40 s against a 10 s limit.
  const silent = new WeakMap<Socket, NodeJS.Timeout>();
  const server = createServer({ connectionsCheckingInterval: 500 }, (request, response) => {
    clearTimeout(silent.get(request.socket));
    if (guard.refused(request.socket)) endpoint.refuseOverloaded(response, guard.open);
    else endpoint.route(request, response);
  });
  // Discord delivers whole requests at once; a client trickling one in, or sending nothing, is holding
  // a socket for nothing (10 s here let 600 idle sockets, reopened as they closed, shut Discord out).
  const unfinishedMs = options.unfinishedRequestMs ?? 2_000;
  server.requestTimeout = unfinishedMs;
  server.headersTimeout = unfinishedMs;
  server.maxRequestsPerSocket = options.maxRequestsPerConnection ?? DEFAULT_MAX_REQUESTS_PER_CONNECTION;
  server.on('connection', (socket: Socket) => {
    guard.admit(socket);
    // Node's header deadline starts with a request's first byte: a connection that sends nothing at all
    // is closed here, unless its first request has begun by then.
    const timer = setTimeout(() => socket.destroy(), unfinishedMs).unref();
    silent.set(socket, timer);
    socket.once('close', () => clearTimeout(timer));
  });
  options.metricsServer?.on('request', (request: IncomingMessage, response: ServerResponse) =>
    endpoint.routeMetrics(request, response),
  );
  return server;
}

type Route = { methods: string[]; serve: (request: IncomingMessage, response: ServerResponse) => unknown };

/** What the endpoint serves, request by request; `createInteractionServer` puts it on a socket. */
class InteractionEndpoint {
  readonly #options: InteractionServerOptions;
  readonly #admission: AdmissionOptions;
  readonly #metrics = new EndpointMetrics();
  readonly #webhook: WebhookClient;
  readonly #logger: Logger;
  readonly #refusals: LogThrottle;
  readonly #context: DispatchContext;
  readonly #acknowledgeAfterMs: number;
  readonly #reloads = new ReloadCounter();
  readonly #startedAt = performance.timeOrigin;
  readonly #routes: Record<string, Route> = {
    '/interactions': {
      methods: ['POST'],
      serve: (request, response) => this.#serveInteraction(request, response),
    },
    '/healthz': { methods: ['GET', 'HEAD'], serve: (_request, response) => this.#serveHealth(response) },
  };
  readonly #metricsRoutes: Record<string, Route> = {
    '/metrics': { methods: ['GET', 'HEAD'], serve: (_request, response) => this.#serveMetrics(response) },
  };

  readonly #guard: ConnectionGuard;
  /**
   * Per connection, the admission of its latest request: whether it was admitted. Node emits every
   * request pipelined in what a socket delivered at once, so fifty forged requests in one write were
   * fifty signature checks, of which only the first answer was ever sent (50 connections pipelining
   * at 5 MB/s pushed genuine PINGs to p50 473 ms). A connection's requests are admitted one after
   * another, and none after a refusal, which closes it.
   */
  readonly #admissions = new WeakMap<Socket, Promise<boolean>>();

  constructor(options: InteractionServerOptions, guard: ConnectionGuard) {
    this.#options = options;
    this.#guard = guard;
    const publicKey =
      typeof options.publicKey === 'string' ? publicKeyFromHex(options.publicKey) : options.publicKey;
    this.#admission = {
      publicKey,
      maxBodyBytes: options.maxBodyBytes ?? 262_144,
      replayGuard:
        options.replayGuard ??
        new ReplayGuard({ toleranceSeconds: options.timestampToleranceSeconds ?? 300 }),
      unverifiedBytes: new ByteBudget(options.maxUnverifiedBytes ?? 16 * 2 ** 20),
    };
    this.#webhook = new WebhookClient({ apiBase: options.apiBase, fetch: options.fetch });
    this.#logger = options.context.logger;
    this.#refusals = new LogThrottle(this.#logger);
    this.#context = { ...options.context, library: options.library };
    this.#acknowledgeAfterMs = options.acknowledgeAfterMs ?? 2_500;
    if (!options.metricsServer) Object.assign(this.#routes, this.#metricsRoutes);
  }

  /** A request on a connection let in past the limits with none to close for it: 503, not read. */
  refuseOverloaded(response: ServerResponse, connections: number): void {
    sendJson(response, 503, { error: 'too many connections; try again' }, CLOSING_JSON_HEADERS);
    this.#metrics.record('none', 'overloaded', 0);
    this.#refusals.warn('connections', 'request refused', {
      status: 503,
      reason: 'too many connections',
      connections,
    });
  }

  /** Finds the request's route (404, or 405 naming the allowed methods) and serves it; a failure is a 500. */
  route(request: IncomingMessage, response: ServerResponse, routes = this.#routes): void {
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
        this.#logger.error('request failed', { path, error });
        if (!response.headersSent) sendJson(response, 500, { error: 'internal error' });
        else response.destroy();
      });
  }

  /** A request on the metrics server (METRICS_PORT): `/metrics`, and 404 for anything else. */
  routeMetrics(request: IncomingMessage, response: ServerResponse): void {
    this.route(request, response, this.#metricsRoutes);
  }

  /** Reads, dispatches and counts one interaction; every interaction read is answered once. */
  async #serveInteraction(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const read = await this.#readInteraction(request, response, (command, outcome) =>
      this.#metrics.record(command, outcome, elapsedSeconds(started)),
    );
    if (read === undefined) return;
    const { raw, incoming } = read;
    this.#reloads.observe(this.#options.library.engine);
    let respondedAfter = 0;
    const responder = new HttpResponder({
      applicationId: this.#options.applicationId ?? raw.application_id,
      token: raw.token,
      webhook: this.#webhook,
      respond: (body) => {
        respondedAfter = elapsedSeconds(started);
        return sendJson(response, 200, body);
      },
    });
    if (incoming === null) {
      await responder.reply(finalizeReply(ephemeral({ content: NOT_HANDLED })));
      this.#metrics.record(rawLabel(raw), 'ignored', respondedAfter);
      return;
    }
    let result = await this.#dispatchBeforeDeadline(raw, incoming, responder);
    if (responder.firstResponse === undefined) {
      this.#logger.error('interaction ended without an answer', {
        interaction: raw.id,
        command: result.name,
      });
      await responder.reply(finalizeReply(ephemeral({ content: APOLOGY })));
      result = { ...result, outcome: 'error' };
    }
    this.#metrics.record(result.name, outcomeOf(result, responder.firstResponse), respondedAfter);
  }

  /**
   * Admits and reads one POST: refused, malformed and PING requests are answered here (`undefined`);
   * anything else comes back as the interaction to dispatch (`incoming` null for a kind not handled).
   */
  async #readInteraction(
    request: IncomingMessage,
    response: ServerResponse,
    finish: (command: string, outcome: Outcome) => void,
  ): Promise<{ raw: APIInteraction; incoming: IncomingInteraction | null } | undefined> {
    const socket = request.socket;
    const earlier = this.#admissions.get(socket) ?? Promise.resolve(true);
    const admission = earlier.then((open) => (open ? admitRequest(request, this.#admission) : undefined));
    // An admission that failed (the caller answers 500) admits nothing more on this connection.
    this.#admissions.set(
      socket,
      admission.then(
        (admitted) => admitted?.admitted === true,
        () => false,
      ),
    );
    const admitted = await admission;
    if (admitted === undefined) {
      // Pipelined behind a refused request, on a connection being closed: nobody is owed an answer.
      socket.destroy();
      return undefined;
    }
    if (!admitted.admitted) {
      // Closed gracefully (Connection: close) so the refusal reaches the client; a request it pipelined
      // behind this one finds the connection refused above and closes it at once. Destroying it here
      // sent a reset to a client that had already written its next request, losing that request's
      // answer (bench:http: 173 of 989 a second on the 3-article row).
      await this.#refuse(response, admitted);
      finish('none', admitted.outcome);
      return undefined;
    }
    // Discord's own request: its connection is not one to close for room until it has been answered.
    this.#guard.setBusy(socket, true);
    response.once('close', () => this.#guard.setBusy(socket, false));
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
      this.#logger.warn('interaction payload not understood', {
        interaction: raw.id,
        reason: error instanceof Error ? error.message : String(error),
      });
      sendJson(response, 400, { error: 'interaction payload not understood' });
      finish('none', 'bad_request');
      return undefined;
    }
  }

  /** Answers a request admission refused, and logs it without letting a flood flood the log. */
  #refuse(response: ServerResponse, refused: Refusal): Promise<void> {
    // Every refusal closes the connection: an unread body may still be arriving, and a connection kept
    // open after a forged request let one client pipeline forged requests at 5 MB/s (genuine PINGs
    // then took 1.2 s; over fifty connections, 33 s).
    const sent = sendJson(response, refused.status, { error: refused.message }, CLOSING_JSON_HEADERS);
    if (refused.outcome === 'aborted' || refused.outcome === 'overloaded') {
      // Worth an operator's attention, but anyone can cause them: one line per kind per 10 s.
      this.#refusals.warn(refused.outcome, 'request refused', {
        status: refused.status,
        reason: refused.message,
      });
    } else {
      // Debug only: Discord's own probes send forged requests, and a flood must not flood the log too.
      this.#logger.debug('request refused', { status: refused.status, reason: refused.message });
    }
    return sent;
  }

  /** Dispatches, acknowledging for the handler if it has not answered within `acknowledgeAfterMs`. */
  async #dispatchBeforeDeadline(
    raw: APIInteraction,
    incoming: IncomingInteraction,
    responder: HttpResponder,
  ): Promise<DispatchOutcome> {
    const kind =
      incoming.kind === 'autocomplete' ? 'autocomplete' : incoming.kind === 'button' ? 'update' : 'message';
    const deadline = setTimeout(() => {
      responder
        .autoDefer(kind)
        .catch((error: unknown) =>
          this.#logger.error('could not acknowledge a slow interaction', { interaction: raw.id, error }),
        );
    }, this.#acknowledgeAfterMs);
    try {
      // Documented never to reject (every failure becomes a private reply); this is belt and braces.
      return await dispatchInteraction(incoming, responder, this.#context);
    } catch (error) {
      this.#logger.error('dispatcher rejected', { interaction: raw.id, error });
      return { name: 'unknown', outcome: 'error' };
    } finally {
      clearTimeout(deadline);
    }
  }

  #serveHealth(response: ServerResponse): void {
    const { library } = this.#options;
    this.#reloads.observe(library.engine);
    const { degraded, ...dependencies } = this.#options.health?.() ?? {};
    // Still 200 when degraded: the replica answers questions, and a balancer must not drop them all
    // when a dependency they share goes down.
    sendJson(response, 200, {
      status: degraded ? 'degraded' : 'ok',
      ...dependencies,
      uptimeSeconds: Math.round((Date.now() - this.#startedAt) / 1000),
      corpus: {
        version: library.engine.version,
        articles: library.engine.articles().length,
        passages: library.engine.passageCount,
        loadedAt: library.loadedAt.toISOString(),
      },
    });
  }

  async #serveMetrics(response: ServerResponse): Promise<void> {
    const { library } = this.#options;
    this.#reloads.observe(library.engine);
    const text = await this.#metrics.render({
      version: library.engine.version,
      articles: library.engine.articles().length,
      passages: library.engine.passageCount,
      loadedAt: library.loadedAt,
      reloads: this.#reloads.count,
    });
    response.writeHead(200, { 'content-type': this.#metrics.contentType });
    response.end(text);
  }
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
