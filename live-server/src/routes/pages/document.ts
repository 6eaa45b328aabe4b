/**
 * A page's body on the server: its Yjs state, REST writes to it and its versions.
 *
 * Storage (shared with the live layer): `pages.description_binary` holds the folded Yjs state,
 * `document_updates` rows named `page.{id}` are updates appended since (the write-ahead log),
 * and description_html / description_stripped are derived from the state. The current state
 * is always the stored state merged with the pending rows.
 *
 * A REST write is a Yjs update too (a client's binary update, or the diff that turns the
 * document into given HTML or into a version), so it merges with live edits instead of
 * overwriting them. Under the page row's lock it is appended to the log, folded with the rows
 * it read into description_binary, and those rows are removed. After the commit, listeners
 * registered with `onPageContentChange` (the live layer) get the update, to apply it to a
 * document they hold in memory.
 *
 * Title: the document also holds the page's title (PAGE_TITLE_FIELD, beside the body), kept in
 * step with pages.name: a rename writes the title as an update (titleReplacementFor), and an
 * update that changes the title renames the page (applyPageUpdate).
 */
import { LIVE_LIMITS, PAGE_VERSION_INTERVAL_MS, PAGE_VERSIONS_KEPT, pageDocumentName } from "@tideline/shared";
import { and, desc, eq, inArray, notInArray } from "drizzle-orm";
import * as Y from "yjs";
import type { Db, DbOrTx, Tx } from "../../db/client.ts";
import { documentUpdates, pages, pageVersions } from "../../db/schema.ts";
import type { EventBus } from "../../events/bus.ts";
import { badRequest } from "../../http/errors.ts";
import { asPageName, titleOf, titleUpdateFor } from "../../live/schema.ts";
import {
  ContentError,
  contentOfDoc,
  docFromState,
  type PageContent,
  replacementUpdate,
  stateFromHtml,
} from "./content.ts";
import { type PageRow, pageNotFound } from "./policy.ts";

export type VersionRow = typeof pageVersions.$inferSelect;

/** The page row, locked until the transaction ends (REST and live writes of a page serialise on it). */
export async function lockPageRow(tx: DbOrTx, pageId: string): Promise<PageRow> {
  const [row] = await tx.select().from(pages).where(eq(pages.id, pageId)).for("update");
  if (!row) throw pageNotFound();
  return row;
}

type CurrentState = {
  state: Uint8Array;
  /** Ids of the log rows merged into `state`. */
  updateIds: number[];
  /** True when the page had no Yjs state and `state` was just built from its HTML. */
  built: boolean;
};

/** Stored state (or one built from the HTML) merged with the pending log rows. */
export async function currentPageState(db: DbOrTx, page: PageRow): Promise<CurrentState> {
  // Without a stored state, rows left in the log belong to a state that was replaced (the live
  // layer drops them when it builds one): they never apply to a state built from the HTML.
  if (page.descriptionBinary === null) {
    return { state: stateFromHtml(page.descriptionHtml, page.name), updateIds: [], built: true };
  }
  const rows = await db
    .select({ id: documentUpdates.id, update: documentUpdates.update })
    .from(documentUpdates)
    .where(eq(documentUpdates.documentName, pageDocumentName(page.id)))
    .orderBy(documentUpdates.id);
  const state =
    rows.length === 0 ? page.descriptionBinary : Y.mergeUpdates([page.descriptionBinary, ...rows.map((r) => r.update)]);
  return { state, updateIds: rows.map((r) => r.id), built: false };
}

/** Forget log rows of a replaced state, when a built state is about to be stored (page row locked). */
async function dropStaleLog(tx: DbOrTx, pageId: string): Promise<void> {
  await tx.delete(documentUpdates).where(eq(documentUpdates.documentName, pageDocumentName(pageId)));
}

/**
 * The state a client without a WebSocket starts from. A page that has none yet gets one built
 * from its HTML and stored, so every client shares the same Yjs items (two states built apart
 * would each insert the text, and merging them would show it twice).
 */
export async function readPageState(db: Db, page: PageRow): Promise<Uint8Array> {
  if (page.descriptionBinary !== null) {
    // Without the row lock: the log first, then the stored state. A fold in between puts rows
    // in both (merging is idempotent) rather than in neither.
    const rows = await db
      .select({ update: documentUpdates.update })
      .from(documentUpdates)
      .where(eq(documentUpdates.documentName, pageDocumentName(page.id)))
      .orderBy(documentUpdates.id);
    const [fresh] = await db.select({ state: pages.descriptionBinary }).from(pages).where(eq(pages.id, page.id));
    if (!fresh) throw pageNotFound();
    if (fresh.state !== null) {
      const state = Y.mergeUpdates([fresh.state, ...rows.map((r) => r.update)]);
      if (!lacksTitle(state)) return state;
    }
  }
  return db.transaction(async (tx) => {
    const locked = await lockPageRow(tx, page.id);
    const current = await currentPageState(tx, locked);
    if (current.built) {
      await dropStaleLog(tx, page.id);
      // updated_at stays: building the state changes nothing a user can see.
      await tx
        .update(pages)
        .set({ descriptionBinary: current.state, updatedAt: locked.updatedAt })
        .where(eq(pages.id, page.id));
      return current.state;
    }
    // A state stored before pages kept their title: give it the name now, as a live load does
    // (live/storage.ts), logged under the row lock so a load at the same time never adds a second.
    const title = lacksTitle(current.state) ? titleUpdateFor(current.state, locked.name) : null;
    if (!title) return current.state;
    await tx.insert(documentUpdates).values({ documentName: pageDocumentName(page.id), update: title });
    return Y.mergeUpdates([current.state, title]);
  });
}

/** True when a readable state has no title yet (a page stored before titles were kept). */
function lacksTitle(state: Uint8Array): boolean {
  try {
    return titleOf(docFromState(state)) === null;
  } catch {
    // Unreadable: left as it is (a REST write refuses it with a 400).
    return false;
  }
}

function invalidDocument(error: ContentError) {
  return badRequest(error.message, { body: [error.message] }, "INVALID_DOCUMENT");
}

/** HTML of a state, or the stored HTML when the state can't be read (a version is still worth keeping). */
function contentOrStored(state: Uint8Array, page: PageRow): PageContent {
  try {
    return contentOfDoc(docFromState(state));
  } catch (error) {
    if (error instanceof ContentError) return { html: page.descriptionHtml, stripped: page.descriptionStripped };
    throw error;
  }
}

/**
 * Apply a Yjs update to a locked page: refused (400, nothing stored) when it isn't a complete
 * update, brings content the page editor can't show or grows the page past the live layer's
 * document limit; otherwise logged, folded and the HTML re-derived. Returns the updated row.
 */
export async function applyPageUpdate(tx: Tx, page: PageRow, update: Uint8Array, actorId: string): Promise<PageRow> {
  const current = await currentPageState(tx, page);
  let content: PageContent & { fits: boolean };
  let doc: Y.Doc;
  try {
    doc = docFromState(current.state, update);
    content = contentOfDoc(doc);
    // Content the schema can't show is refused only when this update brought it.
    if (!content.fits && contentOfDoc(docFromState(current.state)).fits) {
      throw new ContentError("The update contains content the page editor does not support.");
    }
  } catch (error) {
    if (error instanceof ContentError) throw invalidDocument(error);
    throw error;
  }
  const folded = Y.encodeStateAsUpdate(doc);
  // A title the update set renames the page (the reference's clients save title and body so).
  const title = titleOf(doc);
  const rename = title !== null && title !== asPageName(page.name) ? title : null;
  if (folded.byteLength > LIVE_LIMITS.maxDocumentBytes) {
    throw badRequest("The page is too large.", { body: ["The page is too large."] }, "DOCUMENT_TOO_LARGE");
  }
  const name = pageDocumentName(page.id);
  if (current.built) await dropStaleLog(tx, page.id);
  const [logged] = await tx
    .insert(documentUpdates)
    .values({ documentName: name, update })
    .returning({ id: documentUpdates.id });
  if (!logged) throw new Error("document update insert failed");
  const [row] = await tx
    .update(pages)
    .set({
      descriptionBinary: folded,
      descriptionHtml: content.html,
      descriptionStripped: content.stripped,
      ...(rename !== null ? { name: rename } : {}),
      updatedById: actorId,
      updatedAt: new Date(),
    })
    .where(eq(pages.id, page.id))
    .returning();
  // Only the rows folded above: one the live layer appends meanwhile stays for its next fold.
  await tx
    .delete(documentUpdates)
    .where(and(eq(documentUpdates.documentName, name), inArray(documentUpdates.id, [...current.updateIds, logged.id])));
  if (!row) throw pageNotFound();
  return row;
}

/** The update that makes a locked page's title say `name`, or null when it already does. */
export async function titleReplacementFor(tx: DbOrTx, page: PageRow, name: string): Promise<Uint8Array | null> {
  const { state } = await currentPageState(tx, page);
  try {
    return titleUpdateFor(state, name);
  } catch {
    throw invalidDocument(new ContentError("The stored page document can't be read."));
  }
}

/** The update that makes a locked page's body `target` (HTML or a version's state). */
export async function replacementFor(
  tx: DbOrTx,
  page: PageRow,
  target: { html: string } | { state: Uint8Array },
): Promise<Uint8Array> {
  const { state } = await currentPageState(tx, page);
  try {
    return replacementUpdate(docFromState(state), target);
  } catch (error) {
    if (error instanceof ContentError) throw invalidDocument(error);
    throw error;
  }
}

// ───────────────────────────── telling the live layer ─────────────────────────────

export type PageContentListener = (pageId: string, update: Uint8Array) => void | Promise<void>;

const listeners = new WeakMap<EventBus, Set<PageContentListener>>();

/**
 * Be told of every body change made over REST, after it commits (the update is already stored).
 * The live layer applies it to the page's document if it holds one, so connected editors see it
 * and its next store keeps it. Keyed by the app's event bus, so apps in one process stay apart.
 */
export function onPageContentChange(bus: EventBus, listener: PageContentListener): () => void {
  let set = listeners.get(bus);
  if (!set) {
    set = new Set();
    listeners.set(bus, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

/** Deliver a committed REST update to the listeners; a failing listener is logged, never thrown. */
export function publishPageContentChange(
  bus: EventBus,
  log: { error: (obj: object, msg: string) => void },
  pageId: string,
  update: Uint8Array,
): void {
  for (const listener of listeners.get(bus) ?? []) {
    try {
      const result = listener(pageId, update);
      if (result instanceof Promise) result.catch((err) => log.error({ err, pageId }, "page content listener failed"));
    } catch (err) {
      log.error({ err, pageId }, "page content listener failed");
    }
  }
}

// ───────────────────────────── versions ─────────────────────────────

async function insertVersion(
  tx: DbOrTx,
  page: PageRow,
  snapshot: { state: Uint8Array } & PageContent,
  actorId: string | null,
): Promise<VersionRow> {
  const [version] = await tx
    .insert(pageVersions)
    .values({
      workspaceId: page.workspaceId,
      pageId: page.id,
      ownedById: actorId,
      descriptionBinary: snapshot.state,
      descriptionHtml: snapshot.html,
      descriptionStripped: snapshot.stripped,
      lastSavedAt: new Date(),
      createdById: actorId,
      updatedById: actorId,
    })
    .returning();
  if (!version) throw new Error("page version insert failed");
  // Keep the newest PAGE_VERSIONS_KEPT.
  const kept = tx
    .select({ id: pageVersions.id })
    .from(pageVersions)
    .where(eq(pageVersions.pageId, page.id))
    .orderBy(desc(pageVersions.lastSavedAt), desc(pageVersions.createdAt))
    .limit(PAGE_VERSIONS_KEPT);
  await tx.delete(pageVersions).where(and(eq(pageVersions.pageId, page.id), notInArray(pageVersions.id, kept)));
  return version;
}

async function snapshotOf(tx: DbOrTx, page: PageRow): Promise<{ state: Uint8Array } & PageContent> {
  const current = await currentPageState(tx, page);
  // Stored HTML is current unless live edits are still in the log.
  const content =
    current.updateIds.length === 0 && !current.built
      ? { html: page.descriptionHtml, stripped: page.descriptionStripped }
      : contentOrStored(current.state, page);
  return { state: current.state, ...content };
}

/**
 * Save the page's current body as a version, before archiving it or restoring an older version;
 * runs in the caller's transaction and locks the page. The version is credited to the person
 * whose edits it holds, the page's last editor (updated_by), not to whoever archives or
 * restores: they changed nothing in it.
 */
export async function snapshotPageVersion(tx: Tx, pageId: string): Promise<VersionRow> {
  const page = await lockPageRow(tx, pageId);
  return insertVersion(tx, page, await snapshotOf(tx, page), page.updatedById ?? page.ownedById);
}

/**
 * While a page is being edited, keep versions as the reference does (its page_version_task):
 * after each stored change by `actorId` (the last editor; null when unknown: the page's
 * updated_by), the latest version is brought up to date when it is that person's and younger
 * than PAGE_VERSION_INTERVAL_MS; otherwise a new version, theirs, is saved. So each version
 * names the person whose edits it holds: someone else's edits start a version of their own,
 * and one person's long session gives one version per interval. Nothing happens when the body
 * is the latest version's. The live layer calls this from its store hook. Returns the version
 * saved or brought up to date, or null.
 */
export async function maybeSnapshotWhileEditing(
  db: Db,
  pageId: string,
  actorId: string | null = null,
): Promise<VersionRow | null> {
  return db.transaction(async (tx) => {
    const [page] = await tx.select().from(pages).where(eq(pages.id, pageId)).for("update");
    if (!page) return null;
    const [latest] = await tx
      .select()
      .from(pageVersions)
      .where(eq(pageVersions.pageId, pageId))
      .orderBy(desc(pageVersions.lastSavedAt), desc(pageVersions.createdAt))
      .limit(1);
    const snapshot = await snapshotOf(tx, page);
    if (latest && latest.descriptionHtml === snapshot.html) return null;
    const editor = actorId ?? page.updatedById ?? page.ownedById;
    if (latest && latest.ownedById === editor && Date.now() - latest.createdAt.getTime() < PAGE_VERSION_INTERVAL_MS) {
      const now = new Date();
      const [updated] = await tx
        .update(pageVersions)
        .set({
          descriptionBinary: snapshot.state,
          descriptionHtml: snapshot.html,
          descriptionStripped: snapshot.stripped,
          lastSavedAt: now,
          updatedById: editor,
          updatedAt: now,
        })
        .where(eq(pageVersions.id, latest.id))
        .returning();
      return updated ?? null;
    }
    return insertVersion(tx, page, snapshot, editor);
  });
}
