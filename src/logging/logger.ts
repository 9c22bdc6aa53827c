/** Where the interaction layer reports what happened; one JSON line per event on stderr by default. */
export interface Logger {
  debug(message: string, context?: Record<string, unknown>): void;
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
type Level = (typeof LEVELS)[number];

/** A logger writing JSON lines to `write` (stderr by default), dropping events below `level`. */
export function createLogger(
  level: Level = 'info',
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Logger {
  const threshold = LEVELS.indexOf(level);
  const log = (at: Level) => (message: string, context?: Record<string, unknown>) => {
    if (LEVELS.indexOf(at) < threshold) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: at, message, ...context }, errorReplacer));
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

/** A logger that keeps events in memory, for tests that assert on what was logged. */
export function memoryLogger(): Logger & {
  events: { level: Level; message: string; context?: Record<string, unknown> }[];
} {
  const events: { level: Level; message: string; context?: Record<string, unknown> }[] = [];
  const log = (level: Level) => (message: string, context?: Record<string, unknown>) => {
    events.push({ level, message, ...(context ? { context } : {}) });
  };
  return { events, debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (typeof value === 'bigint') return value.toString();
  return value;
}
