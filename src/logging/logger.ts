import { type DestinationStream, pino } from 'pino';

/**
 * Where the bot reports what happened: one JSON line per event (`time`, `level`, `message`, then the
 * context's fields) on stderr. Every log line of the process goes through one of these, so one log
 * pipeline reads them all.
 */
export interface Logger {
  debug(message: string, context?: Record<string, unknown>): void;
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type Level = (typeof LEVELS)[number];

/**
 * Fields never written as they are: a bot token or a webhook token in a log line is a leaked
 * credential. pino's `redact` replaces them wherever they sit in the first two levels of a context.
 */
const SECRET_FIELDS = ['token', 'DISCORD_TOKEN', 'authorization', 'Authorization', 'password', 'secret'];

/**
 * A pino logger writing JSON lines to `write` (stderr by default, synchronously so that nothing is
 * lost when the process exits), dropping events below `level`.
 */
export function createLogger(level: Level = 'info', write?: (line: string) => void): Logger {
  const destination: DestinationStream = write
    ? { write: (line: string) => write(line.endsWith('\n') ? line.slice(0, -1) : line) }
    : pino.destination({ dest: 2, sync: true });
  const log = pino(
    {
      level,
      base: undefined,
      messageKey: 'message',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: {
        paths: SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
        censor: '[redacted]',
      },
    },
    destination,
  );
  const at = (method: Level) => (message: string, context?: Record<string, unknown>) => {
    if (context === undefined) log[method](message);
    else log[method](serializable(context), message);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
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

/** A logger that drops everything: for tests and benchmarks that are not about logs. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** Errors anywhere in a context keep their name, message and stack; bigints become strings. */
function serializable(context: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(context, errorReplacer)) as Record<string, unknown>;
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (typeof value === 'bigint') return value.toString();
  return value;
}
