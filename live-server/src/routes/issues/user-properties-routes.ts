/**
 * GET, PATCH user-properties/ — one user's saved filters, display filters and display
 * properties for one project (created with the defaults on first read). PATCH merges: each
 * filter key replaces its stored value (null or [] removes it), display filters and properties
 * merge key by key and are checked against the shared constants; the kanban rules are then
 * applied (shared/src/logic/display-filters.ts). group_by, sub_group_by and order_by are
 * stored and answered in the words the client saved (the reference's "state", "labels",
 * "assignees" … or our keys): only queries map them to our keys. Every project member, guests included: these
 * are the caller's own settings.
 */
import {
  displayFiltersPatchSchema,
  displayPropertiesPatchSchema,
  ISSUE_FILTER_KEYS,
  mergeSavedDisplayFilters,
  parseIssueFilters,
  readDisplayProperties,
  readSavedDisplayFilters,
  serializeDateTerm,
} from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { DbOrTx } from "../../db/client.ts";
import { projectUserProperties } from "../../db/schema.ts";
import { badRequest, parse } from "../../http/errors.ts";
import { type ProjectAccess, projectAccess } from "../../policies/access.ts";
import { recordProjectVisit } from "../recent-visits/service.ts";
import { PROJECT_PATH, type ProjectParams } from "./common.ts";
import { userPropertiesBody } from "./schema.ts";

type PropertiesRow = typeof projectUserProperties.$inferSelect;

function present(row: PropertiesRow) {
  return {
    id: row.id,
    user: row.userId,
    project: row.projectId,
    workspace: row.workspaceId,
    filters: row.filters,
    display_filters: readSavedDisplayFilters(row.displayFilters),
    display_properties: readDisplayProperties(row.displayProperties),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function ensureRow(db: DbOrTx, access: ProjectAccess): Promise<PropertiesRow> {
  const where = and(
    eq(projectUserProperties.projectId, access.project.id),
    eq(projectUserProperties.userId, access.user.id),
  );
  const [row] = await db.select().from(projectUserProperties).where(where).limit(1);
  if (row) return row;
  await db
    .insert(projectUserProperties)
    .values({ workspaceId: access.workspace.id, projectId: access.project.id, userId: access.user.id })
    .onConflictDoNothing();
  const [created] = await db.select().from(projectUserProperties).where(where).limit(1);
  if (!created) throw new Error("user properties row missing");
  return created;
}

/** Stored filters: arrays of strings per key, dates in their query form. */
export function mergeFilters(stored: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const unknown = Object.keys(patch).filter((k) => !(ISSUE_FILTER_KEYS as readonly string[]).includes(k));
  if (unknown.length) {
    throw badRequest(`Unknown filter: ${unknown.join(", ")}`, { filters: [`Unknown filter: ${unknown.join(", ")}`] });
  }
  const { filters, errors } = parseIssueFilters(patch);
  if (Object.keys(errors).length) {
    const fields = Object.fromEntries(Object.entries(errors).map(([k, v]) => [`filters.${k}`, v]));
    const [first] = Object.entries(fields);
    throw badRequest(first ? `${first[0]}: ${first[1][0]}` : "Invalid filters", fields, "VALIDATION_ERROR");
  }
  const next: Record<string, unknown> = { ...stored };
  for (const key of Object.keys(patch)) {
    const value = filters[key as keyof typeof filters];
    if (!value || value.length === 0) delete next[key];
    else next[key] = value.map((v) => (typeof v === "string" ? v : serializeDateTerm(v)));
  }
  return next;
}

/** A user-properties PATCH body, validated (before any row is read or created). */
export function parseUserPropertiesPatch(raw: unknown) {
  const body = parse(userPropertiesBody, raw);
  return {
    body,
    displayPatch: body.display_filters ? parse(displayFiltersPatchSchema, body.display_filters) : undefined,
    propertiesPatch: body.display_properties
      ? (parse(displayPropertiesPatchSchema, body.display_properties) as Record<string, boolean>)
      : undefined,
  };
}

/**
 * The stored columns after a PATCH, for any user-properties row (project, cycle, module): filter
 * keys replace, display filters and properties merge key by key (kanban rules applied).
 */
export function applyUserPropertiesPatch(
  row: Pick<PropertiesRow, "filters" | "displayFilters" | "displayProperties">,
  { body, displayPatch, propertiesPatch }: ReturnType<typeof parseUserPropertiesPatch>,
) {
  return {
    filters: body.filters ? mergeFilters(row.filters, body.filters) : row.filters,
    displayFilters: mergeSavedDisplayFilters(row.displayFilters, body.display_filters ?? {}, displayPatch ?? {}),
    displayProperties: { ...readDisplayProperties(row.displayProperties), ...(propertiesPatch ?? {}) },
  };
}

export async function issueUserPropertiesRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;
  const path = `${PROJECT_PATH}/user-properties/`;

  app.get<{ Params: ProjectParams }>(path, async (request) => {
    const access = await projectAccess(db, request, request.params.slug, request.params.projectId);
    const answer = present(await ensureRow(db, access));
    // This product's board reads its settings each time a project is opened: a recent visit of the project.
    await recordProjectVisit(db, request.log, access);
    return answer;
  });

  app.patch<{ Params: ProjectParams }>(path, async (request) => {
    const access = await projectAccess(db, request, request.params.slug, request.params.projectId);
    const patch = parseUserPropertiesPatch(request.body);
    const row = await ensureRow(db, access);
    const { filters, displayFilters, displayProperties } = applyUserPropertiesPatch(row, patch);
    const [updated] = await db
      .update(projectUserProperties)
      .set({ filters, displayFilters, displayProperties, updatedById: access.user.id })
      .where(eq(projectUserProperties.id, row.id))
      .returning();
    if (!updated) throw new Error("user properties row missing");
    return present(updated);
  });
}

// issue-display-properties/ (display-properties-routes.ts) reads and writes the same row.
export { ensureRow as ensureProjectUserProperties, present as presentProjectUserProperties };
