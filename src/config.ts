import 'dotenv/config';
import { z } from 'zod';
import { knownTimeZone } from './digests/schedule.ts';

/** A comma-separated list in one variable, e.g. `MODERATOR_ROLE_IDS=123,456`. */
const idList = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id.length > 0),
  )
  .pipe(z.array(z.string().regex(/^\d{5,25}$/, 'each id must be a Discord snowflake (digits only)')));

const boolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .default('')
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/**
 * Every setting the bot reads from the environment (and `.env`). This is the only module that reads
 * `process.env`; `.env.example` documents each variable.
 */
export const EnvSchema = z.object({
  /** Bot token. Without it `npm start` opens the local console instead of connecting to Discord. */
  DISCORD_TOKEN: z.string().min(1).optional(),
  /** Application (client) id, needed to register commands and for webhook follow-ups. */
  DISCORD_APPLICATION_ID: z
    .string()
    .regex(/^\d{5,25}$/, 'must be a Discord snowflake (digits only)')
    .optional(),
  /** Register commands to this guild only (instant, for development) instead of globally. */
  DISCORD_GUILD_ID: z
    .string()
    .regex(/^\d{5,25}$/, 'must be a Discord snowflake (digits only)')
    .optional(),
  /** The application's Ed25519 public key, hex, as the developer portal shows it (HTTP endpoint). */
  DISCORD_PUBLIC_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters')
    .optional(),
  /** Discord's REST base URL; point it at a stand-in for tests. The gateway URL is asked of it. */
  DISCORD_API_BASE: z.url().default('https://discord.com/api'),
  /** Folder of articles, or one `.jsonl` file. */
  CORPUS_PATH: z.string().min(1).default('corpus'),
  /** Where the built index is persisted for fast starts. Empty disables the cache. */
  INDEX_CACHE_DIR: z.string().default('.cache'),
  /** Size cap of INDEX_CACHE_DIR in MB: least recently used index files are deleted past it. */
  INDEX_CACHE_MAX_MB: z.coerce.number().int().min(1).max(1_000_000).default(2048),
  /**
   * Where the search index lives: `worker`, a worker thread (building it, and freeing the old one after
   * a reload, never pauses this thread for garbage collection), or `main`, this thread.
   */
  INDEX_THREAD: z.enum(['worker', 'main']).default('worker'),
  /**
   * With INDEX_THREAD=worker: how many worker threads, each with its own copy of the index, search at
   * once. More serve more questions a second on more cores, at one index's memory each.
   */
  INDEX_WORKERS: z.coerce.number().int().min(1).max(16).default(1),
  /** Role ids allowed to change the corpus, checked in code on top of Discord's permission gate. */
  MODERATOR_ROLE_IDS: idList,
  /** Channel that receives a line for every corpus change. */
  AUDIT_CHANNEL_ID: z
    .string()
    .regex(/^\d{5,25}$/, 'must be a Discord snowflake (digits only)')
    .optional(),
  /** Questions one user may ask per window before being asked to wait. */
  RATE_LIMIT_QUESTIONS: z.coerce.number().int().min(1).max(1000).default(5),
  /** The rate-limit window, in seconds. */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Port of the HTTP interactions endpoint (`npm run start:http`). */
  HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** The largest corpus file read, in MB: a larger one is refused by its size, before it is read. */
  CORPUS_MAX_FILE_MB: z.coerce.number().int().min(1).max(4096).default(64),
  /** How deep a web page's elements may nest for its article to be read (links, saved pages, feeds). */
  EXTRACT_MAX_DEPTH: z.coerce.number().int().min(16).max(1000).default(128),
  /** The largest web page read for an article, in MB of HTML. */
  EXTRACT_MAX_PAGE_MB: z.coerce.number().int().min(1).max(64).default(5),
  /** How long reading one page's article may take, in milliseconds, before the reading is ended. */
  EXTRACT_TIME_LIMIT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /**
   * Serve `GET /metrics` on this port instead of HTTP_PORT, so the public port does not show it.
   * Unset, it is served on HTTP_PORT beside `/interactions`.
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** The address METRICS_PORT listens on: loopback unless a scraper elsewhere must reach it. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Connections the HTTP endpoint keeps open from one remote address. Behind a reverse proxy every
   * connection comes from the proxy's address, so there it is raised to the proxy's own share.
   */
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(512).default(32),
  /** Reload when files under the corpus folder change (debounced). */
  WATCH_CORPUS: boolean,
  /** Run under discord.js's ShardingManager with this many shards (`auto` lets Discord decide). */
  SHARDS: z.union([z.literal('auto'), z.coerce.number().int().min(1).max(64)]).optional(),
  /**
   * Let `/corpus add url:`, feeds and `npm run import` fetch from private, loopback and link-local
   * addresses (an intranet news site, tests). Off, only public addresses are fetched from.
   */
  FETCH_ALLOW_PRIVATE: boolean,
  /** Minutes between two polls of each feed (`/feeds`); a failing feed waits longer, up to a day. */
  FEED_POLL_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  /** Articles one feed posts in its channel per poll at most (`/feeds add channel:`); the rest wait. */
  FEED_POSTS_PER_POLL: z.coerce.number().int().min(1).max(50).default(5),
  /** Hours a feed may bring nothing new before the moderators' channel hears of it (`/feeds alerts`). */
  FEED_SILENT_HOURS: z.coerce.number().int().min(1).max(8760).default(48),
  /**
   * The time zone `/digest add` times are in unless a digest names its own (`timezone:`): an IANA name
   * such as `Europe/Paris`, as Intl knows them.
   */
  DIGEST_TIME_ZONE: z
    .string()
    .default('UTC')
    .transform((name, context) => {
      const known = knownTimeZone(name);
      if (known === undefined) context.addIssue({ code: 'custom', message: 'unknown time zone' });
      return known ?? name;
    }),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /**
   * Log the text members type (questions, quotes, topics) in full. Off, a log line gives each text
   * option's length and hash instead: a member's question is personal data.
   */
  LOG_QUESTIONS: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default('false')
    .transform((value) => value === 'true' || value === '1' || value === 'yes'),
  /** Where the running bot writes its process id, for `kill -HUP $(cat <file>)`. */
  PID_FILE: z.string().min(1).optional(),
  /** Folder of the community database (votes, questions without coverage, watches). Empty stores nothing. */
  DATA_DIR: z.string().default('.data'),
  /** Store the text of questions asked (for `/gaps`); false keeps only counts, citations and votes. */
  RECORD_QUESTIONS: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default('true')
    .transform((value) => value === 'true' || value === '1' || value === 'yes'),
  /** Days answers, votes and questions without coverage are kept; older ones are deleted daily. */
  RECORD_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /**
   * PostgreSQL for the community records instead of the SQLite file in DATA_DIR, shared by every
   * replica (`postgres://user:password@host:5432/newsdesk`). Unset: SQLite, as on one host.
   */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/./, 'must start with postgres://')
    .optional(),
  /**
   * Redis for what replicas share (`redis://host:6379`): rate limits, the replay guard, reload
   * announcements, the feed poller's lease. Unset: each process keeps its own, as on one host.
   */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/./, 'must start with redis:// or rediss://')
    .optional(),
});

export type Config = z.infer<typeof EnvSchema>;

/** A setting that is missing or malformed; the message names the variable and what is wrong. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Variables whose empty value means something ("off"), rather than "not set". */
const EMPTY_MEANS_OFF = new Set(['INDEX_CACHE_DIR', 'DATA_DIR']);

/** Variables whose value is never repeated in a message. */
const SECRET = new Set(['DISCORD_TOKEN', 'DATABASE_URL', 'REDIS_URL']);

/** What each variable accepts, in the words of a message about a bad value. */
const ALLOWED: Partial<Record<keyof Config, string>> = {
  DISCORD_APPLICATION_ID: 'a Discord id (digits only)',
  DISCORD_GUILD_ID: 'a Discord id (digits only)',
  DISCORD_PUBLIC_KEY: '64 hex characters (the public key on the developer portal)',
  DISCORD_API_BASE: 'a URL such as https://discord.com/api',
  INDEX_CACHE_MAX_MB: 'a whole number of megabytes from 1 to 1000000',
  INDEX_THREAD: 'worker or main',
  INDEX_WORKERS: 'a whole number from 1 to 16',
  MODERATOR_ROLE_IDS: 'Discord role ids (digits only), separated by commas',
  AUDIT_CHANNEL_ID: 'a Discord channel id (digits only)',
  RATE_LIMIT_QUESTIONS: 'a whole number from 1 to 1000',
  RATE_LIMIT_WINDOW_SECONDS: 'a whole number of seconds from 1 to 3600',
  HTTP_PORT: 'a port number from 0 to 65535',
  CORPUS_MAX_FILE_MB: 'a whole number of megabytes from 1 to 4096',
  EXTRACT_MAX_DEPTH: 'a whole number from 16 to 1000',
  EXTRACT_MAX_PAGE_MB: 'a whole number of megabytes from 1 to 64',
  EXTRACT_TIME_LIMIT_MS: 'a whole number of milliseconds from 100 to 600000',
  METRICS_PORT: 'a port number from 0 to 65535',
  METRICS_HOST: 'an address to listen on, such as 127.0.0.1 or 10.0.0.5',
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: 'a whole number from 1 to 512',
  WATCH_CORPUS: 'true or false',
  SHARDS: 'auto or a whole number from 1 to 64',
  LOG_LEVEL: 'debug, info, warn or error',
  DIGEST_TIME_ZONE: 'a time zone name such as UTC, Europe/Paris or America/New_York',
  DATABASE_URL: 'a PostgreSQL URL such as postgres://newsdesk:secret@db:5432/newsdesk',
  REDIS_URL: 'a Redis URL such as redis://redis:6379',
};

/** A server's URL (DATABASE_URL, REDIS_URL) without its password, for logs and `/healthz`. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(a URL that cannot be parsed)';
  }
}

/** Reads and validates the environment; throws `ConfigError` listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings in .env mean "unset", as they do for most tools that read .env files; except where
  // empty is documented to switch something off (`INDEX_CACHE_DIR=` disables the cache, `DATA_DIR=`
  // stores nothing).
  const present = Object.fromEntries(
    Object.entries(env).filter(([name, value]) => value !== '' || EMPTY_MEANS_OFF.has(name)),
  );
  // discord.js's ShardingManager starts each shard with SHARDS=<its shard id>: that one is not ours.
  if (env.SHARDING_MANAGER === 'true') delete present.SHARDS;
  const parsed = EnvSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  const names = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? '')))];
  const lines = names.map((name) => `  ${describeBadValue(name, present[name])}`);
  throw new ConfigError(`Invalid configuration (check .env and the environment):\n${lines.join('\n')}`);
}

/** "RATE_LIMIT_QUESTIONS must be a whole number from 1 to 1000; got "abc"". */
function describeBadValue(name: string, value: string | undefined): string {
  const allowed = ALLOWED[name as keyof Config] ?? 'set to a valid value (see .env.example)';
  const given = SECRET.has(name) ? 'the value given is not valid' : `got ${JSON.stringify(value ?? '')}`;
  return `${name} must be ${allowed}; ${given}`;
}
