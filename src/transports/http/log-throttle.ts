import type { Logger } from '../../logging/logger.ts';

/**
 * Warnings about refused requests, at most one line per kind per interval, the next one saying how many
 * were left out: anyone can send refused requests, and one log line each would let them fill the log.
 */
export class LogThrottle {
  readonly #last = new Map<string, { at: number; suppressed: number }>();

  constructor(
    readonly logger: Logger,
    readonly intervalMs = 10_000,
    readonly now: () => number = Date.now,
  ) {}

  warn(kind: string, message: string, context: Record<string, unknown> = {}): void {
    const now = this.now();
    const last = this.#last.get(kind);
    if (last && now - last.at < this.intervalMs) {
      last.suppressed += 1;
      return;
    }
    const suppressed = last?.suppressed ?? 0;
    this.#last.set(kind, { at: now, suppressed: 0 });
    this.logger.warn(message, suppressed > 0 ? { ...context, suppressedSinceLast: suppressed } : context);
  }
}
