import type { KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  type APIInteraction,
  type APIInteractionResponse,
  InteractionResponseType,
  InteractionType,
  MessageFlags,
} from 'discord.js';
import { fromApiInteraction } from '../../interactions/from-api.ts';
import type { IncomingInteraction, Responder } from '../../interactions/incoming.ts';
import { admitRequest } from './admit-request.ts';
import { HttpResponder } from './http-responder.ts';
import { EndpointMetrics, type Outcome } from './metrics.ts';
import { ReplayGuard } from './replay-guard.ts';
import { publicKeyFromHex } from './verify-signature.ts';
import { WebhookClient } from './webhook-client.ts';

/** What the endpoint reads of the corpus being served (a `Library` is one); read per request. */
export interface ServedCorpus {
  readonly engine: {
    readonly version: string;
    readonly passageCount: number;
    articles(): readonly unknown[];
  };
  readonly loadedAt: Date;
}

/** Answers one interaction through `responder`; the command layer's dispatcher, bound to its context. */
export type Dispatch = (incoming: IncomingInteraction, responder: Responder) => Promise<void>;

/** Where the endpoint reports what it cannot answer a request about (failed handlers, webhooks). */
export type HttpLog = (level: 'warn' | 'error', message: string, fields: Record<string, unknown>) => void;

export interface InteractionServerOptions {
  /** The application's Ed25519 public key: 64 hex characters as the developer portal shows it, or a key. */
  publicKey: string | KeyObject;
  /** The corpus being served, for `/healthz` and `/metrics`. */
  library: ServedCorpus;
  /** Runs the command an interaction asks for. */
  dispatch: Dispatch;
  /** Discord's REST base URL (`DISCORD_API_BASE`), for the webhook follow-ups of deferred answers. */
  apiBase: string;
  /**
   * The application id used in webhook routes.
   * @default the `application_id` of each (signed) interaction
   */
  applicationId?: string;
  /**
   * Largest request body accepted; larger ones get 413 and are not read further. Discord's largest
   * payloads (a context menu on a long message with embeds) stay far below it.
   * @default 262_144 (256 KiB)
   */
  maxBodyBytes?: number;
  /**
   * How far `X-Signature-Timestamp` may be from this machine's clock, in seconds.
   * @default 300
   */
  timestampToleranceSeconds?: number;
  /**
   * If a handler has not answered after this long, the endpoint defers for it, since Discord fails an
   * interaction not answered within 3 seconds; its answer then arrives through the webhook.
   * @default 2_000
   */
  deferAfterMs?: number;
  /** @default JSON lines on stderr */
  log?: HttpLog;
  /** Stands in for global `fetch` in webhook calls. */
  fetch?: typeof fetch;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;
const APOLOGY = 'Sorry, something went wrong while answering. Please try again in a moment.';

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
  };
  const metrics = new EndpointMetrics();
  const webhook = new WebhookClient({
    apiBase: options.apiBase,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const log = options.log ?? logToStderr;
  const deferAfterMs = options.deferAfterMs ?? 2_000;
  const reloads = new ReloadCounter();
  const startedAt = Date.now();

  const serveInteraction = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const started = process.hrtime.bigint();
    const finish = (command: string, outcome: Outcome): void => {
      metrics.record(command, outcome, Number(process.hrtime.bigint() - started) / 1e9);
    };
    const admitted = await admitRequest(request, admission);
    if (!admitted.admitted) {
      // A refused body may still be arriving; closing is cheaper than reading it to keep the connection.
      const headers = admitted.status === 413 ? { ...JSON_HEADERS, connection: 'close' } : JSON_HEADERS;
      sendJson(response, admitted.status, { error: admitted.message }, headers);
      finish('none', admitted.outcome);
      return;
    }
    const raw = parseInteraction(admitted.body);
    if (raw === undefined) {
      sendJson(response, 400, { error: 'body is not an interaction' });
      finish('none', 'bad_request');
      return;
    }
    if (raw.type === InteractionType.Ping) {
      sendJson(response, 200, { type: InteractionResponseType.Pong });
      finish('ping', 'answered');
      return;
    }
    let incoming: IncomingInteraction | null;
    try {
      incoming = fromApiInteraction(raw);
    } catch (error) {
      log('warn', 'interaction payload not understood', { interaction: raw.id, error: String(error) });
      sendJson(response, 400, { error: 'interaction payload not understood' });
      finish('none', 'bad_request');
      return;
    }
    reloads.observe(options.library.engine);
    const command = commandLabel(raw);
    let failed = false;
    const responder = new HttpResponder({
      applicationId: options.applicationId ?? raw.application_id,
      token: raw.token,
      webhook,
      respond: (body) => {
        const sent = sendJson(response, 200, body);
        finish(
          command,
          failed
            ? 'failed'
            : body.type === InteractionResponseType.DeferredChannelMessageWithSource ||
                body.type === InteractionResponseType.DeferredMessageUpdate
              ? 'deferred'
              : 'answered',
        );
        return sent;
      },
    });
    if (incoming === null) {
      await responder.reply({
        content: 'Newsdesk does not handle this kind of interaction.',
        flags: MessageFlags.Ephemeral,
      });
      return;
    }
    const kind =
      incoming.kind === 'autocomplete' ? 'autocomplete' : incoming.kind === 'button' ? 'update' : 'message';
    const deadline = setTimeout(() => {
      responder
        .autoDefer(kind)
        .catch((error: unknown) =>
          log('error', 'automatic defer failed', { interaction: raw.id, error: String(error) }),
        );
    }, deferAfterMs);
    try {
      await options.dispatch(incoming, responder);
      if (responder.firstResponse === undefined) throw new Error('handler returned without answering');
    } catch (error) {
      log('error', 'interaction failed', { interaction: raw.id, command, error: errorText(error) });
      failed = responder.firstResponse === undefined;
      await apologise(responder, incoming).catch((apologyError: unknown) =>
        log('error', 'could not apologise for a failed interaction', {
          interaction: raw.id,
          error: errorText(apologyError),
        }),
      );
    } finally {
      clearTimeout(deadline);
    }
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

  const serveMetrics = (response: ServerResponse): void => {
    const engine = options.library.engine;
    reloads.observe(engine);
    const text = metrics.render({
      version: engine.version,
      articles: engine.articles().length,
      passages: engine.passageCount,
      loadedAt: options.library.loadedAt,
      reloads: reloads.count,
    });
    response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
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

  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/';
    const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
    if (!route) {
      sendJson(response, 404, { error: 'not found' });
      return;
    }
    if (!route.methods.includes(request.method ?? '')) {
      sendJson(
        response,
        405,
        { error: 'method not allowed' },
        { ...JSON_HEADERS, allow: route.methods.join(', ') },
      );
      return;
    }
    Promise.resolve()
      .then(() => route.serve(request, response))
      .catch((error: unknown) => {
        log('error', 'request failed', { path, error: errorText(error) });
        if (!response.headersSent) sendJson(response, 500, { error: 'internal error' });
        else response.destroy();
      });
  });
  // Discord delivers whole requests at once; a client trickling one in is holding a socket for nothing.
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
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
    if (!/^\d{5,25}$/.test(fields.application_id) || !/^[\w.-]{1,500}$/.test(fields.token)) return undefined;
  }
  // The signature proves Discord sent it, so its shape is Discord's documented one.
  return value as APIInteraction;
}

/** The metrics label of an interaction: the command's name, or a button's action (its custom id's prefix). */
function commandLabel(raw: APIInteraction): string {
  if (
    raw.type === InteractionType.ApplicationCommand ||
    raw.type === InteractionType.ApplicationCommandAutocomplete
  ) {
    return raw.data.name;
  }
  if (raw.type === InteractionType.MessageComponent) {
    const action = /^[A-Za-z0-9_-]{1,32}/.exec(raw.data.custom_id)?.[0] ?? 'unknown';
    return `button:${action}`;
  }
  return 'other';
}

async function apologise(responder: HttpResponder, incoming: IncomingInteraction): Promise<void> {
  if (incoming.kind === 'autocomplete') return responder.autocomplete([]);
  const payload = { content: APOLOGY, flags: MessageFlags.Ephemeral };
  if (responder.firstResponse === 'deferred') return responder.editReply(payload);
  return responder.reply(payload);
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

function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function logToStderr(level: string, message: string, fields: Record<string, unknown>): void {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
}
