import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';

/** An Ed25519 key pair standing in for Discord's: it signs requests the way Discord signs interactions. */
export class Signer {
  readonly publicKey: KeyObject;
  readonly #privateKey: KeyObject;

  constructor() {
    const pair = generateKeyPairSync('ed25519');
    this.publicKey = pair.publicKey;
    this.#privateKey = pair.privateKey;
  }

  /** The public key as the developer portal shows it: the raw 32 bytes in hex. */
  get publicKeyHex(): string {
    // An Ed25519 SPKI is a 12-byte header followed by the raw key.
    return this.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
  }

  /** The `X-Signature-Ed25519` Discord would send with this timestamp and body. */
  sign(timestamp: string, body: string | Buffer): string {
    return sign(null, Buffer.concat([Buffer.from(timestamp), Buffer.from(body)]), this.#privateKey).toString(
      'hex',
    );
  }

  /** Headers of a genuine request: JSON content type, fresh timestamp, valid signature. */
  headersFor(body: string | Buffer, timestamp: string = nowSeconds()): Record<string, string> {
    return {
      'content-type': 'application/json',
      'x-signature-timestamp': timestamp,
      'x-signature-ed25519': this.sign(timestamp, body),
    };
  }
}

export function nowSeconds(offsetSeconds = 0): string {
  return String(Math.floor(Date.now() / 1000) + offsetSeconds);
}
