/**
 * Sidebar preferences (product-domain §2 "Workspace menu"; calls-errors-sync "GET, PATCH
 * /sidebar-preferences/{id}/"): which workspace entries a person keeps in the sidebar (pinned)
 * and which under "More", and their order. The keys are the reference's (WorkspaceUserPreference
 * .UserPreferenceKeys), so either client reads the other's choices. Home, Notifications and
 * Projects are not among them: they are always shown.
 */
export const SIDEBAR_PREFERENCE_KEYS = [
  "views",
  "active_cycles",
  "analytics",
  "drafts",
  "your_work",
  "archives",
  "stickies",
] as const;
export type SidebarPreferenceKey = (typeof SIDEBAR_PREFERENCE_KEYS)[number];

export function isSidebarPreferenceKey(key: string): key is SidebarPreferenceKey {
  return (SIDEBAR_PREFERENCE_KEYS as readonly string[]).includes(key);
}

/**
 * The entries pinned on a person's first read. The reference pins drafts, your work and stickies;
 * this product pins views too, which its sidebar has always shown (the reference's newer client
 * lists views in its own always-open "Workspace" group).
 */
export const SIDEBAR_PINNED_BY_DEFAULT: readonly SidebarPreferenceKey[] = ["views", "drafts", "your_work", "stickies"];

/** The first entry's sort_order and the gap between entries, as the reference numbers them. */
export const SIDEBAR_SORT_START = 65535;
export const SIDEBAR_SORT_STEP = 10_000;

/** One entry as GET /sidebar-preferences/ answers it, under its key. */
export type SidebarPreference = { is_pinned: boolean; sort_order: number };
/** The whole answer: an object keyed by entry key, in sort_order (the reference's shape). */
export type SidebarPreferences = Partial<Record<SidebarPreferenceKey, SidebarPreference>>;
