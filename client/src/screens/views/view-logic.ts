/**
 * Pure rules of saved views: the name shown, whether a view's board differs from the saved view
 * (the "Update view" / "Reset" bar), and the body that saves a board's settings as a view.
 */
import { ISSUE_FILTER_KEYS, readDisplayFilters, readDisplayProperties } from "@tideline/shared";

export { viewDisplayName } from "../../stores/views";

/** What a view or a board holds: filters, display filters, display properties. */
export type ViewSettings = {
  filters: Readonly<Record<string, unknown>>;
  display_filters: Readonly<Record<string, unknown>>;
  display_properties: Readonly<Record<string, unknown>>;
};

/** Filters as comparable data: known keys only, string values sorted, empty filters left out. */
export function normalizeViewFilters(raw: Readonly<Record<string, unknown>>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const key of ISSUE_FILTER_KEYS) {
    const value = raw[key];
    if (!Array.isArray(value)) continue;
    const list = value.filter((v): v is string => typeof v === "string");
    if (list.length) out[key] = [...new Set(list)].sort();
  }
  return out;
}

/** JSON with object keys in order, so two equal settings read the same whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Which parts of the board differ from the saved view (each read with the same defaults). */
export function viewChanges(
  saved: ViewSettings,
  working: ViewSettings,
): {
  filters: boolean;
  display: boolean;
  properties: boolean;
} {
  return {
    filters: canonical(normalizeViewFilters(saved.filters)) !== canonical(normalizeViewFilters(working.filters)),
    display:
      canonical(readDisplayFilters(saved.display_filters as Record<string, unknown>)) !==
      canonical(readDisplayFilters(working.display_filters as Record<string, unknown>)),
    properties:
      canonical(readDisplayProperties(saved.display_properties as Record<string, unknown>)) !==
      canonical(readDisplayProperties(working.display_properties as Record<string, unknown>)),
  };
}

/** Has the board been changed away from the saved view? */
export function isViewDirty(saved: ViewSettings, working: ViewSettings): boolean {
  const c = viewChanges(saved, working);
  return c.filters || c.display || c.properties;
}

/** The body that saves a board's settings into a view (POST views/ or PATCH views/{id}/). */
export function settingsBody(working: ViewSettings): {
  filters: Record<string, string[]>;
  display_filters: Record<string, unknown>;
  display_properties: Record<string, unknown>;
} {
  return {
    filters: normalizeViewFilters(working.filters),
    display_filters: { ...readDisplayFilters(working.display_filters as Record<string, unknown>) },
    display_properties: { ...readDisplayProperties(working.display_properties as Record<string, unknown>) },
  };
}
