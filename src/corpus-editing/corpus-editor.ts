import { randomBytes } from 'node:crypto';
import type { Actor, AuditLog } from '../lifecycle/audit-log.ts';
import type { EngineSlot, Reloader, ReloadOutcome, ReloadProgress } from '../lifecycle/reloader.ts';
import { summarizeOutcome } from '../lifecycle/reloader.ts';
import type { CorpusStore, PreparedArticle, PreparedRemoval, Undo } from './corpus-store.ts';

/** A change a moderator has previewed and may now confirm. */
export type PendingChange =
  | { kind: 'add' | 'replace'; prepared: PreparedArticle }
  | { kind: 'remove'; prepared: PreparedRemoval };

/** What confirming a change did. */
export type EditOutcome =
  /** Written and reloaded: the new version is serving. */
  | {
      status: 'applied';
      kind: PendingChange['kind'];
      id: string;
      reload: ReloadOutcome & { status: 'reloaded' };
    }
  /** Written, but the reload refused or failed; the write was undone and the old version keeps serving. */
  | { status: 'rolled-back'; kind: PendingChange['kind']; id: string; reload: ReloadOutcome }
  /** The confirmation is unknown, expired, or belongs to someone else. */
  | { status: 'expired' };

/** What adding a batch did: all of it serves, or none of it was kept. */
export type BatchOutcome =
  | { status: 'applied'; ids: string[]; reload: ReloadOutcome & { status: 'reloaded' } }
  | { status: 'rolled-back'; ids: string[]; reload: ReloadOutcome };

/** Where a confirmed change is: being written (`reload` undefined), then reloading. */
export interface ApplyProgress {
  kind: PendingChange['kind'];
  id: string;
  fileName: string;
  reload: ReloadProgress | undefined;
}

/** Options of {@link CorpusEditor}. */
export interface CorpusEditorOptions {
  store: CorpusStore;
  reloader: Reloader;
  slot: EngineSlot;
  audit?: AuditLog;
  /**
   * How long a preview can be confirmed, in milliseconds.
   * @default 10 minutes
   */
  confirmWithinMs?: number;
  /** Called after a change is applied (e.g. to tell the other shards to reload). */
  onApplied?: (outcome: EditOutcome & { status: 'applied' }) => void | Promise<void>;
}

interface Pending {
  change: PendingChange;
  actorId: string;
  expires: number;
}

/**
 * The two-step add / replace / remove behind `/corpus`: a preview returns a token, the confirm button
 * applies it. Applying writes the file, reloads, and undoes the write if the reload refuses the corpus,
 * so the folder and the index never disagree. Changes are applied one at a time.
 */
export class CorpusEditor {
  readonly #options: CorpusEditorOptions;
  readonly #pending = new Map<string, Pending>();
  #chain: Promise<unknown> = Promise.resolve();

  constructor(options: CorpusEditorOptions) {
    this.#options = options;
  }

  /** Validates an upload and keeps it until the same moderator confirms it; returns the token for the button. */
  async previewAdd(
    actor: Actor,
    uploadedName: string,
    bytes: Uint8Array,
  ): Promise<{ token: string; prepared: PreparedArticle }> {
    const prepared = await this.#options.store.prepare(uploadedName, bytes, this.#options.slot.engine.corpus);
    return { token: this.#keep(actor, { kind: prepared.kind, prepared }), prepared };
  }

  /** Checks that article `id` can be removed and keeps the removal until confirmed. */
  previewRemove(actor: Actor, id: string): { token: string; prepared: PreparedRemoval } {
    const prepared = this.#options.store.prepareRemoval(id, this.#options.slot.engine.corpus);
    return { token: this.#keep(actor, { kind: 'remove', prepared }), prepared };
  }

  /**
   * Adds several validated articles with one write each and one reload (a feed's poll), queued behind
   * any change being confirmed. If the reload refuses them, every file is taken back out.
   */
  addBatch(actor: Actor, batch: readonly PreparedArticle[]): Promise<BatchOutcome> {
    const run = this.#chain.then(() => this.#applyBatch(actor, batch));
    this.#chain = run.catch(() => undefined);
    return run;
  }

  /** Drops a pending change (the Cancel button). Returns whether there was one for this actor. */
  cancel(actor: Actor, token: string): boolean {
    const pending = this.#take(actor, token);
    return pending !== undefined;
  }

  /**
   * Applies a previewed change. Only the moderator who previewed it can confirm it, once.
   * @param options.onProgress - hears which change is being applied, then where its reload is (a reload
   * on a large corpus takes tens of seconds).
   */
  confirm(
    actor: Actor,
    token: string,
    options: { onProgress?: (progress: ApplyProgress) => void } = {},
  ): Promise<EditOutcome> {
    const pending = this.#take(actor, token);
    if (pending === undefined) return Promise.resolve({ status: 'expired' });
    const run = this.#chain.then(() => this.#apply(actor, pending.change, options.onProgress));
    this.#chain = run.catch(() => undefined);
    return run;
  }

  async #apply(
    actor: Actor,
    change: PendingChange,
    onProgress: ((progress: ApplyProgress) => void) | undefined,
  ): Promise<EditOutcome> {
    const { store, reloader, slot, audit } = this.#options;
    const id = change.prepared.article.id;
    const versionBefore = slot.engine.version;
    const step = { kind: change.kind, id, fileName: change.prepared.fileName };
    onProgress?.({ ...step, reload: undefined });
    let undo: Undo;
    try {
      undo =
        change.kind === 'remove' ? await store.remove(change.prepared) : await store.write(change.prepared);
    } catch (error) {
      await audit?.record({
        actor,
        action: change.kind,
        target: id,
        outcome: 'refused',
        versionBefore,
        versionAfter: versionBefore,
        detail: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
    const reload = await reloader.reload({
      trigger: 'corpus-change',
      actor,
      queue: true,
      onProgress: (progress) => onProgress?.({ ...step, reload: progress }),
    });
    if (reload.status === 'reloaded') {
      await audit?.record({
        actor,
        action: change.kind,
        target: id,
        outcome: 'ok',
        versionBefore,
        versionAfter: reload.report.versionAfter,
        detail: `${change.prepared.fileName}: ${summarizeOutcome(reload)}`,
      });
      const outcome = { status: 'applied', kind: change.kind, id, reload } as const;
      await this.#options.onApplied?.(outcome);
      return outcome;
    }
    await undo();
    await audit?.record({
      actor,
      action: change.kind,
      target: id,
      outcome: reload.status === 'refused' ? 'refused' : 'failed',
      versionBefore,
      versionAfter: slot.engine.version,
      detail: `${change.prepared.fileName} written, then undone: ${summarizeOutcome(reload)}`,
    });
    return { status: 'rolled-back', kind: change.kind, id, reload };
  }

  async #applyBatch(actor: Actor, batch: readonly PreparedArticle[]): Promise<BatchOutcome> {
    const { store, reloader, slot, audit } = this.#options;
    const versionBefore = slot.engine.version;
    const ids = batch.map((prepared) => prepared.article.id);
    const record = (outcome: 'ok' | 'refused' | 'failed', versionAfter: string, detail: string) =>
      Promise.all(
        batch.map((prepared) =>
          audit?.record({
            actor,
            action: 'add',
            target: prepared.article.id,
            outcome,
            versionBefore,
            versionAfter,
            detail: `${prepared.fileName}: ${detail}`,
          }),
        ),
      );
    const undos: Undo[] = [];
    const undoAll = async () => {
      for (const undo of undos.reverse()) await undo();
    };
    try {
      for (const prepared of batch) undos.push(await store.write(prepared));
    } catch (error) {
      await undoAll();
      await record('refused', versionBefore, error instanceof Error ? error.message : String(error));
      throw error;
    }
    const reload = await reloader.reload({ trigger: 'corpus-change', actor, queue: true });
    if (reload.status === 'reloaded') {
      await record(
        'ok',
        reload.report.versionAfter,
        `one of ${batch.length} added together; ${summarizeOutcome(reload)}`,
      );
      return { status: 'applied', ids, reload };
    }
    await undoAll();
    await record(
      reload.status === 'refused' ? 'refused' : 'failed',
      slot.engine.version,
      `written, then undone: ${summarizeOutcome(reload)}`,
    );
    return { status: 'rolled-back', ids, reload };
  }

  #keep(actor: Actor, change: PendingChange): string {
    const now = Date.now();
    for (const [token, pending] of this.#pending) if (pending.expires <= now) this.#pending.delete(token);
    const token = randomBytes(9).toString('base64url');
    this.#pending.set(token, {
      change,
      actorId: actor.id,
      expires: now + (this.#options.confirmWithinMs ?? 600_000),
    });
    return token;
  }

  #take(actor: Actor, token: string): Pending | undefined {
    const pending = this.#pending.get(token);
    if (pending === undefined || pending.actorId !== actor.id || pending.expires <= Date.now())
      return undefined;
    this.#pending.delete(token);
    return pending;
  }
}
