import type { IncomingMessage } from 'node:http';
import type { ByteBudget } from './byte-budget.ts';

/** The request body is larger than the endpoint accepts. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  constructor(readonly limitBytes: number) {
    super(`Newsdesk: request body exceeds ${limitBytes} bytes`);
  }
}

/** Requests not yet verified already hold all the memory they may: this one is not read. */
export class BudgetExhaustedError extends Error {
  override name = 'BudgetExhaustedError';
  constructor() {
    super('Newsdesk: too many requests being received; try again');
  }
}

/** The client went away before its body was complete. */
export class RequestAbortedError extends Error {
  override name = 'RequestAbortedError';
  constructor() {
    super('Newsdesk: the client went away before the request body was complete');
  }
}

/**
 * Reads the whole request body, refusing it as soon as it is known to exceed `limitBytes`: at once
 * when `Content-Length` says so, otherwise at the first chunk past the limit (nothing more is buffered).
 */
export function readBody(request: IncomingMessage, limitBytes: number, budget?: ByteBudget): Promise<Buffer> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) {
    return Promise.reject(new BodyTooLargeError(limitBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    // Evicted when a newer request needs the room: its connection is closed, as an idle one would be.
    const reservation = budget?.reserve(() => {
      fail(new BudgetExhaustedError());
      request.socket.destroy();
    });
    const fail = (error: Error): void => {
      cleanup();
      request.pause();
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      if (received + chunk.length > limitBytes) {
        fail(new BodyTooLargeError(limitBytes));
      } else if (reservation && !reservation.take(chunk.length)) {
        fail(new BudgetExhaustedError());
      } else {
        received += chunk.length;
        chunks.push(chunk);
      }
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks, received));
    };
    // A client that goes away mid-body may end the request with 'close' alone, without an error.
    const onClose = (): void => fail(new RequestAbortedError());
    const cleanup = (): void => {
      // The caller holds the body from here on (or nobody does): it no longer counts as unverified.
      reservation?.release();
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', fail);
      request.off('close', onClose);
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', fail);
    request.on('close', onClose);
  });
}
