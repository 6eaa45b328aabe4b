/**
 * The caller's stickies in a workspace (/api/workspaces/:slug/stickies/; product-domain §3
 * Sticky, §4 sticky rules; calls-errors-sync §7 "Stickies"). One list per workspace, newest
 * first, shown by the home widget (its first few) and the stickies list modal (search, paging).
 *
 * - Loader: `init-loader` (nothing shown yet), `mutation` (a search or a catch-up re-reads the
 *   list while it is shown), `pagination` (the next page), `loaded`.
 * - Creating is allowed only while the add-new flag is on: it turns the flag off, shows a
 *   creating state, and the new sticky goes first and becomes the active and the recent one.
 * - Changes are optimistic (lib/optimistic.ts); a delete is undone if the call fails. The editor's
 *   typing is saved ~600 ms after the last change and at once on blur or unmount
 *   (editStickyText / flushStickyText). Updating an id the list does not hold is ignored.
 * - Live: `sticky.*` events arrive on the user's own channel (lib/user-channel.ts). Our own echo is
 *   skipped (client mutation ids); another tab's new sticky goes first; an update replaces ours
 *   unless this tab holds an unsaved edit of it; a delete removes it. After a reconnection the
 *   loaded lists are read again (events sent meanwhile are lost).
 * - Paging: the server pages by `per_page:page:offset`; the next page starts at the number of
 *   stickies held (stickyCursor), so stickies added or deleted here meanwhile neither repeat nor
 *   skip one.
 */
import { type DomainEvent, STICKY_PAGE_SIZE, STICKY_PAGE_SIZE_MAX, type StickyColor } from "@tideline/shared";
import { i18next } from "../i18n";
import { api } from "../lib/api";
import { isOwnClientMutation, mutationHeaders } from "../lib/client-mutations";
import { LocalChanges } from "../lib/local-changes";
import { optimistic } from "../lib/optimistic";
import { defineStore, onStoresReset } from "../lib/store";
import { addUserChannelHandler } from "../lib/user-channel";
import { workspaces } from "./workspaces";

/** A sticky as the server answers it (live-server/src/routes/stickies/presenter.ts). */
export type Sticky = {
  id: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  name: string | null;
  description_html: string;
  description_stripped: string | null;
  logo_props: Record<string, unknown>;
  color: StickyColor | null;
  background_color: StickyColor | null;
  sort_order: number;
  workspace: string;
  owner: string;
  created_by: string | null;
  updated_by: string | null;
};

/** What a change may set (the reference's client sends the colour as background_color). */
export type StickyPatch = Partial<Pick<Sticky, "name" | "description_html" | "background_color" | "sort_order">>;

export type StickyLoader = "init-loader" | "mutation" | "pagination" | "loaded";

export type StickyList = {
  items: Sticky[];
  loader: StickyLoader;
  /** The search the list was (or is being) read for; "" lists every sticky. */
  query: string;
  hasMore: boolean;
  /** The last read failed (the screens offer to try again). */
  failed: boolean;
  /** The add-new flag: creating is allowed only while it is on. */
  addNew: boolean;
  creating: boolean;
  /** The sticky to focus (the one just created). */
  activeId: string | null;
  /** The newest sticky (fetchRecentSticky, or the one just created). */
  recentId: string | null;
};

export const stickies = defineStore(() => ({
  bySlug: {} as Record<string, StickyList>,
}));

const base = (slug: string) => `/api/workspaces/${slug}/stickies/`;
/** The typing pause after which an edit is saved. */
export const STICKY_SAVE_DELAY_MS = 600;

function emptyList(): StickyList {
  return {
    items: [],
    loader: "init-loader",
    query: "",
    hasMore: false,
    failed: false,
    addNew: false,
    creating: false,
    activeId: null,
    recentId: null,
  };
}

function listOf(slug: string): StickyList {
  let list = stickies.bySlug[slug];
  if (!list) {
    stickies.bySlug[slug] = emptyList();
    list = stickies.bySlug[slug] as StickyList;
  }
  return list;
}

// ── pure rules (stickies.test.ts) ─────────────────────────────────────────────

/** The cursor of a page of `perPage` that starts after the first `held` stickies. */
export function stickyCursor(held: number, perPage: number = STICKY_PAGE_SIZE): string {
  return `${perPage}:${Math.floor(held / perPage)}:${held % perPage}`;
}

/** The query string of a list call: the page at `held`, narrowed by `query` when there is one. */
export function stickyListParams(held: number, query: string, perPage: number = STICKY_PAGE_SIZE) {
  const params: Record<string, string> = { cursor: stickyCursor(held, perPage), per_page: String(perPage) };
  const text = query.trim();
  if (text) params.query = text;
  return params;
}

/** The recent sticky's call: the newest one alone (calls-errors-sync §7). */
export const RECENT_STICKY_PARAMS = { cursor: "1:0:0", per_page: "1" } as const;

/** Would the server list `sticky` under `query`? (its text or name contains it, any case). */
export function matchesStickyQuery(sticky: Pick<Sticky, "name" | "description_stripped">, query: string): boolean {
  const text = query.trim().toLowerCase();
  if (!text) return true;
  return (
    (sticky.description_stripped ?? "").toLowerCase().includes(text) || (sticky.name ?? "").toLowerCase().includes(text)
  );
}

/**
 * A first page read again, merged with what changed here while it was on its way: a sticky
 * changed here since (`newerHere`) keeps its local copy (and stays gone if deleted here); one
 * created here meanwhile, newer than the whole page, stays first.
 */
export function mergeFetchedStickies(
  held: readonly Sticky[],
  fetched: readonly Sticky[],
  newerHere: (id: string) => boolean,
): Sticky[] {
  const local = new Map(held.map((s) => [s.id, s]));
  const fetchedIds = new Set(fetched.map((s) => s.id));
  const top = fetched.reduce((max, s) => Math.max(max, s.sort_order), Number.NEGATIVE_INFINITY);
  const createdHere = held.filter((s) => !fetchedIds.has(s.id) && newerHere(s.id) && s.sort_order >= top);
  const merged: Sticky[] = [...createdHere];
  for (const s of fetched) {
    if (!newerHere(s.id)) merged.push(s);
    else {
      const mine = local.get(s.id);
      if (mine) merged.push(mine);
    }
  }
  return merged;
}

/**
 * What a live `sticky.*` event does to a list (the echo of our own change is skipped before):
 * a new sticky goes first when the search shows it; an update replaces the held copy unless this
 * tab has an unsaved edit of it; a delete removes it. Returns the same array when nothing changes.
 */
export function stickyEventResult(
  items: Sticky[],
  type: string,
  sticky: Sticky,
  opts: { query: string; unsaved: (id: string) => boolean },
): Sticky[] {
  const at = items.findIndex((s) => s.id === sticky.id);
  if (type === "sticky.created") {
    if (at >= 0 || !matchesStickyQuery(sticky, opts.query)) return items;
    return [sticky, ...items];
  }
  if (type === "sticky.updated") {
    if (at < 0 || opts.unsaved(sticky.id)) return items;
    const next = items.slice();
    next[at] = sticky;
    return next;
  }
  if (type === "sticky.deleted") {
    if (at < 0) return items;
    return items.filter((s) => s.id !== sticky.id);
  }
  return items;
}

// ── reads ─────────────────────────────────────────────────────────────────────

type Page = { results: Sticky[]; next_page_results: boolean; next_cursor: string };

/** Stamps of the changes made here, so a read that began before one does not take it back. */
const changes = new LocalChanges();
/** Each read of a list gets a number; an answer that is not the latest one is dropped. */
const reads = new Map<string, number>();

function nextRead(slug: string): number {
  const n = (reads.get(slug) ?? 0) + 1;
  reads.set(slug, n);
  return n;
}

/**
 * Read the first page of the list (again), for `query` when given (else the current search).
 * `keep` reads as many as are held (a catch-up must not shrink a list paged further).
 */
export async function fetchStickies(slug: string, query?: string, keep = false): Promise<void> {
  const list = listOf(slug);
  if (query !== undefined) list.query = query;
  const text = list.query;
  // Nothing shown yet (the first read, or a retry of a failed first read): the skeleton.
  const first = list.loader === "init-loader" || (list.failed && list.items.length === 0);
  list.loader = first ? "init-loader" : "mutation";
  list.failed = false;
  const perPage = keep
    ? Math.min(Math.max(list.items.length, STICKY_PAGE_SIZE), STICKY_PAGE_SIZE_MAX)
    : STICKY_PAGE_SIZE;
  const read = nextRead(slug);
  const since = changes.now();
  try {
    const page = await api.get(base(slug), { searchParams: stickyListParams(0, text, perPage) }).json<Page>();
    if (reads.get(slug) !== read) return;
    const now = listOf(slug);
    now.items = mergeFetchedStickies(now.items, page.results, (id) => changes.isNewerHere(id, since));
    now.hasMore = page.next_page_results;
    now.loader = "loaded";
  } catch (error) {
    if (reads.get(slug) === read) {
      const now = listOf(slug);
      now.loader = "loaded";
      now.failed = true;
    }
    throw error;
  }
}

/** Read the next page of the current search and add it after the stickies held. */
export async function fetchMoreStickies(slug: string): Promise<void> {
  const list = stickies.bySlug[slug];
  if (!list?.hasMore || list.loader !== "loaded") return;
  list.loader = "pagination";
  const read = nextRead(slug);
  try {
    const page = await api
      .get(base(slug), { searchParams: stickyListParams(list.items.length, list.query) })
      .json<Page>();
    if (reads.get(slug) !== read) return;
    const now = listOf(slug);
    const held = new Set(now.items.map((s) => s.id));
    now.items = [...now.items, ...page.results.filter((s) => !held.has(s.id))];
    now.hasMore = page.next_page_results;
    now.loader = "loaded";
  } catch (error) {
    if (reads.get(slug) === read) listOf(slug).loader = "loaded";
    throw error;
  }
}

/** The newest sticky (cursor 1:0:0, one per page), remembered as the recent one. */
export async function fetchRecentSticky(slug: string): Promise<Sticky | null> {
  const page = await api.get(base(slug), { searchParams: { ...RECENT_STICKY_PARAMS } }).json<Page>();
  const recent = page.results[0] ?? null;
  listOf(slug).recentId = recent?.id ?? null;
  return recent;
}

// ── changes ───────────────────────────────────────────────────────────────────

/** Turn the add-new flag on or off (the "Add sticky" buttons turn it on, then create). */
export function setAddNewSticky(slug: string, on: boolean): void {
  listOf(slug).addNew = on;
}

/**
 * Create a sticky, only while the add-new flag is on: the flag goes off and the list shows it is
 * creating; the answer goes first and becomes active and recent. Resolves to it, or undefined.
 */
export async function createSticky(slug: string, body: StickyPatch = {}): Promise<Sticky | undefined> {
  const list = listOf(slug);
  if (!list.addNew) return undefined;
  const created = await optimistic({
    apply: () => {
      list.addNew = false;
      list.creating = true;
      return () => {
        listOf(slug).creating = false;
      };
    },
    call: () => api.post(base(slug), { json: body, headers: mutationHeaders() }).json<Sticky>(),
    error: i18next.t("stickies.errors.create"),
  });
  const now = listOf(slug);
  now.creating = false;
  if (!created) return undefined;
  changes.stamp(created.id);
  now.items = [created, ...now.items.filter((s) => s.id !== created.id)];
  now.activeId = created.id;
  now.recentId = created.id;
  return created;
}

/** "Add sticky": the flag on, then create (a second click while creating finds the flag off). */
export function addSticky(slug: string, body: StickyPatch = {}): Promise<Sticky | undefined> {
  if (listOf(slug).creating) return Promise.resolve(undefined);
  setAddNewSticky(slug, true);
  return createSticky(slug, body);
}

function replaceHeld(slug: string, id: string, make: (s: Sticky) => Sticky): void {
  const list = stickies.bySlug[slug];
  const at = list?.items.findIndex((s) => s.id === id) ?? -1;
  if (!list || at < 0) return;
  const items = list.items.slice();
  items[at] = make(items[at] as Sticky);
  list.items = items;
}

/** Change a sticky at once and save it; undone with a toast if refused. An unknown id is ignored. */
export async function updateSticky(slug: string, id: string, patch: StickyPatch): Promise<Sticky | undefined> {
  const list = stickies.bySlug[slug];
  const before = list?.items.find((s) => s.id === id);
  if (!list || !before) return undefined;
  const answer = await optimistic({
    apply: () => {
      replaceHeld(slug, id, (s) => ({ ...s, ...patch }));
      return () => replaceHeld(slug, id, (s) => ({ ...s, ...pick(before, patch) }));
    },
    call: () =>
      changes.track(id, () =>
        api.patch(`${base(slug)}${id}/`, { json: patch, headers: mutationHeaders() }).json<Sticky>(),
      ),
    error: i18next.t("stickies.errors.update"),
  });
  // The server's copy (sanitised text), but never over text typed since this save left.
  if (answer)
    replaceHeld(slug, id, (s) => (unsaved.has(id) ? { ...answer, description_html: s.description_html } : answer));
  return answer;
}

/** The fields of `from` that `patch` names (what an undo puts back). */
function pick(from: Sticky, patch: StickyPatch): Partial<Sticky> {
  const out: Partial<Sticky> = {};
  for (const key of Object.keys(patch) as (keyof StickyPatch)[]) Object.assign(out, { [key]: from[key] });
  return out;
}

/** Delete a sticky at once; put back where it was, with a toast, if the call fails. */
export async function deleteSticky(slug: string, id: string): Promise<boolean> {
  const list = stickies.bySlug[slug];
  const index = list?.items.findIndex((s) => s.id === id) ?? -1;
  if (!list || index < 0) return false;
  const removed = list.items[index] as Sticky;
  dropUnsaved(id);
  const ok = await optimistic({
    apply: () => {
      list.items = list.items.filter((s) => s.id !== id);
      if (list.activeId === id) list.activeId = null;
      return () => {
        const now = listOf(slug);
        if (now.items.some((s) => s.id === id)) return;
        const items = now.items.slice();
        items.splice(Math.min(index, items.length), 0, removed);
        now.items = items;
      };
    },
    call: () => changes.track(id, () => api.delete(`${base(slug)}${id}/`, { headers: mutationHeaders() })),
    error: i18next.t("stickies.errors.delete"),
  });
  return ok !== undefined;
}

// ── the editor's typing: saved after a pause, or at once on blur / unmount ─────

type Unsaved = { slug: string; html: string; timer: ReturnType<typeof setTimeout> };
const unsaved = new Map<string, Unsaved>();

/** Does this tab hold typing of this sticky that is not saved yet? */
export function hasUnsavedSticky(id: string): boolean {
  return unsaved.has(id);
}

/** The editor changed a sticky's text: save it once the typing pauses. */
export function editStickyText(slug: string, id: string, html: string): void {
  const held = unsaved.get(id);
  if (held) clearTimeout(held.timer);
  const timer = setTimeout(() => void flushStickyText(id), STICKY_SAVE_DELAY_MS);
  unsaved.set(id, { slug, html, timer });
}

/** Save a sticky's unsaved text now (the editor lost the focus or is going away). */
export async function flushStickyText(id: string): Promise<void> {
  const held = unsaved.get(id);
  if (!held) return;
  clearTimeout(held.timer);
  unsaved.delete(id);
  const current = stickies.bySlug[held.slug]?.items.find((s) => s.id === id);
  if (!current || current.description_html === held.html) return;
  await updateSticky(held.slug, id, { description_html: held.html });
}

function dropUnsaved(id: string): void {
  const held = unsaved.get(id);
  if (held) clearTimeout(held.timer);
  unsaved.delete(id);
}

onStoresReset(() => {
  for (const id of [...unsaved.keys()]) dropUnsaved(id);
  reads.clear();
});

// ── live ──────────────────────────────────────────────────────────────────────

/** Apply a `sticky.*` event from the user's live channel (other tabs and devices of this person). */
export function applyStickyEvent(event: DomainEvent): void {
  if (!event.type.startsWith("sticky.")) return;
  // Our own change is already shown; a later one may be on its way.
  if (isOwnClientMutation(event.client_mutation_id)) return;
  const slug = Object.values(workspaces.bySlug).find((w) => w.id === event.workspace_id)?.slug;
  const list = slug ? stickies.bySlug[slug] : undefined;
  if (!list) return;
  const sticky = event.data as unknown as Sticky;
  if (!sticky || typeof sticky.id !== "string") return;
  const items = stickyEventResult(list.items, event.type, sticky, { query: list.query, unsaved: hasUnsavedSticky });
  if (items === list.items) return;
  list.items = items;
  if (event.type === "sticky.deleted") {
    dropUnsaved(sticky.id);
    if (list.activeId === sticky.id) list.activeId = null;
  }
  if (event.type === "sticky.created") list.recentId = sticky.id;
}

addUserChannelHandler({
  onEvent: applyStickyEvent,
  // Events sent while the socket was down are lost: read the loaded lists again.
  onSynced: () => {
    for (const [slug, list] of Object.entries(stickies.bySlug)) {
      if (list.loader === "loaded") void fetchStickies(slug, undefined, true).catch(() => undefined);
    }
  },
});
