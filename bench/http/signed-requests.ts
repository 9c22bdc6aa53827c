import { type KeyObject, randomBytes, sign } from 'node:crypto';

/** How a forged request in the mix is wrong. Every one of them must get 401. */
export const FORGERIES = [
  'random-signature',
  'other-key',
  'tampered-body',
  'replay',
  'stale-timestamp',
] as const;
export type Forgery = (typeof FORGERIES)[number];

/** One request ready to send: signed (or forged) ahead of time, so the load generator only writes bytes. */
export interface PresignedRequest {
  body: Buffer;
  headers: Record<string, string>;
  /** `null` for a genuine request. */
  forgery: Forgery | null;
}

export interface SigningKeys {
  /** Discord's key: the endpoint verifies against its public half. */
  discord: KeyObject;
  /** Someone else's key, for signatures that are valid but not Discord's. */
  impostor: KeyObject;
}

export interface PoolOptions {
  /** Requests in the pool, forged ones included. */
  count: number;
  /**
   * One request in `forgeEvery` is forged (kinds in turn), starting early so that even a short, slow
   * run sends some; 0 for none.
   */
  forgeEvery: number;
  /** `X-Signature-Timestamp` of genuine requests: fresh when the run starts. */
  timestamp: string;
  /** Body of the n-th genuine request; each must be distinct, or the replay guard refuses repeats. */
  body: (n: number) => string;
  /** Numbers the genuine requests, so bodies stay distinct across pools. */
  next: () => number;
}

/**
 * A replay repeats the genuine request this many places earlier in the pool: long since answered
 * whatever connection sent it, so the replay always arrives second, as a replay would.
 */
const REPLAY_LAG = 64;

let forged = 0;

/** Requests to send in order, signed ahead of time; connections take them from one shared cursor. */
export function presignPool(keys: SigningKeys, options: PoolOptions): PresignedRequest[] {
  const pool: PresignedRequest[] = [];
  const genuine: PresignedRequest[] = [];
  for (let i = 1; i <= options.count; i += 1) {
    const original = genuine[genuine.length - REPLAY_LAG];
    if (options.forgeEvery > 0 && i % options.forgeEvery === 2 % options.forgeEvery && genuine.length > 0) {
      const kind = FORGERIES[forged++ % FORGERIES.length]!;
      // Until the pool is long enough to replay from, a replay's turn goes to a random signature.
      pool.push(
        forge(
          kind === 'replay' && !original ? 'random-signature' : kind,
          kind === 'replay' && original ? original : genuine.at(-1)!,
          keys,
          options,
        ),
      );
      continue;
    }
    const body = Buffer.from(options.body(options.next()));
    const request: PresignedRequest = {
      body,
      headers: headers(options.timestamp, sign(null, concat(options.timestamp, body), keys.discord)),
      forgery: null,
    };
    genuine.push(request);
    pool.push(request);
  }
  return pool;
}

function forge(
  kind: Forgery,
  genuine: PresignedRequest,
  keys: SigningKeys,
  options: PoolOptions,
): PresignedRequest {
  const timestamp = options.timestamp;
  switch (kind) {
    case 'random-signature':
      return { body: genuine.body, headers: headers(timestamp, randomBytes(64)), forgery: kind };
    case 'other-key':
      return {
        body: genuine.body,
        headers: headers(timestamp, sign(null, concat(timestamp, genuine.body), keys.impostor)),
        forgery: kind,
      };
    case 'tampered-body': {
      const body = Buffer.from(genuine.body.toString().replace('"type":', '"type": '));
      return { body, headers: genuine.headers, forgery: kind };
    }
    case 'replay':
      return { body: genuine.body, headers: genuine.headers, forgery: kind };
    case 'stale-timestamp': {
      const stale = String(Number(timestamp) - 600);
      return {
        body: genuine.body,
        headers: headers(stale, sign(null, concat(stale, genuine.body), keys.discord)),
        forgery: kind,
      };
    }
  }
}

/** The headers of one genuine request signed now with Discord's key (`content-type` and the signature). */
export function signedHeaders(key: KeyObject, body: string | Buffer): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  return headers(timestamp, sign(null, concat(timestamp, Buffer.from(body)), key));
}

function concat(timestamp: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(timestamp), body]);
}

function headers(timestamp: string, signature: Buffer): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-signature-timestamp': timestamp,
    'x-signature-ed25519': signature.toString('hex'),
  };
}
