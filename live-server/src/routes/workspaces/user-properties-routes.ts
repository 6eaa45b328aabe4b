/**
 * GET, PATCH /api/workspaces/:slug/user-properties/ — the caller's own workspace-level settings,
 * in the reference product's shape (its WorkspaceUserProperties): `filters`, `display_filters`,
 * `display_properties` and `rich_filters` (JSON objects the reference's web client keeps as it
 * likes), and the sidebar's project navigation: `navigation_project_limit` (how many projects
 * the sidebar lists; 0 = no limit) and `navigation_control_preference` (ACCORDION or TABBED).
 *
 * The row is created on first read (or first PATCH) with the reference's defaults, which nest
 * the display settings one level down ({display_filters: {display_filters: {…}}}) exactly as
 * its model does. PATCH sets each field it names (a JSON field is replaced whole, as the
 * reference's serializer does) and drops keys it does not know; a wrong type is a 400 naming
 * the field, nothing stored. Any active workspace member, guests included: these are the
 * caller's own settings; another workspace is a 404.
 */
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { DbOrTx } from "../../db/client.ts";
import { workspaceUserProperties } from "../../db/schema.ts";
import { parse } from "../../http/errors.ts";
import { type WorkspaceAccess, workspaceAccess } from "../../policies/access.ts";

export const NAVIGATION_CONTROL_PREFERENCES = ["ACCORDION", "TABBED"] as const;

/** The reference's model defaults (apps/api/plane/db/models/workspace.py). */
export function defaultWorkspaceUserProperties() {
  return {
    filters: {
      priority: null,
      state: null,
      state_group: null,
      assignees: null,
      created_by: null,
      labels: null,
      start_date: null,
      target_date: null,
      subscriber: null,
    },
    displayFilters: {
      display_filters: {
        group_by: null,
        order_by: "-created_at",
        type: null,
        sub_issue: true,
        show_empty_groups: true,
        layout: "list",
        calendar_date_range: "",
      },
    },
    displayProperties: {
      display_properties: {
        assignee: true,
        attachment_count: true,
        created_on: true,
        due_date: true,
        estimate: true,
        key: true,
        labels: true,
        link: true,
        priority: true,
        start_date: true,
        state: true,
        sub_issue_count: true,
        updated_on: true,
      },
    },
    richFilters: {},
    navigationProjectLimit: 10,
    navigationControlPreference: "ACCORDION",
  };
}

const jsonObject = (field: string) => z.record(z.string(), z.unknown(), `${field} must be an object`);

const patchBody = z
  .object({
    filters: jsonObject("filters"),
    display_filters: jsonObject("display_filters"),
    display_properties: jsonObject("display_properties"),
    rich_filters: jsonObject("rich_filters"),
    navigation_project_limit: z
      .number("navigation_project_limit must be a whole number")
      .int("navigation_project_limit must be a whole number")
      .min(0, "navigation_project_limit can't be negative (0 lists every project)")
      .max(2_147_483_647, "navigation_project_limit is too large"),
    navigation_control_preference: z.enum(
      NAVIGATION_CONTROL_PREFERENCES,
      `navigation_control_preference must be one of: ${NAVIGATION_CONTROL_PREFERENCES.join(", ")}`,
    ),
  })
  .partial();

type Row = typeof workspaceUserProperties.$inferSelect;

function present(row: Row) {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    deleted_at: null,
    filters: row.filters,
    display_filters: row.displayFilters,
    display_properties: row.displayProperties,
    rich_filters: row.richFilters,
    navigation_project_limit: row.navigationProjectLimit,
    navigation_control_preference: row.navigationControlPreference,
    created_by: row.createdById,
    updated_by: row.updatedById,
    workspace: row.workspaceId,
    user: row.userId,
  };
}

/** The caller's row in this workspace, created with the reference's defaults when missing. */
async function ensureRow(db: DbOrTx, access: WorkspaceAccess): Promise<Row> {
  const where = and(
    eq(workspaceUserProperties.workspaceId, access.workspace.id),
    eq(workspaceUserProperties.userId, access.user.id),
  );
  const [row] = await db.select().from(workspaceUserProperties).where(where).limit(1);
  if (row) return row;
  await db
    .insert(workspaceUserProperties)
    .values({
      workspaceId: access.workspace.id,
      userId: access.user.id,
      ...defaultWorkspaceUserProperties(),
      createdById: access.user.id,
      updatedById: access.user.id,
    })
    .onConflictDoNothing();
  const [created] = await db.select().from(workspaceUserProperties).where(where).limit(1);
  if (!created) throw new Error("workspace user properties row missing");
  return created;
}

export async function workspaceUserPropertiesRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;
  const path = "/api/workspaces/:slug/user-properties/";

  app.get<{ Params: { slug: string } }>(path, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    return present(await ensureRow(db, access));
  });

  app.patch<{ Params: { slug: string } }>(path, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const body = parse(patchBody, request.body ?? {});
    const row = await ensureRow(db, access);
    const set: Partial<typeof workspaceUserProperties.$inferInsert> = { updatedById: access.user.id };
    if (body.filters !== undefined) set.filters = body.filters;
    if (body.display_filters !== undefined) set.displayFilters = body.display_filters;
    if (body.display_properties !== undefined) set.displayProperties = body.display_properties;
    if (body.rich_filters !== undefined) set.richFilters = body.rich_filters;
    if (body.navigation_project_limit !== undefined) set.navigationProjectLimit = body.navigation_project_limit;
    if (body.navigation_control_preference !== undefined) {
      set.navigationControlPreference = body.navigation_control_preference;
    }
    const [updated] = await db
      .update(workspaceUserProperties)
      .set(set)
      .where(eq(workspaceUserProperties.id, row.id))
      .returning();
    if (!updated) throw new Error("workspace user properties row missing");
    return present(updated);
  });
}
