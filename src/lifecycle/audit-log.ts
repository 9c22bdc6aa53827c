import { createLogger, type Logger } from '../logging/logger.ts';

/** Who asked for a corpus change. `system` stands for SIGHUP, the folder watch and other shards. */
export interface Actor {
  /** Discord user id, or `system`. */
  id: string;
  /** Display name for people reading the log, e.g. `alice` or `SIGHUP`. */
  name: string;
}

/** The actor for changes nobody typed a command for. */
export function systemActor(name: string): Actor {
  return { id: 'system', name };
}

/** One recorded change (or refused attempt) to the corpus. */
export interface AuditEntry {
  /** ISO time the change finished. */
  at: string;
  actor: Actor;
  action: 'reload' | 'add' | 'replace' | 'remove';
  /** Article id for add / replace / remove. */
  target?: string;
  outcome: 'ok' | 'refused' | 'failed';
  /** Corpus version serving before the change. */
  versionBefore: string;
  /** Corpus version serving after it (equal to `versionBefore` when refused or failed). */
  versionAfter: string;
  /** Short human summary: what changed, or why it was refused. */
  detail: string;
}

/** Receives every entry, e.g. to post it to the audit channel. Failures are logged, never thrown. */
export type AuditSink = (entry: AuditEntry) => void | Promise<void>;

/** Options of {@link AuditLog}. */
export interface AuditLogOptions {
  /**
   * Where each entry is logged (`corpus change`, at info) and a failing sink reported.
   * @default a logger on stderr
   */
  logger?: Logger;
}

/**
 * Records every corpus change as a structured log line and hands it to the registered sinks (the
 * gateway registers one that posts to AUDIT_CHANNEL_ID). Recording never fails the change itself.
 */
export class AuditLog {
  readonly #logger: Logger;
  readonly #sinks = new Set<AuditSink>();

  constructor(options: AuditLogOptions = {}) {
    this.#logger = options.logger ?? createLogger();
  }

  /** Adds a sink; returns a function that removes it. */
  subscribe(sink: AuditSink): () => void {
    this.#sinks.add(sink);
    return () => this.#sinks.delete(sink);
  }

  /** Logs the entry and waits for every sink (a failing sink is logged, never rethrown). */
  async record(entry: Omit<AuditEntry, 'at'> & { at?: string }): Promise<AuditEntry> {
    const full: AuditEntry = { ...entry, at: entry.at ?? new Date().toISOString() };
    this.#logger.info('corpus change', { ...full });
    await Promise.all(
      [...this.#sinks].map(async (sink) => {
        try {
          await sink(full);
        } catch (error) {
          this.#logger.warn('audit sink failed', { error: String(error) });
        }
      }),
    );
    return full;
  }
}

/** One line for the audit channel. Plain text: the caller sends it with `allowed_mentions: { parse: [] }`. */
export function formatAuditEntry(entry: AuditEntry): string {
  const who = entry.actor.id === 'system' ? entry.actor.name : `<@${entry.actor.id}> (${entry.actor.name})`;
  const what = entry.target === undefined ? entry.action : `${entry.action} \`${entry.target}\``;
  const versions =
    entry.versionBefore === entry.versionAfter
      ? `version ${short(entry.versionAfter)} (unchanged)`
      : `version ${short(entry.versionBefore)} → ${short(entry.versionAfter)}`;
  const line = `[${entry.outcome}] ${who}: ${what}; ${versions}; ${entry.detail} (${entry.at})`;
  return line.length > 2000 ? `${line.slice(0, 1999)}…` : line;
}

function short(version: string): string {
  return version.slice(0, 12);
}
