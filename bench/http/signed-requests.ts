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

export interface StreamOptions {
  /** Requests in the stream, forged ones included. */
  count: number;
  /**
   * One request in `forgeEvery` is forged (kinds in turn), starting with the second of the stream so
   * that even a short, slow run sends some; 0 for none.
   */
  forgeEvery: number;
  /** `X-Signature-Timestamp` of genuine requests: fresh when the run starts. */
  timestamp: string;
  /** Body of the n-th genuine request; each must be distinct, or the replay guard refuses repeats. */
  body: (n: number) => string;
}

let forged = 0;

/**
 * One connection's request stream. A replay repeats the stream's previous genuine request, so it is
 * always sent after the original, as a replay would be.
 */
export function presignStream(
  keys: SigningKeys,
  options: StreamOptions,
  nextBody: () => number,
): PresignedRequest[] {
  const stream: PresignedRequest[] = [];
  let previous: PresignedRequest | undefined;
  for (let i = 1; i <= options.count; i += 1) {
    if (options.forgeEvery > 0 && i % options.forgeEvery === 2 % options.forgeEvery && previous) {
      const kind = FORGERIES[forged++ % FORGERIES.length]!;
      stream.push(forge(kind, previous, keys, options));
      continue;
    }
    const body = Buffer.from(options.body(nextBody()));
    previous = {
      body,
      headers: headers(options.timestamp, sign(null, concat(options.timestamp, body), keys.discord)),
      forgery: null,
    };
    stream.push(previous);
  }
  return stream;
}

function forge(
  kind: Forgery,
  genuine: PresignedRequest,
  keys: SigningKeys,
  options: StreamOptions,
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
