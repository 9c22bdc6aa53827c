import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  APIAttachment,
  APIInteraction,
  APIMessage,
  APIThreadChannel,
  GatewayIdentifyData,
} from 'discord.js';
import { type WebSocket, WebSocketServer } from 'ws';
import { botUser, guild, ids, userMessage } from './fixtures.ts';

interface RouteRequest {
  method: string;
  match: RegExpExecArray;
  url: URL;
  body: unknown;
  /** The `files[n]` parts of a multipart request. */
  files: Upload[];
  send: (status: number, json?: unknown) => void;
  /** Sends bytes as they are (the attachments' CDN). */
  sendBytes: (status: number, type: string, bytes: Buffer) => void;
}

/** A file the bot uploaded: the multipart part `files[n]` (n is `index`). */
export interface Upload {
  index: number;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A request Discord refuses as an invalid form (400, code 50035), e.g. an attachment that is neither kept nor uploaded. */
class InvalidForm extends Error {}

/** One HTTP request the bot made, as the stand-in received it. */
export interface RecordedRequest {
  method: string;
  /** Path after `/api/v10`, e.g. `/interactions/1/tok/callback`. */
  route: string;
  query: string;
  authorization: string | undefined;
  body: unknown;
  /** Files uploaded with it (multipart `files[n]`). */
  files: Upload[];
}

/** An interaction callback (`POST /interactions/{id}/{token}/callback`): its type and data. */
export interface Callback {
  type: number;
  data?: Record<string, unknown>;
}

/** What the bot answered to one interaction, as it arrives. */
export class Exchange {
  readonly callbacks: Callback[] = [];
  /**
   * Bodies of `PATCH /webhooks/{app}/{token}/messages/@original`: edits of the deferred reply, or after
   * a deferred update (type 6) of the message the button is on.
   */
  readonly edits: Record<string, unknown>[] = [];
  /** Bodies of `POST /webhooks/{app}/{token}` (follow-up messages). */
  readonly followups: Record<string, unknown>[] = [];
  /** The files uploaded with a callback's data, an edit or a follow-up (keyed by that body). */
  readonly uploads = new WeakMap<object, Upload[]>();
  /** The message the bot's reply created (callback type 4, or a deferral once edited). */
  message: APIMessage | undefined;
  /** Ids of the messages deleted through this interaction's `@original`. */
  readonly deleted: string[] = [];
  readonly #waiters: (() => void)[] = [];

  constructor(readonly interaction: APIInteraction) {}

  /** @internal called by the server whenever something arrives for this interaction. */
  notify(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  /** The id of the message the bot deleted in answer (a "Dismiss" press); rejects if none is in time. */
  async deletion(timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const id = this.deleted[0];
      if (id !== undefined) return id;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `Stand-in Discord: no deletion for interaction ${this.interaction.id} within ${timeoutMs} ms; got ${JSON.stringify(
            { callbacks: this.callbacks, edits: this.edits, followups: this.followups },
          )}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /**
   * The bot's final answer: the callback's data for a reply, an update or an autocomplete, or the
   * edit that completed a deferral. Rejects (with everything received so far) if none comes in time.
   */
  async final(
    options: {
      /** For a deferral, the first edit that satisfies this counts (skips progress edits). */
      until?: (data: Record<string, unknown>) => boolean;
      timeoutMs?: number;
    } = {},
  ): Promise<{ type: number; data: Record<string, unknown>; deferred: boolean; files: Upload[] }> {
    // Generous: a reload under load (a new index worker on two shared cores) can take many seconds.
    const timeoutMs = options.timeoutMs ?? 20_000;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const first = this.callbacks[0];
      // 9: a modal shown (its data is the modal); 4, 7, 8: a reply, an update, autocomplete choices.
      if (first && (first.type === 4 || first.type === 7 || first.type === 8 || first.type === 9)) {
        const data = first.data ?? {};
        return { type: first.type, data, deferred: false, files: this.uploads.get(data) ?? [] };
      }
      const edit = this.edits.find(options.until ?? (() => true));
      if (first && (first.type === 5 || first.type === 6) && edit) {
        return { type: first.type, data: edit, deferred: true, files: this.uploads.get(edit) ?? [] };
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `Stand-in Discord: no final answer to interaction ${this.interaction.id} within ${timeoutMs} ms; got ${JSON.stringify(
            { callbacks: this.callbacks, edits: this.edits },
          )}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

/**
 * A local stand-in for Discord: enough of the REST API and the gateway for the unmodified discord.js
 * client to log in, receive interactions and answer them. It records every request so tests can
 * assert on what the bot sent. Listens on 127.0.0.1, port 0.
 */
export class StandInDiscord {
  readonly requests: RecordedRequest[] = [];
  /** The IDENTIFY payloads received, in order. */
  readonly identifies: GatewayIdentifyData[] = [];
  /** Query strings of gateway connections (`v=10&encoding=json`). */
  readonly gatewayQueries: string[] = [];
  /** Messages created by the bot's replies and posts, by id (buttons are pressed on these). */
  readonly messages = new Map<string, APIMessage>();
  /** Ids of the messages the bot deleted (`DELETE .../messages/@original`), in order. */
  readonly deleted: string[] = [];
  /** Application commands registered with `PUT .../commands`, by route. */
  readonly registered = new Map<string, unknown[]>();
  /** The bytes of every attachment the bot uploaded, by attachment id (served at its `url`). */
  readonly attachmentBytes = new Map<string, Buffer>();
  /** Threads the bot started from a message, by thread id (the message's id, as on Discord). */
  readonly threads = new Map<string, APIThreadChannel>();
  /** Refuse this many of the next channel messages (403, Missing Permissions), as for a channel the bot lost access to. */
  failMessages = 0;
  /**
   * Holds an answer: called with each request once it took effect, its answer is sent when the
   * promise it returns settles (none: at once). A test reads what a crash at that moment leaves.
   */
  holdAnswer: ((request: RecordedRequest) => Promise<void> | undefined) | undefined;

  readonly #http: Server;
  readonly #wss: WebSocketServer;
  readonly #token: string;
  readonly #exchanges = new Map<string, Exchange>();
  readonly #sockets = new Set<WebSocket>();
  #socket: WebSocket | undefined;
  #sequence = 0;
  #snowflake = 500000000000000000n;
  #readyWaiters: (() => void)[] = [];
  #sessionReady = false;

  private constructor(token: string) {
    this.#token = token;
    this.#http = createServer((request, response) => {
      void this.#handle(request, response);
    });
    this.#wss = new WebSocketServer({ server: this.#http });
    this.#wss.on('connection', (socket, request) => this.#onConnection(socket, request));
  }

  /** Starts a stand-in that accepts `token` as the bot's token. */
  static async start(options: { token?: string } = {}): Promise<StandInDiscord> {
    const standIn = new StandInDiscord(options.token ?? 'stand-in-token');
    standIn.#http.listen(0, '127.0.0.1');
    await once(standIn.#http, 'listening');
    return standIn;
  }

  get port(): number {
    return (this.#http.address() as AddressInfo).port;
  }

  /** The value for `DISCORD_API_BASE` / discord.js's `rest.api`. */
  get apiBase(): string {
    return `http://127.0.0.1:${this.port}/api`;
  }

  get token(): string {
    return this.#token;
  }

  /** Resolves once a client has identified and been sent READY and its guild. */
  async sessionReady(): Promise<void> {
    if (this.#sessionReady) return;
    await new Promise<void>((resolve) => this.#readyWaiters.push(resolve));
  }

  /** Sends an INTERACTION_CREATE to the connected client and returns the exchange to await. */
  interact(interaction: APIInteraction): Exchange {
    const socket = this.#socket;
    if (!socket) throw new Error('Stand-in Discord: no gateway client connected');
    const exchange = new Exchange(interaction);
    this.#exchanges.set(interaction.token, exchange);
    this.#sequence += 1;
    socket.send(JSON.stringify({ op: 0, t: 'INTERACTION_CREATE', s: this.#sequence, d: interaction }));
    return exchange;
  }

  /**
   * An interaction a test sent to the HTTP endpoint itself, and the endpoint's HTTP response: taken as
   * Discord takes it (a reply creates the message that `GET …/messages/@original` then returns).
   */
  answeredOverHttp(interaction: APIInteraction, response: Callback): Exchange {
    const exchange = this.#exchanges.get(interaction.token) ?? new Exchange(interaction);
    this.#exchanges.set(interaction.token, exchange);
    this.#callback(interaction.token, response);
    return exchange;
  }

  /**
   * Registers an interaction a test is about to send to the HTTP endpoint itself, so that webhook
   * calls arriving before its response is read are kept; `answeredOverHttp` then adds the response.
   */
  expectOverHttp(interaction: APIInteraction): Exchange {
    const exchange = new Exchange(interaction);
    this.#exchanges.set(interaction.token, exchange);
    return exchange;
  }

  /** A fresh snowflake, increasing. */
  nextId(): string {
    this.#snowflake += 1n;
    return this.#snowflake.toString();
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.terminate();
    this.#wss.close();
    this.#http.closeAllConnections();
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }

  #onConnection(socket: WebSocket, request: IncomingMessage): void {
    this.#sockets.add(socket);
    this.#socket = socket;
    const query = new URL(request.url ?? '/', 'http://stand-in').searchParams;
    this.gatewayQueries.push(query.toString());
    // As Discord does: only API v10 (4012 otherwise), and this stand-in speaks only uncompressed JSON.
    if (query.get('v') !== '10') {
      socket.close(4012, 'Invalid API version.');
      return;
    }
    if (query.get('encoding') !== 'json' || query.has('compress')) {
      socket.close(4002, 'Stand-in speaks uncompressed JSON only.');
      return;
    }
    socket.on('close', () => {
      this.#sockets.delete(socket);
      if (this.#socket === socket) this.#socket = undefined;
    });
    socket.send(JSON.stringify({ op: 10, d: { heartbeat_interval: 41_250 }, s: null, t: null }));
    socket.on('message', (raw) => {
      const payload = JSON.parse(String(raw)) as { op: number; d: unknown };
      if (payload.op === 1) socket.send(JSON.stringify({ op: 11 }));
      if (payload.op === 2) this.#identify(socket, payload.d as GatewayIdentifyData);
    });
  }

  /** A gateway event to the connected client (none connected: nothing to tell). */
  #dispatch(t: string, d: unknown): void {
    const socket = this.#socket;
    if (!socket) return;
    this.#sequence += 1;
    socket.send(JSON.stringify({ op: 0, t, s: this.#sequence, d }));
  }

  #identify(socket: WebSocket, identify: GatewayIdentifyData): void {
    this.identifies.push(identify);
    if (identify.token !== this.#token && identify.token !== `Bot ${this.#token}`) {
      socket.close(4004, 'Authentication failed.');
      return;
    }
    const dispatch = (t: string, d: unknown) => {
      this.#sequence += 1;
      socket.send(JSON.stringify({ op: 0, t, s: this.#sequence, d }));
    };
    dispatch('READY', {
      v: 10,
      user: botUser,
      guilds: [{ id: ids.guild, unavailable: true }],
      session_id: 'stand-in-session',
      resume_gateway_url: `ws://127.0.0.1:${this.port}`,
      shard: identify.shard ?? [0, 1],
      application: { id: ids.application, flags: 0 },
    });
    dispatch('GUILD_CREATE', guild());
    this.#sessionReady = true;
    for (const resolve of this.#readyWaiters.splice(0)) resolve();
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const route = decodeURIComponent(url.pathname).replace(/^\/api(\/v\d+)?/, '');
    const { body, files } = await readBody(request);
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      route,
      query: url.searchParams.toString(),
      authorization: request.headers.authorization,
      body,
      files,
    };
    this.requests.push(recorded);
    const send = (status: number, json?: unknown) => {
      const answer = () => {
        response.writeHead(status, json === undefined ? {} : { 'content-type': 'application/json' });
        response.end(json === undefined ? undefined : JSON.stringify(json));
      };
      const held = this.holdAnswer?.(recorded);
      if (held) void held.then(answer, answer);
      else answer();
    };
    const sendBytes = (status: number, type: string, bytes: Buffer) => {
      response.writeHead(status, { 'content-type': type, 'content-length': bytes.byteLength });
      response.end(bytes);
    };
    // The attachments' CDN, like the interaction routes, takes no bot token.
    const needsAuth =
      !route.startsWith('/interactions/') &&
      !route.startsWith('/webhooks/') &&
      !route.startsWith('/attachments/');
    if (needsAuth && request.headers.authorization !== `Bot ${this.#token}`) {
      send(401, { message: '401: Unauthorized', code: 0 });
      return;
    }
    const method = request.method ?? 'GET';
    for (const [routeMethod, pattern, handler] of this.#routes) {
      const match = pattern.exec(route);
      if (match && (routeMethod === '*' || routeMethod === method)) {
        try {
          handler({ method, match, url, body, files, send, sendBytes });
        } catch (error) {
          if (!(error instanceof InvalidForm)) throw error;
          send(400, {
            message: 'Invalid Form Body',
            code: 50035,
            errors: { attachments: { _errors: [{ code: 'ATTACHMENT_NOT_FOUND', message: error.message }] } },
          });
        }
        return;
      }
    }
    send(404, { message: '404: Not Found', code: 0 });
  }

  /** The REST routes the bot uses: method (`*` for any), path pattern, handler. */
  readonly #routes: [string, RegExp, (request: RouteRequest) => void][] = [
    [
      'GET',
      /^\/gateway(\/bot)?$/,
      ({ send }) =>
        send(200, {
          url: `ws://127.0.0.1:${this.port}`,
          shards: 1,
          session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
        }),
    ],
    ['GET', /^\/users\/@me$/, ({ send }) => send(200, botUser)],
    [
      'GET',
      /^\/applications\/@me$/,
      ({ send }) => send(200, { id: ids.application, name: 'Newsdesk', flags: 0, bot: botUser }),
    ],
    [
      'POST',
      /^\/interactions\/(\d+)\/([^/]+)\/callback$/,
      ({ match, url, body, files, send }) => {
        const callback = body as Callback;
        const message = this.#callback(match[2]!, callback, files);
        if (url.searchParams.get('with_response') !== 'true') return send(204);
        // As Discord does: the interaction, and the message the response created or updated.
        send(200, {
          interaction: {
            id: match[1],
            type: 2,
            ...(message
              ? { response_message_id: message.id, response_message_loading: callback.type === 5 }
              : {}),
          },
          ...(message && (callback.type === 4 || callback.type === 7)
            ? { resource: { type: callback.type, message } }
            : {}),
        });
      },
    ],
    [
      '*',
      /^\/webhooks\/(\d+)\/([^/]+)\/messages\/@original$/,
      ({ method, match, body, files, send }) => {
        const exchange = this.#exchanges.get(match[2]!);
        if (!exchange) return send(404, { message: 'Unknown Webhook', code: 10015 });
        if (method === 'PATCH') {
          const edit = body as Record<string, unknown>;
          exchange.message = this.#store(
            exchange.message?.id,
            edit,
            exchange.interaction.channel?.id ?? ids.channel,
            files,
          );
          exchange.uploads.set(edit, files);
          exchange.edits.push(edit);
          exchange.notify();
          send(200, exchange.message);
        } else if (method === 'GET') {
          if (!exchange.message) send(404, { message: 'Unknown Message', code: 10008 });
          else send(200, exchange.message);
        } else if (method === 'DELETE') {
          // As Discord: the message goes (after a deferred update, the button's message).
          if (!exchange.message) return send(404, { message: 'Unknown Message', code: 10008 });
          this.messages.delete(exchange.message.id);
          this.deleted.push(exchange.message.id);
          exchange.deleted.push(exchange.message.id);
          exchange.message = undefined;
          exchange.notify();
          send(204);
        } else send(405, { message: '405: Method Not Allowed', code: 0 });
      },
    ],
    [
      'POST',
      /^\/webhooks\/(\d+)\/([^/]+)$/,
      ({ match, body, files, send }) => {
        const exchange = this.#exchanges.get(match[2]!);
        if (!exchange) return send(404, { message: 'Unknown Webhook', code: 10015 });
        const followup = body as Record<string, unknown>;
        const message = this.#store(
          undefined,
          followup,
          exchange.interaction.channel?.id ?? ids.channel,
          files,
        );
        exchange.uploads.set(followup, files);
        exchange.followups.push(followup);
        exchange.notify();
        send(200, message);
      },
    ],
    [
      'GET',
      /^\/attachments\/(\d+)\/(\d+)\/([^/]+)$/,
      ({ match, send, sendBytes }) => {
        const bytes = this.attachmentBytes.get(match[2]!);
        if (!bytes) return send(404, { message: '404: Not Found', code: 0 });
        sendBytes(200, match[3]!.endsWith('.png') ? 'image/png' : 'application/octet-stream', bytes);
      },
    ],
    [
      'PUT',
      /^\/applications\/(\d+)(\/guilds\/(\d+))?\/commands$/,
      ({ match, body, send }) => {
        const commands = (body as Record<string, unknown>[]).map((command) => ({
          ...command,
          id: this.nextId(),
          application_id: match[1],
          ...(match[3] ? { guild_id: match[3] } : {}),
          version: this.nextId(),
        }));
        this.registered.set(match[0], commands);
        send(200, commands);
      },
    ],
    [
      'POST',
      /^\/channels\/(\d+)\/messages\/(\d+)\/threads$/,
      ({ match, body, send }) => {
        const [, channelId, messageId] = match as unknown as [string, string, string];
        const message = this.messages.get(messageId);
        if (!message || message.channel_id !== channelId)
          return send(404, { message: 'Unknown Message', code: 10008 });
        if (this.threads.has(messageId))
          return send(400, { message: 'A thread has already been created for this message', code: 160004 });
        const { name, auto_archive_duration } = (body ?? {}) as {
          name?: unknown;
          auto_archive_duration?: unknown;
        };
        if (typeof name !== 'string' || name.length < 1 || name.length > 100)
          return send(400, {
            message: 'Invalid Form Body',
            code: 50035,
            errors: {
              name: {
                _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' }],
              },
            },
          });
        // As on Discord: the thread's id is the message's, and the client hears THREAD_CREATE.
        const thread = {
          id: messageId,
          type: 11,
          guild_id: ids.guild,
          parent_id: channelId,
          owner_id: ids.bot,
          name,
          last_message_id: null,
          message_count: 0,
          member_count: 1,
          rate_limit_per_user: 0,
          flags: 0,
          total_message_sent: 0,
          thread_metadata: {
            archived: false,
            auto_archive_duration: typeof auto_archive_duration === 'number' ? auto_archive_duration : 4320,
            archive_timestamp: new Date().toISOString(),
            locked: false,
          },
        } as unknown as APIThreadChannel;
        this.threads.set(thread.id, thread);
        this.messages.set(messageId, { ...message, thread } as APIMessage);
        this.#dispatch('THREAD_CREATE', { ...thread, newly_created: true });
        send(201, thread);
      },
    ],
    [
      'GET',
      /^\/channels\/(\d+)$/,
      ({ match, send }) => {
        const channel = this.channel(match[1]!);
        if (!channel) return send(404, { message: 'Unknown Channel', code: 10003 });
        send(200, channel);
      },
    ],
    [
      'GET',
      /^\/guilds\/(\d+)\/threads\/active$/,
      ({ match, send }) => {
        if (match[1] !== ids.guild) return send(404, { message: 'Unknown Guild', code: 10004 });
        // As "List Active Guild Threads": every thread of the guild not archived, ordered by id, descending.
        const threads = [...this.threads.values()]
          .filter((thread) => thread.thread_metadata?.archived !== true)
          .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
        send(200, { threads, members: [] });
      },
    ],
    [
      'GET',
      /^\/channels\/(\d+)\/threads\/archived\/public$/,
      ({ match, url, send }) => {
        // As "List Public Archived Threads": the channel's archived public threads, ordered by
        // archive_timestamp, descending; `before` an ISO8601 timestamp, `limit` (here 1-100, else 50).
        const channel = this.channel(match[1]!);
        if (!channel) return send(404, { message: 'Unknown Channel', code: 10003 });
        const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? 50) || 50));
        const before = url.searchParams.get('before');
        const archived = [...this.threads.values()]
          .filter(
            (thread) =>
              thread.parent_id === channel.id &&
              thread.thread_metadata?.archived === true &&
              (before === null || Date.parse(thread.thread_metadata.archive_timestamp) < Date.parse(before)),
          )
          .sort((a, b) =>
            b.thread_metadata!.archive_timestamp.localeCompare(a.thread_metadata!.archive_timestamp),
          );
        send(200, { threads: archived.slice(0, limit), members: [], has_more: archived.length > limit });
      },
    ],
    [
      'POST',
      /^\/channels\/(\d+)\/threads$/,
      ({ match, body, send }) => {
        // A forum post, as Discord documents "Start Thread in Forum or Media Channel": a thread whose
        // first message is `message`, the thread's id being that message's; the response nests it.
        const forum = this.channel(match[1]!);
        if (!forum) return send(404, { message: 'Unknown Channel', code: 10003 });
        const { name, message } = (body ?? {}) as { name?: unknown; message?: Record<string, unknown> };
        if (forum.type !== 15 && forum.type !== 16)
          return send(400, {
            message: 'Only forum and media channels take a thread with a message here',
            code: 50024,
          });
        if (typeof name !== 'string' || name.length < 1 || name.length > 100 || !message)
          return send(400, { message: 'Invalid Form Body', code: 50035, errors: { name: { _errors: [] } } });
        const id = this.nextId();
        const thread = {
          id,
          type: 11,
          guild_id: ids.guild,
          parent_id: forum.id,
          owner_id: ids.bot,
          name,
          last_message_id: id,
          message_count: 0,
          member_count: 1,
          rate_limit_per_user: 0,
          flags: 0,
          total_message_sent: 1,
          applied_tags: [],
          thread_metadata: {
            archived: false,
            auto_archive_duration: 4320,
            archive_timestamp: new Date().toISOString(),
            locked: false,
          },
        } as unknown as APIThreadChannel;
        this.threads.set(id, thread);
        const starter = this.#store(undefined, message, id);
        // The starter message's id is the thread's.
        this.messages.delete(starter.id);
        const first = { ...starter, id } as APIMessage;
        this.messages.set(id, first);
        this.#dispatch('THREAD_CREATE', { ...thread, newly_created: true });
        send(201, { ...thread, message: first });
      },
    ],
    [
      'GET',
      /^\/channels\/(\d+)\/messages\/(\d+)$/,
      ({ match, send }) => {
        const message = this.messages.get(match[2]!);
        if (!message || message.channel_id !== match[1])
          return send(404, { message: 'Unknown Message', code: 10008 });
        send(200, message);
      },
    ],
    [
      'GET',
      /^\/channels\/(\d+)\/messages$/,
      ({ match, url, send }) => {
        // Newest first, at most `limit` (1-100, default 50), as Discord lists a channel's messages.
        const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? 50) || 50));
        const inChannel = [...this.messages.values()]
          .filter((message) => message.channel_id === match[1])
          .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
          .slice(0, limit);
        send(200, inChannel);
      },
    ],
    [
      'POST',
      /^\/channels\/(\d+)\/messages$/,
      ({ match, body, send }) => {
        const data = body as Record<string, unknown>;
        const reference = data.message_reference as
          | { message_id?: string; fail_if_not_exists?: boolean }
          | undefined;
        // A reply to a message that is gone fails, as on Discord, unless told not to.
        if (
          reference?.message_id &&
          !this.messages.has(reference.message_id) &&
          reference.fail_if_not_exists !== false
        )
          return send(400, {
            message: 'Invalid Form Body',
            code: 50035,
            errors: {
              message_reference: {
                _errors: [{ code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', message: 'Unknown message' }],
              },
            },
          });
        // A forum holds posts, not messages: Discord refuses a message sent to it.
        if (this.channel(match[1]!)?.type === 15)
          return send(400, { message: 'Cannot send messages in a non-text channel', code: 50008 });
        if (this.failMessages > 0) {
          this.failMessages--;
          return send(403, { message: 'Missing Permissions', code: 50013 });
        }
        send(200, this.#store(undefined, data, match[1]));
      },
    ],
  ];

  /**
   * Archives a thread, as a moderator closing a forum post does (or Discord, once it is inactive for its
   * auto_archive_duration): it leaves the guild's active threads for its channel's archived ones.
   */
  archiveThread(id: string, at = new Date()): void {
    const thread = this.threads.get(id);
    if (!thread) throw new Error(`Stand-in Discord: no thread ${id}`);
    this.threads.set(id, {
      ...thread,
      thread_metadata: { ...thread.thread_metadata!, archived: true, archive_timestamp: at.toISOString() },
    });
  }

  /** The guild's channel or a thread by id, as `GET /channels/{id}` gives it; undefined when unknown. */
  channel(id: string): { id: string; type: number; [key: string]: unknown } | undefined {
    const inGuild = (guild().channels as { id: string; type: number }[]).find((channel) => channel.id === id);
    if (inGuild) return { ...inGuild, guild_id: ids.guild };
    const thread = this.threads.get(id) as unknown as { id: string; type: number } | undefined;
    return thread;
  }

  /** The messages of a channel or thread, oldest first. */
  messagesIn(channelId: string): APIMessage[] {
    return [...this.messages.values()]
      .filter((message) => message.channel_id === channelId)
      .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  }

  /** Records a callback; returns the message it created or changed, if any. */
  #callback(token: string, callback: Callback, files: Upload[] = []): APIMessage | undefined {
    const exchange = this.#exchanges.get(token);
    if (!exchange) return undefined;
    let changed: APIMessage | undefined;
    // A reply goes to the channel (or thread) the interaction came from.
    const channelId = exchange.interaction.channel?.id ?? ids.channel;
    if (callback.type === 4)
      changed = exchange.message = this.#store(undefined, callback.data ?? {}, channelId, files);
    const pressed = 'message' in exchange.interaction ? exchange.interaction.message : undefined;
    if (callback.type === 7 && pressed)
      changed = this.#store(pressed.id, callback.data ?? {}, ids.channel, files);
    if (callback.data) exchange.uploads.set(callback.data, files);
    exchange.callbacks.push(callback);
    // A deferred update (type 6) leaves the message as it is; `@original` is then that message.
    if (callback.type === 6 && pressed) {
      if (!this.messages.has(pressed.id)) this.messages.set(pressed.id, pressed);
      exchange.message = this.messages.get(pressed.id);
    }
    exchange.notify();
    return changed;
  }

  /** Creates or updates a message the bot sent, as Discord would store it. */
  #store(
    id: string | undefined,
    data: Record<string, unknown>,
    channelId: string = ids.channel,
    files: Upload[] = [],
  ): APIMessage {
    const previous = id ? this.messages.get(id) : undefined;
    const message = {
      ...(previous ?? {
        ...userMessage(this.nextId(), '', botUser),
        channel_id: channelId,
        timestamp: new Date().toISOString(),
        components: [],
      }),
      ...pick(data, ['content', 'embeds', 'components', 'flags', 'message_reference']),
    } as APIMessage;
    message.attachments = this.#attachments(previous?.attachments ?? [], data.attachments, files, channelId);
    this.messages.set(message.id, message);
    return message;
  }

  /**
   * A message's attachments after a create or edit, as Discord documents them: with an `attachments`
   * list, exactly those it names (an existing attachment by its id, an upload by its part's `n`), the
   * rest removed; without one, the existing ones kept and the uploads added. Uploads get a CDN URL here.
   */
  #attachments(
    existing: APIAttachment[],
    listed: unknown,
    files: Upload[],
    channelId: string,
  ): APIAttachment[] {
    const uploaded = (file: Upload, entry: Record<string, unknown> = {}): APIAttachment => {
      const id = this.nextId();
      this.attachmentBytes.set(id, file.data);
      const size = pngSize(file.data);
      return {
        id,
        filename: file.filename,
        size: file.data.byteLength,
        url: `http://127.0.0.1:${this.port}/attachments/${channelId}/${id}/${encodeURIComponent(file.filename)}`,
        proxy_url: `http://127.0.0.1:${this.port}/attachments/${channelId}/${id}/${encodeURIComponent(file.filename)}`,
        content_type: file.contentType,
        ...(size ? { width: size.width, height: size.height } : {}),
        ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
      };
    };
    if (!Array.isArray(listed)) return [...existing, ...files.map((file) => uploaded(file))];
    return (listed as Record<string, unknown>[]).map((entry) => {
      const kept = existing.find((attachment) => attachment.id === String(entry.id));
      if (kept) return kept;
      const file = files.find((upload) => String(upload.index) === String(entry.id));
      if (!file) throw new InvalidForm(`attachments: ${String(entry.id)} is neither kept nor uploaded`);
      return uploaded(file, entry);
    });
  }
}

function pick(data: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => data[key] !== undefined).map((key) => [key, data[key]]));
}

async function readBody(request: IncomingMessage): Promise<{ body: unknown; files: Upload[] }> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  if (raw.byteLength === 0) return { body: undefined, files: [] };
  const type = request.headers['content-type'] ?? '';
  if (type.startsWith('multipart/form-data')) return readMultipart(raw, type);
  const text = raw.toString('utf8');
  try {
    return { body: JSON.parse(text), files: [] };
  } catch {
    return { body: text, files: [] };
  }
}

/**
 * An upload as Discord reads it: the JSON in the `payload_json` part, each file in a `files[n]` part
 * (read by the web platform's own multipart parser).
 */
async function readMultipart(raw: Buffer, type: string): Promise<{ body: unknown; files: Upload[] }> {
  const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
  const json = form.get('payload_json');
  const files: Upload[] = [];
  for (const [name, value] of form.entries()) {
    const index = /^files\[(\d+)\]$/.exec(name)?.[1];
    if (index === undefined || typeof value === 'string') continue;
    files.push({
      index: Number(index),
      filename: value.name,
      contentType: value.type || 'application/octet-stream',
      data: Buffer.from(await value.arrayBuffer()),
    });
  }
  return { body: typeof json === 'string' ? JSON.parse(json) : undefined, files };
}

/** Width and height from a PNG's header (IHDR), as Discord reports an image attachment's size. */
function pngSize(data: Buffer): { width: number; height: number } | undefined {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (data.byteLength < 24 || !data.subarray(0, 8).equals(signature)) return undefined;
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}
