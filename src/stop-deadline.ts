import type { Logger } from './logging/logger.ts';

/** How long a graceful stop may take after SIGTERM or SIGINT before the process ends regardless. */
export const STOP_DEADLINE_MS = 5_000;

/**
 * Ends the process `ms` after a stop signal if the graceful stop has not: whatever a reload is doing
 * (a read that never returns, a worker that never answers), an operator's SIGTERM must stop the bot.
 * It ends by the signal's own default action rather than `process.exit`, which waits for file-system
 * work in progress and so can hang on the very read that held the stop up. So a forced stop's exit
 * status is the signal's (143 after SIGTERM, 130 after SIGINT, as a shell shows it), and a stop that
 * completed in time exits 0: a supervisor can tell the two apart. `onForced` runs just before.
 */
export function enforceStopDeadline(
  signal: NodeJS.Signals,
  logger: Logger,
  ms = STOP_DEADLINE_MS,
  onForced?: () => void,
): void {
  setTimeout(() => {
    logger.warn('stopping took too long: ending the process', { signal, afterMs: ms });
    onForced?.();
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }, ms).unref();
}

/**
 * Stops gracefully on the first SIGTERM or SIGINT, with the stop deadline armed. Later stop signals
 * change nothing (a shard gets Ctrl-C from the terminal and SIGTERM from its manager): the deadline
 * still ends the process in time.
 */
export function stopOnSignals(
  logger: Logger,
  stop: (signal: NodeJS.Signals) => void,
  options: { deadlineMs?: number; onForced?: () => void } = {},
): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.info('already stopping', { signal });
      return;
    }
    stopping = true;
    logger.info('shutting down', { signal });
    enforceStopDeadline(signal, logger, options.deadlineMs, options.onForced);
    stop(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
