import { describe, expect, it } from 'vitest';
import {
  isValidSignature,
  PublicKeyError,
  publicKeyFromHex,
} from '../../../src/transports/http/verify-signature.ts';
import { Signer } from './support/signer.ts';

describe('isValidSignature', () => {
  const discord = new Signer();
  const key = publicKeyFromHex(discord.publicKeyHex);
  const body = Buffer.from('{"type":1,"id":"1"}');
  const timestamp = '1700000000';

  it('accepts the signature of timestamp + body made with the matching private key', () => {
    expect(isValidSignature(key, discord.sign(timestamp, body), timestamp, body)).toBe(true);
  });

  it('accepts the signature in upper-case hex as well', () => {
    expect(isValidSignature(key, discord.sign(timestamp, body).toUpperCase(), timestamp, body)).toBe(true);
  });

  it('refuses a body changed by one byte after signing', () => {
    const tampered = Buffer.from('{"type":2,"id":"1"}');
    expect(isValidSignature(key, discord.sign(timestamp, body), timestamp, tampered)).toBe(false);
  });

  it('refuses a signature whose timestamp was changed', () => {
    expect(isValidSignature(key, discord.sign(timestamp, body), '1700000001', body)).toBe(false);
  });

  it('refuses a signature made with another key', () => {
    const impostor = new Signer();
    expect(isValidSignature(key, impostor.sign(timestamp, body), timestamp, body)).toBe(false);
  });

  it('refuses signatures that are not 64 bytes of hex without throwing', () => {
    const valid = discord.sign(timestamp, body);
    for (const signature of [
      '',
      'zz',
      valid.slice(0, 126),
      `${valid}00`,
      `${valid.slice(0, 126)}zz`,
      '0'.repeat(128),
    ]) {
      expect(isValidSignature(key, signature, timestamp, body)).toBe(false);
    }
  });
});

describe('publicKeyFromHex', () => {
  it('refuses a key that is not 64 hex characters with a message naming the setting', () => {
    expect(() => publicKeyFromHex('abc')).toThrow(PublicKeyError);
    expect(() => publicKeyFromHex('abc')).toThrow(/DISCORD_PUBLIC_KEY/);
  });
});
