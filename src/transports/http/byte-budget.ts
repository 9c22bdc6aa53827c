/**
 * Bytes that requests not yet verified may hold in memory, all together. An unauthenticated client
 * must not make the endpoint buffer without bound: 3,000 connections each sending 256 KiB with a fake
 * signature once took it from 155 MB to 960 MB.
 */
export class ByteBudget {
  #used = 0;

  constructor(readonly limit: number) {}

  /** Takes `bytes` from the budget; `false` (and nothing taken) when that would exceed it. */
  take(bytes: number): boolean {
    if (this.#used + bytes > this.limit) return false;
    this.#used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.#used = Math.max(0, this.#used - bytes);
  }

  get used(): number {
    return this.#used;
  }
}
