import { createPublicKey, type KeyObject, verify } from 'node:crypto';

/**
 * DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410): followed by the raw 32-byte key it makes a
 * key Node's crypto accepts, so verification needs no dependency.
 */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const HEX_SIGNATURE = /^[0-9a-fA-F]{128}$/;

/** A public key that is not 32 bytes of hex, as the developer portal shows it. */
export class PublicKeyError extends Error {
  override name = 'PublicKeyError';
}

/** Turns the application's public key (64 hex characters) into a key object; throws `PublicKeyError`. */
export function publicKeyFromHex(hex: string): KeyObject {
  if (!HEX_KEY.test(hex)) throw new PublicKeyError('Newsdesk: DISCORD_PUBLIC_KEY must be 64 hex characters');
  const der = Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, 'hex')]);
  try {
    return createPublicKey({ key: der, format: 'der', type: 'spki' });
  } catch (error) {
    throw new PublicKeyError(`Newsdesk: DISCORD_PUBLIC_KEY is not an Ed25519 public key (${String(error)})`);
  }
}

/** Whether a signature header could be an Ed25519 signature at all: 128 hex characters. */
export function isSignatureShaped(signatureHex: string): boolean {
  return HEX_SIGNATURE.test(signatureHex);
}

/**
 * Whether `signatureHex` is the application's Ed25519 signature of `timestamp` followed by the raw body,
 * as Discord signs every interaction it delivers. Never throws: anything malformed is simply not valid.
 */
export function isValidSignature(
  key: KeyObject,
  signatureHex: string,
  timestamp: string,
  body: Buffer,
): boolean {
  // Buffer.from(…, 'hex') silently drops what is not hex, so the shape is checked first.
  if (!isSignatureShaped(signatureHex)) return false;
  const message = Buffer.concat([Buffer.from(timestamp, 'utf8'), body]);
  try {
    return verify(null, message, key, Buffer.from(signatureHex, 'hex'));
  } catch {
    return false;
  }
}
