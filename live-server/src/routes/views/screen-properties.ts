/**
 * The caller's own filters, display filters and display properties for each workspace-level
 * work-item screen (the built-in workspace views and the member-profile tabs), as a project's
 * user-properties/ are per project. Kept in the caller's workspace_members.view_props under
 * `screens.{screen}`, beside the top-level keys POST workspace-views/ owns, so neither call
 * overwrites the other's settings. Validation and merging are the project's
 * (parseUserPropertiesPatch / applyUserPropertiesPatch): the same filter keys (project
 * included), the same display-filter rules.
 */
import { readDisplayProperties, readSavedDisplayFilters } from "@tideline/shared";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { workspaceMembers } from "../../db/schema.ts";
import { ApiError } from "../../http/errors.ts";
import type { WorkspaceAccess } from "../../policies/access.ts";
import { applyUserPropertiesPatch, type parseUserPropertiesPatch } from "../issues/user-properties-routes.ts";
import { displayBaseOf } from "./service.ts";

/** Screens with their own settings: the built-in workspace views, then the profile tabs. */
export const WORKSPACE_SCREENS = [
  "all-issues",
  "assigned",
  "created",
  "subscribed",
  "profile-assigned",
  "profile-created",
  "profile-subscribed",
] as const;
export type WorkspaceScreen = (typeof WORKSPACE_SCREENS)[number];

type StoredScreen = { filters?: unknown; display_filters?: unknown; display_properties?: unknown };

const asObject = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export function requireScreen(screen: string): WorkspaceScreen {
  if ((WORKSPACE_SCREENS as readonly string[]).includes(screen)) return screen as WorkspaceScreen;
  throw new ApiError(404, `Unknown screen "${screen}". Use one of ${WORKSPACE_SCREENS.join(", ")}.`, {
    code: "NOT_FOUND",
  });
}

function storedScreen(viewProps: unknown, screen: WorkspaceScreen): StoredScreen | undefined {
  const value = asObject(asObject(viewProps).screens)[screen];
  return value === undefined ? undefined : asObject(value);
}

/**
 * Display filters as stored, or the workspace defaults (spreadsheet, -created_at) for a screen
 * never changed: the rows are not written on read, the defaults stand in until the first PATCH.
 */
const displayFiltersOf = (stored: StoredScreen | undefined) =>
  stored?.display_filters === undefined ? displayBaseOf({ projectId: null }) : asObject(stored.display_filters);

export function presentScreenProperties(ws: WorkspaceAccess, screen: WorkspaceScreen, viewProps: unknown) {
  const stored = storedScreen(viewProps, screen);
  return {
    workspace: ws.workspace.id,
    user: ws.user.id,
    screen,
    filters: asObject(stored?.filters),
    display_filters: readSavedDisplayFilters(displayFiltersOf(stored)),
    display_properties: readDisplayProperties(asObject(stored?.display_properties)),
  };
}

/**
 * Merge an already validated patch into one screen's settings. The membership row is read
 * for update, so two PATCHes of the same caller cannot lose each other's keys; only
 * `screens.{screen}` changes, every other key of view_props is written back as it was read.
 */
export async function patchScreenProperties(
  db: Db,
  ws: WorkspaceAccess,
  screen: WorkspaceScreen,
  patch: ReturnType<typeof parseUserPropertiesPatch>,
) {
  const viewProps = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ viewProps: workspaceMembers.viewProps })
      .from(workspaceMembers)
      .where(eq(workspaceMembers.id, ws.membership.id))
      .for("update");
    if (!row) throw new Error("workspace membership missing");
    const stored = storedScreen(row.viewProps, screen);
    const next = applyUserPropertiesPatch(
      {
        filters: asObject(stored?.filters),
        displayFilters: displayFiltersOf(stored),
        displayProperties: asObject(stored?.display_properties),
      },
      patch,
    );
    const current = asObject(row.viewProps);
    const merged = {
      ...current,
      screens: {
        ...asObject(current.screens),
        [screen]: {
          filters: next.filters,
          display_filters: next.displayFilters,
          display_properties: next.displayProperties,
        },
      },
    };
    const [updated] = await tx
      .update(workspaceMembers)
      .set({ viewProps: merged })
      .where(eq(workspaceMembers.id, ws.membership.id))
      .returning({ viewProps: workspaceMembers.viewProps });
    if (!updated) throw new Error("workspace membership missing");
    return updated.viewProps;
  });
  return presentScreenProperties(ws, screen, viewProps);
}
