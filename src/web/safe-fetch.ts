import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import {
  type AddressPolicy,
  checkedLookup,
  isPublicAddress,
  isTrustedOrigin,
  refusePrivate,
} from './address-policy.ts';
import { FetchRefusedError } from './fetch-refused.ts';

/** How the bot introduces itself to every site it fetches from. */
export const USER_AGENT = 'NewsdeskBot/0.1 (Discord news-archive bot; fetches pages moderators add)';

/** Defaults: 5 MB after decompression, 15 seconds for the whole fetch, redirects included, 5 redirects. */
export const FETCH_LIMITS = { maxBytes: 5 * 1024 * 1024, timeoutMs: 15_000, maxRedirects: 5 } as const;

/** Media types accepted as a web page. */
export const HTML_TYPES = ['text/html', 'application/xhtml+xml'] as const;

/** Options of {@link safeFetch}. */
export interface SafeFetchOptions extends AddressPolicy {
  /** Media types accepted (without parameters), e.g. `HTML_TYPES`. A response of another type is refused. */
  accept: readonly string[];
  /** @default FETCH_LIMITS.maxBytes (5 MB), counted after decompression */
  maxBytes?: number;
  /** For the whole fetch, every redirect included. @default FETCH_LIMITS.timeoutMs (15 s) */
  timeoutMs?: number;
  /** @default FETCH_LIMITS.maxRedirects (5) */
  maxRedirects?: number;
  /** Validators from the previous fetch, for a conditional request that may answer 304. */
  etag?: string | undefined;
  lastModified?: string | undefined;
}

/** A fetched resource; `notModified` when the server answered 304 to a conditional request. */
export type Fetched =
  | { notModified: true; url: string; etag: string | undefined; lastModified: string | undefined }
  | {
      notModified: false;
      /** The URL after redirects: relative links and canonical URLs resolve against this one. */
      url: string;
      /** Lower-case media type without parameters, e.g. `text/html`. */
      mediaType: string;
      /** The `charset` parameter of Content-Type, if any. */
      charset: string | undefined;
      body: Uint8Array;
      etag: string | undefined;
      lastModified: string | undefined;
    };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs `url` the way a bot that fetches links users give it must: http(s) only; every address checked
 * against the policy after DNS resolution and again at every redirect (at most `maxRedirects`); the
 * body cut off past `maxBytes`, decompressed or not (a gzip bomb stops at the limit, not at the end);
 * one deadline for all of it; the content type checked. Every refusal is a `FetchRefusedError`.
 */
export async function safeFetch(url: string, options: SafeFetchOptions): Promise<Fetched> {
  const timeoutMs = options.timeoutMs ?? FETCH_LIMITS.timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    let current = parseUrl(url);
    for (let redirects = 0; ; redirects++) {
      const response = await request(current, options, controller.signal);
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        response.resume();
        const location = response.headers.location;
        if (location === undefined) throw statusRefusal(status, 'a redirect without a Location');
        if (redirects >= (options.maxRedirects ?? FETCH_LIMITS.maxRedirects)) {
          throw new FetchRefusedError(
            'too-many-redirects',
            `The link redirects more than ${options.maxRedirects ?? FETCH_LIMITS.maxRedirects} times.`,
          );
        }
        current = parseUrl(new URL(location, current).href);
        continue;
      }
      const etag = header(response, 'etag');
      const lastModified = header(response, 'last-modified');
      if (status === 304) {
        response.resume();
        return { notModified: true, url: current.href, etag, lastModified };
      }
      if (status < 200 || status >= 300) {
        response.resume();
        throw statusRefusal(status, response.statusMessage);
      }
      const { mediaType, charset } = contentType(header(response, 'content-type'));
      if (!options.accept.includes(mediaType)) {
        response.resume();
        throw new FetchRefusedError(
          'content-type',
          `The link serves ${mediaType || 'content of no stated type'}, not ${describeTypes(options.accept)}.`,
        );
      }
      const body = await readLimited(response, options.maxBytes ?? FETCH_LIMITS.maxBytes);
      return { notModified: false, url: current.href, mediaType, charset, body, etag, lastModified };
    }
  } catch (error) {
    if (controller.signal.aborted && !(error instanceof FetchRefusedError && error.code === 'too-large')) {
      throw new FetchRefusedError('timeout', `The site did not answer in full within ${timeoutMs / 1000} s.`);
    }
    if (error instanceof FetchRefusedError) throw error;
    throw new FetchRefusedError('network', `The page could not be fetched (${describeNetworkError(error)}).`);
  } finally {
    clearTimeout(timer);
  }
}

function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FetchRefusedError('bad-url', 'That is not a valid link.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchRefusedError('scheme', `Only http and https links can be fetched, not ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new FetchRefusedError('bad-url', 'Links with a user name or password are not fetched.');
  }
  return url;
}

function request(url: URL, options: SafeFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const checked = !isTrustedOrigin(url, options);
  // Node connects to an address literal without a lookup, so the check happens here instead.
  if (checked && isIP(host) !== 0 && !isPublicAddress(host)) {
    return Promise.reject(refusePrivate(url.hostname, host));
  }
  const headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    accept: `${options.accept.join(', ')};q=1, */*;q=0.1`,
    'accept-encoding': 'gzip, deflate, br',
  };
  if (options.etag) headers['if-none-match'] = options.etag;
  if (options.lastModified) headers['if-modified-since'] = options.lastModified;
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.get(
      url,
      { headers, signal, agent: false, ...(checked ? { lookup: checkedLookup() } : {}) },
      resolve,
    );
    req.on('error', reject);
  });
}

/** The body, decompressed, or a refusal as soon as more than `maxBytes` have come out. */
async function readLimited(response: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers['content-length']);
  const tooLarge = () =>
    new FetchRefusedError('too-large', `The page is larger than ${Math.round(maxBytes / (1024 * 1024))} MB.`);
  const encoding = header(response, 'content-encoding')?.toLowerCase() ?? 'identity';
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (decoder === undefined && encoding !== 'identity') {
    response.resume();
    throw new FetchRefusedError(
      'content-type',
      `The page is compressed as "${encoding}", which the bot cannot read.`,
    );
  }
  if (decoder === undefined && declared > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const stream: Readable = decoder ? response.pipe(decoder) : response;
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      received += chunk.byteLength;
      if (received > maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof FetchRefusedError) throw error;
    if (decoder) throw new FetchRefusedError('network', `The page's compressed body is corrupt.`);
    throw error;
  } finally {
    response.destroy();
    decoder?.destroy();
  }
  return Buffer.concat(chunks, received);
}

function header(response: IncomingMessage, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function contentType(value: string | undefined): { mediaType: string; charset: string | undefined } {
  const [type = '', ...params] = (value ?? '').split(';');
  const charset = params
    .map((param) => /^\s*charset\s*=\s*"?([^";]+)"?/i.exec(param)?.[1])
    .find((found) => found !== undefined);
  return { mediaType: type.trim().toLowerCase(), charset: charset?.trim().toLowerCase() };
}

function describeTypes(types: readonly string[]): string {
  return types.length === 1 ? types[0]! : `${types.slice(0, -1).join(', ')} or ${types.at(-1)}`;
}

function statusRefusal(status: number, text: string | undefined): FetchRefusedError {
  return new FetchRefusedError('http-status', `The site answered HTTP ${status}${text ? ` (${text})` : ''}.`);
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code ?? error.message;
  }
  return String(error);
}
