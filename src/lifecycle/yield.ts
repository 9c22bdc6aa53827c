/**
 * Lets pending I/O callbacks and timers run (heartbeats, other users' questions) before continuing.
 * `setImmediate` rather than a resolved promise: microtasks would run before any I/O could.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
