import type { ReplyFile } from '../../interactions/incoming.ts';

/** Discord answered a webhook request with an error status. */
export class WebhookError extends Error {
  override name = 'WebhookError';
  constructor(
    readonly method: string,
    readonly route: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`Newsdesk: webhook ${method} ${route} failed with HTTP ${status}: ${body.slice(0, 300)}`);
  }
}

export interface WebhookClientOptions {
  /** Discord's REST base URL without version, as `DISCORD_API_BASE` holds it. */
  apiBase: string;
  /**
   * REST API version appended to `apiBase`, as discord.js does with the same setting.
   * @default 10
   */
  apiVersion?: number;
  /**
   * Retries of a request Discord rate-limited (HTTP 429), each after the `retry_after` it asks for.
   * @default 2
   */
  maxRetries?: number;
  /**
   * How long one request may take before it is abandoned, in milliseconds.
   * @default 10_000
   */
  timeoutMs?: number;
  /** Stands in for global `fetch`. */
  fetch?: typeof fetch;
}

/** The longest wait a 429 may impose before we give up; the interaction token lives 15 minutes. */
const MAX_RETRY_WAIT_MS = 5_000;

/**
 * The interaction webhook routes: editing the original response and sending follow-ups once the
 * HTTP response has gone out. They are authorised by the interaction token alone, no bot token.
 */
export class WebhookClient {
  readonly #base: string;
  readonly #maxRetries: number;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;

  constructor(options: WebhookClientOptions) {
    this.#base = `${options.apiBase.replace(/\/+$/, '')}/v${options.apiVersion ?? 10}`;
    this.#maxRetries = options.maxRetries ?? 2;
    this.#fetch = options.fetch ?? fetch;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** `PATCH /webhooks/{application}/{token}/messages/@original`; with `files`, multipart. */
  editOriginal(
    applicationId: string,
    token: string,
    message: object,
    files: ReplyFile[] = [],
  ): Promise<unknown> {
    return this.editMessage(applicationId, token, '@original', message, files);
  }

  /** `PATCH /webhooks/{application}/{token}/messages/{message}`: the original or a follow-up. */
  editMessage(
    applicationId: string,
    token: string,
    messageId: string,
    message: object,
    files: ReplyFile[] = [],
  ): Promise<unknown> {
    return this.#send(
      'PATCH',
      `${route(applicationId, token)}/messages/${messageId === '@original' ? messageId : encodeURIComponent(messageId)}`,
      message,
      files,
    );
  }

  /** `GET /webhooks/{application}/{token}/messages/@original`: the message the response created. */
  getOriginal(applicationId: string, token: string): Promise<unknown> {
    return this.#send('GET', `${route(applicationId, token)}/messages/@original`);
  }

  /** `DELETE /webhooks/{application}/{token}/messages/@original`. */
  deleteOriginal(applicationId: string, token: string): Promise<unknown> {
    return this.#send('DELETE', `${route(applicationId, token)}/messages/@original`);
  }

  /** `POST /webhooks/{application}/{token}`: a follow-up message; with `files`, multipart. */
  followUp(applicationId: string, token: string, message: object, files: ReplyFile[] = []): Promise<unknown> {
    return this.#send('POST', route(applicationId, token), message, files);
  }

  async #send(method: string, path: string, body?: object, files: ReplyFile[] = []): Promise<unknown> {
    const url = `${this.#base}${path}`;
    const init: RequestInit = { method };
    if (body !== undefined && files.length > 0) {
      // Discord's uploads: the JSON in `payload_json`, each file in `files[n]` (fetch sets the boundary).
      init.body = multipart(body, files);
    } else if (body !== undefined) {
      init.headers = { 'content-type': 'application/json' };
      init.body = JSON.stringify(body);
    }
    for (let attempt = 0; ; attempt++) {
      const response = await this.#fetch(url, { ...init, signal: AbortSignal.timeout(this.#timeoutMs) });
      const text = await response.text();
      if (response.ok) return text.length > 0 ? JSON.parse(text) : undefined;
      const wait = response.status === 429 ? retryAfterMs(text) : undefined;
      // The route names the token, which is a credential for 15 minutes: keep it out of errors and logs.
      const shownPath = path.replace(/\/webhooks\/(\d+)\/[^/]+/, '/webhooks/$1/:token');
      if (wait === undefined || attempt >= this.#maxRetries || wait > MAX_RETRY_WAIT_MS) {
        throw new WebhookError(method, shownPath, response.status, text);
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** A message with files as Discord takes uploads: `multipart/form-data`, `payload_json` then `files[n]`. */
function multipart(body: object, files: ReplyFile[]): FormData {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(body));
  for (const [index, file] of files.entries()) {
    form.append(`files[${index}]`, new Blob([file.data], { type: contentType(file.name) }), file.name);
  }
  return form;
}

function contentType(name: string): string {
  return name.endsWith('.png') ? 'image/png' : 'application/octet-stream';
}

/** `/webhooks/{application}/{token}`, both encoded: they come from a request body. */
function route(applicationId: string, token: string): string {
  return `/webhooks/${encodeURIComponent(applicationId)}/${encodeURIComponent(token)}`;
}

function retryAfterMs(body: string): number | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null && 'retry_after' in parsed) {
      const seconds = Number(parsed.retry_after);
      if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
    }
  } catch {
    // Not JSON: treat as not retryable.
  }
  return undefined;
}
