/**
 * Durable live documents (`page.{id}`, `issue.{id}`; storage.ts says where and how).
 *
 * Durability: a client's update is appended to the write-ahead log in `beforeHandleMessage`,
 * which Hocuspocus awaits before it applies the message and sends the sync acknowledgement
 * (updates arriving together share one INSERT: update-log.ts). So
 * an edit a provider has seen acknowledged (no unsynced changes left) is in the database, and
 * survives `kill -9`; the next load applies the log after the stored state.
 *
 * Compaction: `onStoreDocument` (debounced by Hocuspocus; run at once when the last client
 * leaves) folds the document into its row and deletes exactly the log rows already applied to
 * the in-memory document. A row is counted as applied only in `afterHandleMessage`, so a store
 * that runs while an update is between "logged" and "applied" keeps that row.
 *
 * Generations: an update that stamps another generation than the document's (a client whose
 * copy predates a REST replacement of the description) is refused with `document-reset`.
 */
import type {
  afterHandleMessagePayload,
  afterLoadDocumentPayload,
  beforeHandleMessagePayload,
  Document,
  Extension,
  onLoadDocumentPayload,
  onStoreDocumentPayload,
} from "@hocuspocus/server";
import { parseDocumentName } from "@tideline/shared";
import type { FastifyBaseLogger } from "fastify";
import * as Y from "yjs";
import type { Db } from "../../db/client.ts";
import type { EventBus } from "../../events/bus.ts";
import { authenticated, type LiveContext, refusal } from "../context.ts";
import { inspectUpdate, isEmptyUpdate, yjsUpdateOf } from "../messages.ts";
import { generationOf } from "../schema.ts";
import { type ContentRef, isContentRef, loadDocument, type StoreResult, storeDocument } from "../storage.ts";
import { UpdateLog } from "../update-log.ts";

export type PersistenceConfig = { db: Db; events: EventBus; instanceId: string; log: FastifyBaseLogger };

type DocumentState = {
  ref: ContentRef;
  /** Log rows applied to the in-memory document and not yet folded into the stored state. */
  folded: number[];
  /** The last user whose update was applied (updated_by of the next store). */
  actorId: string | null;
  /** The next store writes even if the stored state is gone (set after a REST replacement). */
  force: boolean;
};

/** Transaction origin of the load, so nothing treats it as a change. */
const LOAD_ORIGIN = { source: "local", skipStoreHooks: true } as const;

export class Persistence implements Extension<LiveContext> {
  extensionName = "tideline-persistence";
  /** Last of the message hooks: when it logs an update, nothing after it can refuse it. */
  priority = 100;
  private readonly config: PersistenceConfig;
  /** The write-ahead log, written in batches (group commit). */
  private readonly updateLog: UpdateLog;
  private readonly states = new WeakMap<Document, DocumentState>();
  /** Log id of a frame between beforeHandleMessage and afterHandleMessage. */
  private readonly logged = new WeakMap<Uint8Array, number>();

  constructor(config: PersistenceConfig) {
    this.config = config;
    this.updateLog = new UpdateLog(config.db);
  }

  /** Stored state, then the log in order. A broken log row is skipped (and logged), not fatal. */
  async onLoadDocument({ document, documentName }: onLoadDocumentPayload<LiveContext>): Promise<void> {
    const ref = parseDocumentName(documentName);
    if (!ref || !isContentRef(ref)) return;
    const loaded = await loadDocument(this.config.db, ref);
    // Deleted between authentication and load.
    if (!loaded) throw refusal("forbidden");
    const folded: number[] = [];
    Y.applyUpdate(document, loaded.state, LOAD_ORIGIN);
    for (const row of loaded.updates) {
      try {
        Y.applyUpdate(document, row.update, LOAD_ORIGIN);
        folded.push(row.id);
      } catch (err) {
        this.config.log.error({ err, documentName, updateId: row.id }, "skipped an unreadable document update");
      }
    }
    this.states.set(document, { ref, folded, actorId: null, force: false });
  }

  /**
   * A log left from before (a crash, or a store that failed) is folded soon even if nobody
   * edits: schedule a store like an edit would (run at once when the last client leaves).
   */
  async afterLoadDocument({ document, documentName, instance, context }: afterLoadDocumentPayload<LiveContext>) {
    if (!this.states.get(document)?.folded.length) return;
    instance.storeDocumentHooks(document, {
      instance,
      document,
      documentName,
      clientsCount: document.getConnectionsCount(),
      lastContext: context,
      lastTransactionOrigin: LOAD_ORIGIN,
    });
  }

  /** Log a writable client's update before Hocuspocus applies and acknowledges it. */
  async beforeHandleMessage({ document, connection, update: frame, context }: beforeHandleMessagePayload<LiveContext>) {
    const state = this.states.get(document);
    // Read-only connections' updates are never applied (Hocuspocus answers them "not synced").
    if (!state || connection.readOnly) return;
    const update = yjsUpdateOf(frame);
    if (!update || isEmptyUpdate(update)) return;
    const { generations } = inspectUpdate(update);
    const current = generationOf(document);
    if (current && generations.some((g) => g !== current)) throw refusal("documentReset");
    const actorId = authenticated(context)?.user.id ?? null;
    // Shares one INSERT with the updates that arrived together (update-log.ts); durable once it resolves.
    this.logged.set(frame, await this.updateLog.append({ documentName: document.name, update, actorId }));
    state.actorId = actorId ?? state.actorId;
  }

  /** The logged update is now part of the in-memory document: the next store may fold it. */
  async afterHandleMessage({ document, update: frame }: afterHandleMessagePayload<LiveContext>): Promise<void> {
    const id = this.logged.get(frame);
    if (id === undefined) return;
    this.logged.delete(frame);
    this.states.get(document)?.folded.push(id);
  }

  async onStoreDocument({ document }: onStoreDocumentPayload<LiveContext>): Promise<void> {
    await this.store(document);
  }

  /**
   * Fold `document` into the database now. Callers outside Hocuspocus' store hook hold the
   * document's save mutex (see storeNow).
   */
  private async store(document: Document): Promise<StoreResult | null> {
    const state = this.states.get(document);
    if (!state) return null;
    // Both read in the same tick: the ids are exactly the rows the encoded state contains.
    const encoded = Y.encodeStateAsUpdate(document);
    const foldedIds = [...state.folded];
    const result = await storeDocument(this.config.db, this.config.events, state.ref, {
      state: encoded,
      foldedIds,
      actorId: state.actorId,
      force: state.force,
      instanceId: this.config.instanceId,
    });
    if (result !== "skipped") {
      const done = new Set(foldedIds);
      state.folded = state.folded.filter((id) => !done.has(id));
      state.force = false;
    }
    return result;
  }

  /** Store now, serialised with Hocuspocus' own stores; `force` writes even over a cleared state. */
  async storeNow(document: Document, options: { force?: boolean } = {}): Promise<StoreResult | null> {
    const state = this.states.get(document);
    if (!state) return null;
    if (options.force) state.force = true;
    return document.saveMutex.runExclusive(() => this.store(document));
  }

  /** Make the next store write even over a cleared state (the document was just replaced). */
  forceNextStore(document: Document): void {
    const state = this.states.get(document);
    if (state) state.force = true;
  }
}
