/**
 * What a person keeps in their workspace sidebar, and which of the app's panels they keep
 * collapsed (product-domain §2 "Workspace menu" and the persisted collapse toggles).
 *
 * Sidebar entries (/api/workspaces/:slug/sidebar-preferences/, the reference's shape): the
 * workspace entries (views, drafts, your work, archives, stickies…) are pinned in the sidebar or
 * wait under its "More" menu, in the person's order. The server keeps them per person and
 * workspace, so they follow the person to any browser.
 * - Read once per workspace and page; the last answer is also kept on this device (per user and
 *   workspace), so the sidebar paints in the person's order at once — no jump when the answer
 *   lands — and offline too. Until anything is known the server's defaults are shown.
 * - Pinning, unpinning and moving are optimistic (lib/optimistic.ts): undone with a toast when
 *   the server refuses. A read that began before a local change does not take it back.
 * - Live: `sidebar_preference.updated` arrives on the user's own channel (lib/user-channel.ts);
 *   our own echo is skipped, another browser's change is applied; after a reconnection the
 *   loaded workspaces are read again (events sent meanwhile are lost).
 *
 * Collapse toggles (usePanelCollapsed): the main sidebar, its Favorites and Projects sections,
 * the work-item detail's and the epic detail's properties column, the member profile's card and
 * the cycle / module boards' details panel. They are pure layout, so, as the reference keeps them
 * (localStorage), they stay on this device — but per signed-in person (the key holds the user id),
 * so two people sharing a computer each keep their own.
 */
import {
  type DomainEvent,
  positionBetween,
  SIDEBAR_PINNED_BY_DEFAULT,
  SIDEBAR_PREFERENCE_KEYS,
  SIDEBAR_SORT_START,
  SIDEBAR_SORT_STEP,
  type SidebarPreference,
  type SidebarPreferenceKey,
  type SidebarPreferences,
} from "@tideline/shared";
import { useSnapshot } from "valtio";
import { i18next } from "../i18n";
import { api } from "../lib/api";
import { isOwnClientMutation, mutationHeaders } from "../lib/client-mutations";
import { LocalChanges } from "../lib/local-changes";
import { readLocal, writeLocal } from "../lib/local-storage";
import { optimistic } from "../lib/optimistic";
import { defineStore, onStoresReset } from "../lib/store";
import { addUserChannelHandler } from "../lib/user-channel";
import { session } from "./session";
import { workspaces } from "./workspaces";

export type { SidebarPreferenceKey } from "@tideline/shared";

/** The collapsible panels whose state is kept per person. */
export type PanelKey =
  | "sidebar"
  | "sidebarFavorites"
  | "sidebarProjects"
  | "workItemDetail"
  | "epicDetail"
  | "profile"
  | "cycle"
  | "module";

export const sidebarPreferences = defineStore(() => ({
  /** The caller's entries per workspace slug (absent: nothing read or kept yet). */
  bySlug: {} as Record<string, SidebarPreferences>,
  /** Collapse toggles changed in this page, per user id (the rest come from the device). */
  panels: {} as Record<string, Partial<Record<PanelKey, boolean>>>,
}));

const base = (slug: string) => `/api/workspaces/${slug}/sidebar-preferences/`;

// ── pure rules (sidebar-preferences.test.ts) ──────────────────────────────────

/** The server's first-read defaults, shown until the person's own entries are known. */
export function defaultSidebarPreferences(): Record<SidebarPreferenceKey, SidebarPreference> {
  return Object.fromEntries(
    SIDEBAR_PREFERENCE_KEYS.map((key, index) => [
      key,
      {
        is_pinned: SIDEBAR_PINNED_BY_DEFAULT.includes(key),
        sort_order: SIDEBAR_SORT_START + index * SIDEBAR_SORT_STEP,
      },
    ]),
  ) as Record<SidebarPreferenceKey, SidebarPreference>;
}

export type SidebarEntryState = { key: SidebarPreferenceKey } & SidebarPreference;

/**
 * The entries `keys` (those this person may open) in their order: by sort_order, then in the
 * keys' own order; an entry the answer lacks takes its default.
 */
export function orderedEntries(
  prefs: SidebarPreferences | undefined,
  keys: readonly SidebarPreferenceKey[],
): SidebarEntryState[] {
  const defaults = defaultSidebarPreferences();
  return keys
    .map((key, index) => ({ key, index, ...(prefs?.[key] ?? defaults[key]) }))
    .sort((a, b) => a.sort_order - b.sort_order || a.index - b.index)
    .map(({ key, is_pinned, sort_order }) => ({ key, is_pinned, sort_order }));
}

/**
 * The sort_order that puts `list[from]` at position `to` (the others keep their places): the
 * midpoint of its new neighbours, or a step beyond the first or last, as the reference numbers
 * a moved entry. Null when nothing moves.
 */
export function sortOrderForMove(list: readonly { sort_order: number }[], from: number, to: number): number | null {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return null;
  const rest = list.filter((_, i) => i !== from);
  const before = rest[to - 1]?.sort_order ?? null;
  const after = rest[to]?.sort_order ?? null;
  return positionBetween(before, after, { step: SIDEBAR_SORT_STEP, empty: SIDEBAR_SORT_START });
}

/**
 * A fetched answer merged with what changed here while it was on its way: an entry changed here
 * since (`newerHere`) keeps its local state.
 */
export function mergeFetchedPreferences(
  held: SidebarPreferences | undefined,
  fetched: SidebarPreferences,
  newerHere: (key: SidebarPreferenceKey) => boolean,
): SidebarPreferences {
  const merged: SidebarPreferences = {};
  for (const key of SIDEBAR_PREFERENCE_KEYS) {
    const mine = held?.[key];
    const theirs = fetched[key];
    const pick = newerHere(key) && mine ? mine : (theirs ?? mine);
    if (pick) merged[key] = { is_pinned: pick.is_pinned, sort_order: pick.sort_order };
  }
  return merged;
}

// ── the device's copy ─────────────────────────────────────────────────────────

const keptKey = (userId: string, slug: string) => `tideline:sidebar-preferences:${userId}:${slug}`;

function keep(slug: string): void {
  const userId = session.user?.id;
  const prefs = sidebarPreferences.bySlug[slug];
  if (userId && prefs) writeLocal(keptKey(userId, slug), prefs);
}

/** The entries kept on this device from the last answer (null: none). */
function readKept(userId: string, slug: string): SidebarPreferences | null {
  const kept = readLocal<SidebarPreferences | null>(keptKey(userId, slug), null);
  return kept && typeof kept === "object" ? mergeFetchedPreferences(undefined, kept, () => false) : null;
}

/** The kept entries become the store's, shown before (or without) the server's answer. */
function adoptKept(slug: string): void {
  const userId = session.user?.id;
  if (!userId || sidebarPreferences.bySlug[slug]) return;
  const kept = readKept(userId, slug);
  if (kept) sidebarPreferences.bySlug[slug] = kept;
}

/** What the first paint shows before the store holds anything: the kept copy, read once. */
const firstPaint = new Map<string, SidebarPreferences | null>();

/**
 * The person's entries of a workspace for a screen: the store's, else (the very first paint of
 * the page, before its effects ran) the copy kept on this device — so the sidebar paints once,
 * in the person's order.
 */
export function useSidebarPreferencesOf(slug: string): SidebarPreferences | undefined {
  const held = useSnapshot(sidebarPreferences).bySlug[slug] as SidebarPreferences | undefined;
  const userId = useSnapshot(session).user?.id;
  if (held || !userId) return held;
  const at = `${userId}\u0000${slug}`;
  if (!firstPaint.has(at)) firstPaint.set(at, readKept(userId, slug));
  return firstPaint.get(at) ?? undefined;
}

// ── reads ─────────────────────────────────────────────────────────────────────

const changes = new LocalChanges();
const stamp = (slug: string, key: string) => `${slug}\u0000${key}`;
const loaded = new Set<string>();
const reads = new Map<string, number>();

/** Read the caller's entries of a workspace (again). */
export async function fetchSidebarPreferences(slug: string): Promise<void> {
  adoptKept(slug);
  const read = (reads.get(slug) ?? 0) + 1;
  reads.set(slug, read);
  const since = changes.now();
  const fetched = await api.get(base(slug)).json<SidebarPreferences>();
  if (reads.get(slug) !== read) return;
  sidebarPreferences.bySlug[slug] = mergeFetchedPreferences(sidebarPreferences.bySlug[slug], fetched, (key) =>
    changes.isNewerHere(stamp(slug, key), since),
  );
  loaded.add(slug);
  keep(slug);
}

/** Read the entries once per workspace and page (the user channel keeps them fresh after). */
export function ensureSidebarPreferences(slug: string): void {
  adoptKept(slug);
  if (loaded.has(slug) || reads.has(slug)) return;
  void fetchSidebarPreferences(slug).catch(() => {
    // Not read (offline, a blip): the kept or default entries stay, and the next sidebar tries again.
    reads.delete(slug);
  });
}

// ── changes ───────────────────────────────────────────────────────────────────

function entryOf(slug: string, key: SidebarPreferenceKey): SidebarPreference {
  let prefs = sidebarPreferences.bySlug[slug];
  if (!prefs) {
    sidebarPreferences.bySlug[slug] = {};
    prefs = sidebarPreferences.bySlug[slug] as SidebarPreferences;
  }
  let entry = prefs[key];
  if (!entry) {
    prefs[key] = { ...defaultSidebarPreferences()[key] };
    entry = prefs[key] as SidebarPreference;
  }
  return entry;
}

async function change(
  slug: string,
  key: SidebarPreferenceKey,
  patch: Partial<SidebarPreference>,
  error: string,
): Promise<boolean> {
  const result = await changes.track(stamp(slug, key), () =>
    optimistic({
      apply: () => {
        const entry = entryOf(slug, key);
        const before = { ...entry };
        Object.assign(entry, patch);
        keep(slug);
        return () => {
          Object.assign(entryOf(slug, key), before);
          keep(slug);
        };
      },
      call: () =>
        api
          .patch(`${base(slug)}${key}/`, { json: patch, headers: mutationHeaders() })
          .json<{ key: string } & SidebarPreference>(),
      error,
    }),
  );
  return Boolean(result);
}

/** Pin an entry in the sidebar, or send it under "More". */
export function setSidebarEntryPinned(slug: string, key: SidebarPreferenceKey, pinned: boolean): Promise<boolean> {
  return change(slug, key, { is_pinned: pinned }, i18next.t("workspace.sidebar.customize.saveFailed"));
}

/** Give an entry a new place (a sort_order from sortOrderForMove). */
export function moveSidebarEntry(slug: string, key: SidebarPreferenceKey, sortOrder: number): Promise<boolean> {
  return change(slug, key, { sort_order: sortOrder }, i18next.t("workspace.sidebar.customize.saveFailed"));
}

// ── live ──────────────────────────────────────────────────────────────────────

type EventData = { key?: string } & Partial<SidebarPreference>;

/** Another browser's (or tab's) change of one of this person's entries. */
export function applySidebarPreferenceEvent(event: DomainEvent): void {
  if (event.type !== "sidebar_preference.updated" || isOwnClientMutation(event.client_mutation_id)) return;
  const slug = workspaces.list.find((w) => w.id === event.workspace_id)?.slug;
  const data = event.data as EventData;
  const key = SIDEBAR_PREFERENCE_KEYS.find((k) => k === data.key);
  if (!slug || !key || !sidebarPreferences.bySlug[slug]) return;
  if (typeof data.is_pinned !== "boolean" || typeof data.sort_order !== "number") return;
  Object.assign(entryOf(slug, key), { is_pinned: data.is_pinned, sort_order: data.sort_order });
  changes.stamp(stamp(slug, key));
  keep(slug);
}

addUserChannelHandler({
  onEvent: applySidebarPreferenceEvent,
  onSynced: () => {
    for (const slug of loaded) void fetchSidebarPreferences(slug).catch(() => undefined);
  },
});

// ── collapse toggles ──────────────────────────────────────────────────────────

const panelsKey = (userId: string) => `tideline:panels:${userId}`;
/** What each person's device copy says, read once per page. */
const storedPanels = new Map<string, Partial<Record<PanelKey, boolean>>>();

/**
 * The toggles kept on this device for `userId`. Before they were kept per person, the sidebar's
 * and the boards' panels were kept for the whole device: those choices are the starting point.
 */
function devicePanels(userId: string): Partial<Record<PanelKey, boolean>> {
  let panels = storedPanels.get(userId);
  if (panels) return panels;
  const own = readLocal<Partial<Record<PanelKey, boolean>> | null>(panelsKey(userId), null);
  if (own && typeof own === "object") panels = own;
  else {
    const legacy = readLocal<{ collapsed?: boolean; favoritesOpen?: boolean; projectsOpen?: boolean }>(
      "tideline:sidebar",
      {},
    );
    const board = (kind: string) => {
      try {
        return localStorage.getItem(`tideline:board-panel:${kind}`) === "closed";
      } catch {
        return false;
      }
    };
    panels = {
      sidebar: legacy.collapsed === true,
      sidebarFavorites: legacy.favoritesOpen === false,
      sidebarProjects: legacy.projectsOpen === false,
      cycle: board("cycle"),
      module: board("module"),
    };
  }
  storedPanels.set(userId, panels);
  return panels;
}

onStoresReset(() => {
  storedPanels.clear();
  firstPaint.clear();
  loaded.clear();
  reads.clear();
});

/** Is `key` collapsed for this person? (A snapshot of `sidebarPreferences.panels` makes it reactive.) */
export function panelCollapsed(
  panels: Readonly<Record<string, Partial<Record<PanelKey, boolean>>>>,
  userId: string | undefined,
  key: PanelKey,
): boolean {
  if (!userId) return false;
  return panels[userId]?.[key] ?? devicePanels(userId)[key] ?? false;
}

/** Collapse or expand `key` for the signed-in person, kept on this device under their id. */
export function setPanelCollapsed(key: PanelKey, collapsed: boolean): void {
  const userId = session.user?.id;
  if (!userId) return;
  const stored = { ...devicePanels(userId), [key]: collapsed };
  storedPanels.set(userId, stored);
  writeLocal(panelsKey(userId), stored);
  const mine = sidebarPreferences.panels[userId] ?? {};
  sidebarPreferences.panels[userId] = { ...mine, [key]: collapsed };
}

/** Collapse the main sidebar, or expand it (the collapse button, Mod+B, the command palette). */
export function toggleMainSidebar(): void {
  setPanelCollapsed("sidebar", !panelCollapsed(sidebarPreferences.panels, session.user?.id, "sidebar"));
}

/** A panel's collapsed state for the signed-in person, and its setter. */
export function usePanelCollapsed(key: PanelKey): [boolean, (collapsed: boolean) => void] {
  const panels = useSnapshot(sidebarPreferences).panels;
  const userId = useSnapshot(session).user?.id;
  return [panelCollapsed(panels, userId, key), (collapsed) => setPanelCollapsed(key, collapsed)];
}
