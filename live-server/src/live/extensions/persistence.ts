/**
 * Durable live documents (`page.{id}`, `issue.{id}`; storage.ts says where and how).
 *
 * Durability without holding up the broadcast: a writable client's update is checked in
 * `beforeHandleMessage`, then Hocuspocus applies it and broadcasts it to the other clients at
 * once. Its acknowledgement (the SyncStatus frame Hocuspocus sends right after applying) is
 * held back (AckGate) while the update is appended to the write-ahead log, and sent only once
 * that INSERT has committed (updates of a short window share one INSERT: update-log.ts). So an
 * edit a provider has seen acknowledged (no unsynced changes left) is in the database and
 * survives `kill -9`; the next load applies the log after the stored state. An update that
 * reached other clients but not the log before a crash was never acknowledged: its author's
 * provider still holds it and sends it again when it syncs with the restarted server.
 *
 * Compaction: `onStoreDocument` (debounced by Hocuspocus; run at once when the last client
 * leaves, and again before unloading if rows were logged after it) folds the document into its
 * row and deletes exactly the log rows already applied to the in-memory document. A row is counted only once it is both applied and committed, so a
 * store never deletes a row whose update its state lacks; a row committed after a store is
 * deleted by the next one (or re-applied, harmlessly, by the next load).
 *
 * Generations: an update that stamps another generation than the document's (a client whose
 * copy predates a REST replacement of the description) is refused with `document-reset`.
 */
import {
  type afterHandleMessagePayload,
  type afterLoadDocumentPayload,
  type beforeHandleMessagePayload,
  type beforeUnloadDocumentPayload,
  type Connection,
  type Document,
  type Extension,
  isTransactionOrigin,
  type onLoadDocumentPayload,
  type onStoreDocumentPayload,
} from "@hocuspocus/server";
import { parseDocumentName } from "@tideline/shared";
import type { FastifyBaseLogger } from "fastify";
import * as Y from "yjs";
import type { Db } from "../../db/client.ts";
import type { EventBus } from "../../events/bus.ts";
import { authenticated, type LiveContext, refusal } from "../context.ts";
import { inspectUpdate, isEmptyUpdate, syncStatusOf, yjsUpdateOf } from "../messages.ts";
import { generationOf } from "../schema.ts";
import type { LogRow } from "../storage.ts";
import { type ContentRef, isContentRef, loadDocument, type StoreResult, storeDocument } from "../storage.ts";
import { UpdateLog } from "../update-log.ts";

export type PersistenceConfig = { db: Db; events: EventBus; instanceId: string; log: FastifyBaseLogger };

type DocumentState = {
  ref: ContentRef;
  /** Log rows applied to the in-memory document and not yet folded into the stored state. */
  folded: number[];
  /** The last user whose update changed the document (updated_by of the next store). */
  actorId: string | null;
  /**
   * Forced stores asked (after a REST replacement: write even though the stored state is gone)
   * and the last of them a store has carried out; one is pending while `forced > forcedDone`.
   * Counted, not a flag: a store already running when the replacement comes must not clear the
   * request it never saw (under load one did, the replacement's store was then skipped and the
   * description kept no state, so later live edits were not stored).
   */
  forced: number;
  forcedDone: number;
};

/** Transaction origin of the load, so nothing treats it as a change. */
const LOAD_ORIGIN = { source: "local", skipStoreHooks: true } as const;

export class Persistence implements Extension<LiveContext> {
  extensionName = "tideline-persistence";
  /** Last of the message hooks: when it logs an update, nothing after it can refuse it. */
  priority = 100;
  private readonly config: PersistenceConfig;
  /** The write-ahead log, written in batches (group commit). */
  readonly updateLog: UpdateLog;
  private readonly states = new WeakMap<Document, DocumentState>();
  /** Each writable connection's acknowledgements, held until their updates are logged. */
  private readonly gates = new WeakMap<Connection, AckGate>();

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
    const state: DocumentState = { ref, folded, actorId: null, forced: 0, forcedDone: 0 };
    this.states.set(document, state);
    // Whoever's update changed the document is its last editor (updated_by, the version's
    // owner): Y.Doc emits `update` only for a change. Sending an update is not enough: a client
    // opening the document with a copy of its own (a reconnecting tab, the reference's editor
    // with its IndexedDB copy) sends its whole delete set, which changes nothing.
    document.on("update", (_update: Uint8Array, origin: unknown) => {
      if (!isTransactionOrigin(origin) || origin.source !== "connection") return;
      const actorId = authenticated(origin.connection.context)?.user.id;
      if (!actorId) return;
      state.actorId = actorId;
      this.gates.get(origin.connection)?.changed();
    });
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

  /**
   * Check a writable client's update before Hocuspocus applies it, and arm its connection's
   * gate: the acknowledgement Hocuspocus sends once it has applied the update starts the log
   * append and waits for it (AckGate).
   */
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
    let gate = this.gates.get(connection);
    if (!gate) {
      gate = new AckGate(connection, this.updateLog, this.config.log);
      this.gates.set(connection, gate);
    }
    gate.expect({ documentName: document.name, update, actorId }, (id) => {
      this.states.get(document)?.folded.push(id);
    });
  }

  /** A frame whose update was not applied (refused, or it threw) leaves nothing armed. */
  async afterHandleMessage({ connection }: afterHandleMessagePayload<LiveContext>): Promise<void> {
    this.gates.get(connection)?.disarm();
  }

  async onStoreDocument({ document }: onStoreDocumentPayload<LiveContext>): Promise<void> {
    await this.store(document);
  }

  /**
   * Hocuspocus stores a document as its last client leaves only when a store is still
   * debounced; one that ran between an update and its log row's commit left that row for later
   * (the debounce is shorter than a slow group commit). Fold what was logged since, so an
   * unloaded document leaves no log behind. A client that joins meanwhile keeps it loaded.
   */
  async beforeUnloadDocument({ document }: beforeUnloadDocumentPayload): Promise<void> {
    if (!this.states.get(document)?.folded.length) return;
    await this.storeNow(document);
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
    const forced = state.forced;
    const result = await storeDocument(this.config.db, this.config.events, state.ref, {
      state: encoded,
      foldedIds,
      actorId: state.actorId,
      force: forced > state.forcedDone,
      instanceId: this.config.instanceId,
    });
    if (result !== "skipped") {
      const done = new Set(foldedIds);
      state.folded = state.folded.filter((id) => !done.has(id));
      // Only the forced stores asked before this one began are done.
      state.forcedDone = Math.max(state.forcedDone, forced);
    }
    return result;
  }

  /** Store now, serialised with Hocuspocus' own stores; `force` writes even over a cleared state. */
  async storeNow(document: Document, options: { force?: boolean } = {}): Promise<StoreResult | null> {
    const state = this.states.get(document);
    if (!state) return null;
    if (options.force) state.forced += 1;
    return document.saveMutex.runExclusive(() => this.store(document));
  }

  /** Make the next store write even over a cleared state (the document was just replaced). */
  forceNextStore(document: Document): void {
    const state = this.states.get(document);
    if (state) state.forced += 1;
  }
}

/** `changed`: applying the update changed the document (else its row names no actor). */
type Expected = { row: LogRow; onLogged: (id: number) => void; changed: boolean };

/**
 * Holds a connection's sync acknowledgements until the updates they acknowledge are logged.
 *
 * Hocuspocus applies a client's update, lets its broadcast go out, and sends the client a
 * SyncStatus frame, all through `connection.send`. The gate wraps that one connection's `send`:
 * the "applied" SyncStatus of an armed frame appends the frame's update to the log and is sent
 * when the INSERT has committed; every later SyncStatus waits behind the earlier ones, so the
 * client sees its acknowledgements in order. Other frames (other clients' updates, awareness)
 * pass at once. If the append fails, the connection is closed without the acknowledgement: the
 * client keeps the update as unsynced and sends it again after reconnecting, and the in-memory
 * document still holds it for the next store.
 */
class AckGate {
  private expected: Expected | null = null;
  /** Settles after every acknowledgement held so far has been sent (or dropped). */
  private held: Promise<void> = Promise.resolve();
  private outstanding = 0;
  private readonly send: (message: Uint8Array) => void;
  private readonly connection: Connection;
  private readonly updateLog: UpdateLog;
  private readonly log: FastifyBaseLogger;

  constructor(connection: Connection, updateLog: UpdateLog, log: FastifyBaseLogger) {
    this.connection = connection;
    this.updateLog = updateLog;
    this.log = log;
    this.send = connection.send.bind(connection);
    connection.send = (message: Uint8Array) => this.intercept(message);
  }

  /** The frame being handled carries `row`: log it when Hocuspocus acknowledges it. */
  expect(row: LogRow, onLogged: (id: number) => void): void {
    this.expected = { row, onLogged, changed: false };
  }

  /** Applying the armed frame's update changed the document (its row credits its sender). */
  changed(): void {
    if (this.expected) this.expected.changed = true;
  }

  disarm(): void {
    this.expected = null;
  }

  private intercept(message: Uint8Array): void {
    const status = syncStatusOf(message);
    const expected = status ? this.expected : null;
    if (status) this.expected = null;
    if (status?.applied && expected) this.holdUntilLogged(message, expected);
    else if (status && this.outstanding > 0) this.hold(message, this.held);
    else this.send(message);
  }

  private holdUntilLogged(message: Uint8Array, { row, onLogged, changed }: Expected): void {
    // An update that changed nothing is logged all the same (harmless), but credits nobody: a
    // fold from the log alone (storage.ts foldPendingLog) names the last row's actor.
    const logged = this.updateLog.append(changed ? row : { ...row, actorId: null }).then(onLogged);
    // Not awaited by anyone but the gate: a failure closes the connection here.
    logged.catch((err: unknown) => {
      this.log.error(
        { err, documentName: row.documentName },
        "could not log a document update; closing the connection",
      );
      // Hocuspocus' ResetConnection: the provider reconnects and syncs again.
      this.connection.close({ code: 4205, reason: "Reset Connection" });
    });
    this.hold(message, Promise.all([this.held, logged]));
  }

  private hold(message: Uint8Array, until: Promise<unknown>): void {
    this.outstanding += 1;
    const sent = until.then(
      () => this.send(message),
      () => {},
    );
    this.held = sent.finally(() => {
      this.outstanding -= 1;
    });
  }
}
