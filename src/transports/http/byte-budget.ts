/**
 * Bytes that requests not yet verified may hold in memory, all together. An unauthenticated client
 * must not make the endpoint buffer without bound: 3,000 connections each sending 256 KiB with a fake
 * signature once took it from 155 MB to 960 MB. Nor may it hold the budget: when a request needs room
 * that others hold, the oldest holders give theirs up (their connections are closed), so a genuine
 * request, whose body arrives at once, always finds room.
 */
export class ByteBudget {
  #used = 0;
  /** Every reservation holding bytes or able to, oldest first (a Map keeps insertion order). */
  readonly #holders = new Map<Reservation, () => void>();

  constructor(readonly limit: number) {}

  /** A place in the budget for one request's body; `evict` ends that request if its room is taken. */
  reserve(evict: () => void): Reservation {
    const reservation = new Reservation(this);
    this.#holders.set(reservation, evict);
    return reservation;
  }

  get used(): number {
    return this.#used;
  }

  /** @internal for `Reservation`: takes `bytes`, evicting the oldest other holders for room. */
  take(reservation: Reservation, bytes: number): boolean {
    if (reservation.held + bytes > this.limit) return false;
    for (const [holder, evict] of this.#holders) {
      if (this.#used + bytes <= this.limit) break;
      if (holder === reservation || holder.held === 0) continue;
      this.release(holder);
      evict();
    }
    if (this.#used + bytes > this.limit) return false;
    this.#used += bytes;
    return true;
  }

  /** @internal for `Reservation`: gives back everything it holds and forgets it. */
  release(reservation: Reservation): void {
    if (!this.#holders.delete(reservation)) return;
    this.#used = Math.max(0, this.#used - reservation.held);
    reservation.held = 0;
  }
}

/** One request's share of a `ByteBudget`. */
export class Reservation {
  held = 0;

  constructor(private readonly budget: ByteBudget) {}

  /** Takes `bytes` more; `false` (nothing taken) when even evicting every other holder leaves no room. */
  take(bytes: number): boolean {
    if (!this.budget.take(this, bytes)) return false;
    this.held += bytes;
    return true;
  }

  /** Gives everything back; the body is verified, refused or gone. */
  release(): void {
    this.budget.release(this);
  }
}
