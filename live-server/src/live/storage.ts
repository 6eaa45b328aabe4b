/**
 * Where live documents live in the database, and the three operations on them:
 * - load: the stored Yjs state (`description_binary`) plus every row of the write-ahead log
 *   (`document_updates`) for the document, in order. A document without state is built from its
 *   stored HTML and that state is saved at once, before any client can edit it, so updates in
 *   the log always apply to the very items they were made against.
 * - append: client updates to the log, before the server acknowledges them (durability); the
 *   live layer writes the updates that arrive together in one INSERT (update-log.ts).
 * - store: fold the in-memory state into `description_binary` (merged with what is stored, so
 *   a REST write or another instance's store is never overwritten), re-derive the sanitised
 *   HTML and plain text, delete exactly the log rows that were folded, and emit the entity's
 *   `*.updated` event when the HTML changed.
 *   Pages also keep their title (PAGE_TITLE_FIELD) in step with pages.name: a load whose
 *   title differs from the name logs the update that makes it say the name (under the row
 *   lock, so instances loading together don't each insert one), and a store whose folded title
 *   differs from the name renames the page (`page.updated` with `name` in changed_fields).
 * - foldPendingLog: the same store from the log alone, when a REST read asks for the HTML of a
 *   document whose log still has rows (after a crash, or before a debounced store).
 *
 * Every read and write locks the owning row (`for update`), like the pages REST API does, so
 * loads, stores and REST writes of one document are serialised.
 */
import { issueDocumentName, LIVE_MUTATION_PREFIX, type LiveDocumentRef, pageDocumentName } from "@tideline/shared";
import { and, asc, eq, inArray } from "drizzle-orm";
import * as Y from "yjs";
import type { Db, DbOrTx } from "../db/client.ts";
import { documentUpdates, issues, pageProjects, pages } from "../db/schema.ts";
import { type EventBus, transactionWithEvents } from "../events/bus.ts";
import { loadIssue } from "../routes/issues/query.ts";
import { emitIssue } from "../routes/issues/service.ts";
import { maybeSnapshotWhileEditing } from "../routes/pages/document.ts";
import { presentPageEvent } from "../routes/pages/presenter.ts";
import { maybeRecordWhileEditing } from "../services/description-versions.ts";
import { asPageName, contentOfState, stateFromHtml, titleOf, titleUpdateFor } from "./schema.ts";

/** The document kinds that hold content (project and user channels hold none). */
export type ContentRef = LiveDocumentRef & { kind: "issue" | "page" };

export function isContentRef(ref: LiveDocumentRef): ref is ContentRef {
  return ref.kind === "issue" || ref.kind === "page";
}

const nameOf = (ref: ContentRef) => (ref.kind === "issue" ? issueDocumentName(ref.id) : pageDocumentName(ref.id));

type OwnerRow = {
  name: string;
  descriptionBinary: Uint8Array | null;
  descriptionHtml: string;
  updatedAt: Date;
};

async function lockOwner(tx: DbOrTx, ref: ContentRef): Promise<OwnerRow | undefined> {
  const table = ref.kind === "issue" ? issues : pages;
  const [row] = await tx
    .select({
      name: table.name,
      descriptionBinary: table.descriptionBinary,
      descriptionHtml: table.descriptionHtml,
      updatedAt: table.updatedAt,
    })
    .from(table)
    .where(eq(table.id, ref.id))
    .for("update");
  return row;
}

export type LoadedDocument = {
  /** The stored state (built from the HTML when there was none). */
  state: Uint8Array;
  /** Log rows after it, in order. */
  updates: { id: number; update: Uint8Array }[];
  /** True when the state was just built from the HTML. */
  built: boolean;
};

/** The stored document, or null when its issue or page does not exist. */
export async function loadDocument(db: Db, ref: ContentRef): Promise<LoadedDocument | null> {
  return db.transaction(async (tx) => {
    const row = await lockOwner(tx, ref);
    if (!row) return null;
    const name = nameOf(ref);
    if (row.descriptionBinary === null) {
      // No state: either a document never opened live, or a REST write replaced the HTML (the
      // issues API clears the state). Log rows left over belong to the replaced state: drop them.
      await tx.delete(documentUpdates).where(eq(documentUpdates.documentName, name));
      // A page's state carries its title from the start (schema.ts stateFromHtml).
      const state = stateFromHtml(row.descriptionHtml, ref.kind === "page" ? row.name : undefined);
      const table = ref.kind === "issue" ? issues : pages;
      // updated_at stays: building the state changes nothing a user can see.
      await tx.update(table).set({ descriptionBinary: state, updatedAt: row.updatedAt }).where(eq(table.id, ref.id));
      const updates = ref.kind === "page" ? await titleInStep(tx, name, state, [], row.name) : [];
      return { state, updates, built: true };
    }
    const updates = await tx
      .select({ id: documentUpdates.id, update: documentUpdates.update })
      .from(documentUpdates)
      .where(eq(documentUpdates.documentName, name))
      .orderBy(asc(documentUpdates.id));
    return {
      state: row.descriptionBinary,
      updates: ref.kind === "page" ? await titleInStep(tx, name, row.descriptionBinary, updates, row.name) : updates,
      built: false,
    };
  });
}

/**
 * A page loaded whose title does not say its name (never set, or renamed over REST before the
 * title existed): log the update that sets it and hand it out with the rest of the log.
 */
async function titleInStep(
  tx: DbOrTx,
  documentName: string,
  state: Uint8Array,
  updates: { id: number; update: Uint8Array }[],
  pageName: string,
): Promise<{ id: number; update: Uint8Array }[]> {
  let update: Uint8Array | null;
  try {
    update = titleUpdateFor(Y.mergeUpdates([state, ...updates.map((u) => u.update)]), pageName);
  } catch {
    // An unreadable log row: the load skips it; the title waits for a later load.
    return updates;
  }
  if (!update) return updates;
  const [logged] = await tx
    .insert(documentUpdates)
    .values({ documentName, update })
    .returning({ id: documentUpdates.id });
  return logged ? [...updates, { id: logged.id, update }] : updates;
}

export type LogRow = { documentName: string; update: Uint8Array; actorId: string | null };

/**
 * Append several updates, of any documents, in one INSERT (one transaction, one WAL flush);
 * returns their ids in the order of `rows`. The ids come from one sequence, drawn in the order
 * of the VALUES list, so sorting them restores that order whatever order RETURNING uses.
 */
export async function appendUpdates(db: Db, rows: readonly LogRow[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insert(documentUpdates)
    .values(rows.map((row) => ({ documentName: row.documentName, update: row.update, actorId: row.actorId })))
    .returning({ id: documentUpdates.id });
  if (inserted.length !== rows.length) throw new Error("document update insert failed");
  return inserted.map((row) => row.id).sort((a, b) => a - b);
}

/** Append a client's update (sent by `actorId`) to the document's log; returns its id. */
export async function appendUpdate(
  db: Db,
  documentName: string,
  update: Uint8Array,
  actorId: string | null = null,
): Promise<number> {
  const [row] = await db
    .insert(documentUpdates)
    .values({ documentName, update, actorId })
    .returning({ id: documentUpdates.id });
  if (!row) throw new Error("document update insert failed");
  return row.id;
}

export type StoreInput = {
  /** The in-memory document, encoded. */
  state: Uint8Array;
  /** Log rows already applied to it (they are deleted once folded). */
  foldedIds: number[];
  /** The last user who changed it (updated_by, the event's actor). */
  actorId: string | null;
  /**
   * Store even when the stored state is gone. Without it, a missing state means a REST write
   * replaced the HTML after this document was loaded: storing would undo that write, so the
   * store is skipped and the live layer replaces the document's content first.
   */
  force?: boolean;
  /** Id of this server instance, for the event's client mutation id. */
  instanceId: string;
};

export type StoreResult = "stored" | "unchanged" | "skipped" | "missing";

/**
 * Fold the log rows no store has folded yet into the owner row, for a REST read of the
 * description: after `kill -9` the acknowledged edits are only in the log until the document
 * is opened live again, and a store may still be pending while it is edited. Nothing to do
 * (one indexed look-up) when the log is empty. The rows are read without the lock and folded
 * by storeDocument under it; folding rows another store folds too is harmless (merging is
 * idempotent, and each deletes only the rows it read). Rows of a replaced state (no stored
 * state: a REST write replaced the description) are left for the next load to drop.
 * The last row's sender is the actor (updated_by, the event's actor), as the live store would
 * credit the last editor.
 */
export async function foldPendingLog(
  db: Db,
  bus: EventBus,
  ref: ContentRef,
  instanceId: string,
): Promise<StoreResult | "none"> {
  const name = nameOf(ref);
  const pending = await db
    .select({ id: documentUpdates.id, update: documentUpdates.update, actorId: documentUpdates.actorId })
    .from(documentUpdates)
    .where(eq(documentUpdates.documentName, name))
    .orderBy(asc(documentUpdates.id));
  if (pending.length === 0) return "none";
  const state = Y.mergeUpdates(pending.map((r) => r.update));
  const actorId = pending.findLast((r) => r.actorId !== null)?.actorId ?? null;
  return storeDocument(db, bus, ref, { state, foldedIds: pending.map((r) => r.id), actorId, instanceId });
}

/** Fold the document into its row (see the file comment). */
export async function storeDocument(db: Db, bus: EventBus, ref: ContentRef, input: StoreInput): Promise<StoreResult> {
  const name = nameOf(ref);
  const origin = { actorId: input.actorId, clientMutationId: `${LIVE_MUTATION_PREFIX}${input.instanceId}` };
  const result = await transactionWithEvents(db, bus, origin, async (tx, emit): Promise<StoreResult> => {
    const row = await lockOwner(tx, ref);
    if (!row) {
      // Deleted: its log has nothing left to fold into.
      await tx.delete(documentUpdates).where(eq(documentUpdates.documentName, name));
      return "missing";
    }
    if (row.descriptionBinary === null && !input.force) return "skipped";
    const folded = new Y.Doc();
    let state: Uint8Array;
    let title: string | null;
    try {
      if (row.descriptionBinary) Y.applyUpdate(folded, row.descriptionBinary);
      Y.applyUpdate(folded, input.state);
      state = Y.encodeStateAsUpdate(folded);
      title = ref.kind === "page" ? titleOf(folded) : null;
    } finally {
      folded.destroy();
    }
    const content = contentOfState(state);
    // The title edited in the document renames the page (compared as a name: one line, trimmed).
    const rename = title !== null && title !== asPageName(row.name) ? title : null;
    const changedFields = [
      ...(content.html !== row.descriptionHtml ? ["description_html"] : []),
      ...(rename !== null ? ["name"] : []),
    ];
    const changed = changedFields.length > 0;
    const table = ref.kind === "issue" ? issues : pages;
    const [updated] = await tx
      .update(table)
      .set({
        descriptionBinary: state,
        descriptionHtml: content.html,
        descriptionStripped: content.stripped,
        ...(rename !== null ? { name: rename } : {}),
        // Only a visible change counts as an update (delta sync, lists sorted by update).
        ...(changed
          ? { updatedAt: new Date(), updatedById: input.actorId ?? undefined }
          : { updatedAt: row.updatedAt }),
      })
      .where(eq(table.id, ref.id))
      .returning({ workspaceId: table.workspaceId });
    if (input.foldedIds.length > 0) {
      await tx
        .delete(documentUpdates)
        .where(and(eq(documentUpdates.documentName, name), inArray(documentUpdates.id, input.foldedIds)));
    }
    if (!changed || !updated) return "unchanged";
    if (ref.kind === "issue") {
      const presented = await loadIssue(tx, ref.id, { includeDescription: true });
      if (presented) emitIssue(emit, "issue.updated", presented, { changed_fields: ["description_html"] });
    } else {
      const [page] = await tx.select().from(pages).where(eq(pages.id, ref.id));
      const links = await tx
        .select({ projectId: pageProjects.projectId })
        .from(pageProjects)
        .where(eq(pageProjects.pageId, ref.id));
      const projectIds = links.map((l) => l.projectId);
      if (page) {
        const data = {
          ...presentPageEvent(page, { projectIds, isFavorite: false }),
          changed_fields: changedFields,
        };
        for (const projectId of projectIds) {
          emit("page.updated", { workspaceId: updated.workspaceId, projectId, entityId: ref.id }, data);
        }
      }
    }
    return "stored";
  });
  // Versions of a page while it is edited (at most one per interval; the pages API decides).
  if (result === "stored" && ref.kind === "page") await maybeSnapshotWhileEditing(db, ref.id, input.actorId);
  // A work item's description history, the same way (services/description-versions.ts).
  if (result === "stored" && ref.kind === "issue") await maybeRecordWhileEditing(db, ref.id, input.actorId);
  return result;
}
