import type { KeyObject } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ByteBudget } from './byte-budget.ts';
import type { Outcome } from './metrics.ts';
import { BodyTooLargeError, BudgetExhaustedError, readBody } from './read-body.ts';
import type { ReplayMemory } from './replay-guard.ts';
import { isSignatureShaped, isValidSignature } from './verify-signature.ts';

export interface AdmissionOptions {
  /** The application's Ed25519 public key. */
  publicKey: KeyObject;
  /** Bodies larger than this are refused with 413 without being read further. */
  maxBodyBytes: number;
  /** Refuses stale timestamps and exact replays of signed requests (in this process, or every replica's). */
  replayGuard: ReplayMemory;
  /** Memory all requests being read and not yet verified may hold together; past it, 503. */
  unverifiedBytes?: ByteBudget;
}

/** A request refused before anything in its body was parsed: the status to answer and why. */
export interface Refusal {
  status: 400 | 401 | 413 | 415 | 503;
  outcome: Outcome;
  message: string;
  /**
   * The body was not read (refused on its headers alone): the connection should close after the
   * answer, rather than keep reading a body nobody wants to make room for the next request.
   */
  bodyUnread: boolean;
}

export type Admission = { admitted: true; body: Buffer } | ({ admitted: false } & Refusal);

/**
 * Decides whether an interaction POST really comes from Discord, before anything in it is parsed:
 * JSON content type, a body within the limit, a valid Ed25519 signature over timestamp + raw body,
 * then a fresh timestamp and a signature not seen before. Shared by the endpoint and the benchmark's
 * bare endpoint, so both pay the same price for it.
 */
export async function admitRequest(request: IncomingMessage, options: AdmissionOptions): Promise<Admission> {
  if (!isJsonContentType(request.headers['content-type'])) {
    return refuse(415, 'unsupported_media_type', 'Content-Type must be application/json', true);
  }
  const signature = request.headers['x-signature-ed25519'];
  const timestamp = request.headers['x-signature-timestamp'];
  if (typeof signature !== 'string' || typeof timestamp !== 'string') {
    return refuse(401, 'unauthorized', 'missing request signature', true);
  }
  // Whatever cannot be Discord's is refused on its headers, before a byte of its body is buffered.
  if (!isSignatureShaped(signature)) return refuse(401, 'unauthorized', 'invalid request signature', true);
  if (!options.replayGuard.isFresh(timestamp)) {
    return refuse(401, 'stale', 'request timestamp too far from now', true);
  }
  let body: Buffer;
  try {
    body = await readBody(request, options.maxBodyBytes, options.unverifiedBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return refuse(413, 'too_large', error.message, true);
    if (error instanceof BudgetExhaustedError) return refuse(503, 'overloaded', error.message, true);
    // The client went away or broke the connection mid-body: there is nobody left to answer.
    return refuse(400, 'aborted', 'request body not received', true);
  }
  if (!isValidSignature(options.publicKey, signature, timestamp, body)) {
    return refuse(401, 'unauthorized', 'invalid request signature');
  }
  const problem = await options.replayGuard.admit(signature, timestamp);
  if (problem === 'stale') return refuse(401, 'stale', 'request timestamp too far from now');
  if (problem === 'replayed') return refuse(401, 'replayed', 'request already received');
  return { admitted: true, body };
}

function refuse(status: Refusal['status'], outcome: Outcome, message: string, bodyUnread = false): Admission {
  return { admitted: false, status, outcome, message, bodyUnread };
}

function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const mediaType = header.split(';', 1)[0]?.trim().toLowerCase();
  return mediaType === 'application/json';
}
