import type { Logger } from './logging/logger.ts';

/** How long a graceful stop may take after SIGTERM or SIGINT before the process ends regardless. */
export const STOP_DEADLINE_MS = 5_000;

/**
 * Ends the process `ms` after a stop signal if the graceful stop has not: whatever a reload is doing
 * (a read that never returns, a worker that never answers), an operator's SIGTERM must stop the bot.
 * It ends by the signal's own default action rather than `process.exit`, which waits for file-system
 * work in progress and so can hang on the very read that held the stop up.
 */
export function enforceStopDeadline(signal: NodeJS.Signals, logger: Logger, ms = STOP_DEADLINE_MS): void {
  setTimeout(() => {
    logger.warn('stopping took too long: ending the process', { signal, afterMs: ms });
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }, ms).unref();
}
