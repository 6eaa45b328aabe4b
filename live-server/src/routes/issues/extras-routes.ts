/**
 * Work-item extras (calls-errors-sync §7 "Work items"):
 * - GET {type}/{id}/meta/: `{project_identifier, sequence_id}` — what the reference answers, so
 *   a client holding only ids can build the item's key (WEB-12) and its /browse/ URL;
 * - GET {type}-detail/: the list (every parameter of `{type}/`, layout.ts) with each item's
 *   relations, as the reference's client asks when `expand` has issue_relation and there is no
 *   group_by (the timeline's arrows);
 * - GET, POST (and PATCH) issue-display-properties/: the reference's per-user display
 *   properties call. It is the same row as user-properties/ (the reference keeps both in one
 *   record), so the two calls always agree; POST `{properties}` merges display properties key by
 *   key, and `filters`, `display_filters`, `display_properties` are taken as user-properties/
 *   takes them;
 * - GET, PATCH epics-user-properties/: the epics list's own filters, display filters and display
 *   properties (projects with epics on; otherwise 404). Stored in the caller's project
 *   membership (`project_members.view_props.epics`, per user and project, unused otherwise), so
 *   they never change the work-items list's settings. Same rules as user-properties/.
 * Every project member, guests included: reading an item they can see, or their own settings.
 */
import { readDisplayProperties, readSavedDisplayFilters } from "@tideline/shared";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { projectMembers, projectUserProperties } from "../../db/schema.ts";
import { parse } from "../../http/errors.ts";
import { projectAccess } from "../../policies/access.ts";
import {
  ITEM_TYPES,
  type ItemParams,
  itemAccess,
  PROJECT_PATH,
  type ProjectParams,
  typedProjectAccess,
} from "./common.ts";
import { projectListFromRequest } from "./layout.ts";
import { userPropertiesBody } from "./schema.ts";
import {
  applyUserPropertiesPatch,
  ensureProjectUserProperties,
  parseUserPropertiesPatch,
  presentProjectUserProperties,
} from "./user-properties-routes.ts";

type Query = Record<string, unknown>;

/** issue-display-properties/ body: the reference's `{properties}`, or user-properties/' keys. */
const displayPropertiesBody = userPropertiesBody.extend({ properties: z.record(z.string(), z.unknown()) }).partial();

type StoredProps = { filters?: unknown; display_filters?: unknown; display_properties?: unknown };
const asObject = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export async function issueExtrasRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  for (const type of ITEM_TYPES) {
    app.get<{ Params: ItemParams }>(`${PROJECT_PATH}/${type}/:id/meta/`, async (request) => {
      const access = await itemAccess(db, request, type, request.params);
      return { project_identifier: access.project.identifier, sequence_id: access.issue.sequenceId };
    });

    app.get<{ Params: ProjectParams; Querystring: Query }>(`${PROJECT_PATH}/${type}-detail/`, async (request) => {
      const access = await typedProjectAccess(db, request, request.params, type);
      return projectListFromRequest(db, request, access, type, { relations: true });
    });
  }

  const displayPath = `${PROJECT_PATH}/issue-display-properties/`;
  app.get<{ Params: ProjectParams }>(displayPath, async (request) => {
    const access = await projectAccess(db, request, request.params.slug, request.params.projectId);
    return presentProjectUserProperties(await ensureProjectUserProperties(db, access));
  });
  const writeDisplay = async (
    request: { params: ProjectParams; body: unknown },
    req: Parameters<typeof projectAccess>[1],
  ) => {
    const access = await projectAccess(db, req, request.params.slug, request.params.projectId);
    const { properties, ...rest } = parse(displayPropertiesBody, request.body);
    const patch = parseUserPropertiesPatch({
      ...rest,
      ...(properties || rest.display_properties
        ? { display_properties: { ...(properties ?? {}), ...(rest.display_properties ?? {}) } }
        : {}),
    });
    const row = await ensureProjectUserProperties(db, access);
    const next = applyUserPropertiesPatch(row, patch);
    const [updated] = await db
      .update(projectUserProperties)
      .set({ ...next, updatedById: access.user.id })
      .where(sql`${projectUserProperties.id} = ${row.id}::uuid`)
      .returning();
    if (!updated) throw new Error("user properties row missing");
    return presentProjectUserProperties(updated);
  };
  app.post<{ Params: ProjectParams }>(displayPath, (request) => writeDisplay(request, request));
  app.patch<{ Params: ProjectParams }>(displayPath, (request) => writeDisplay(request, request));

  const epicsPath = `${PROJECT_PATH}/epics-user-properties/`;
  const presentEpicProps = (
    access: Awaited<ReturnType<typeof typedProjectAccess>>,
    membership: typeof projectMembers.$inferSelect,
  ) => {
    const stored = asObject(membership.viewProps).epics as StoredProps | undefined;
    return {
      id: membership.id,
      user: access.user.id,
      project: access.project.id,
      workspace: access.workspace.id,
      filters: asObject(stored?.filters),
      display_filters: readSavedDisplayFilters(asObject(stored?.display_filters)),
      display_properties: readDisplayProperties(asObject(stored?.display_properties)),
      created_at: membership.createdAt.toISOString(),
      updated_at: membership.updatedAt.toISOString(),
    };
  };
  app.get<{ Params: ProjectParams }>(epicsPath, async (request) => {
    const access = await typedProjectAccess(db, request, request.params, "epics");
    if (!access.projectMembership) throw new Error("project access without membership");
    return presentEpicProps(access, access.projectMembership);
  });
  app.patch<{ Params: ProjectParams }>(epicsPath, async (request) => {
    const access = await typedProjectAccess(db, request, request.params, "epics");
    const patch = parseUserPropertiesPatch(request.body);
    const membership = access.projectMembership;
    if (!membership) throw new Error("project access without membership");
    const stored = (asObject(membership.viewProps).epics ?? {}) as StoredProps;
    const next = applyUserPropertiesPatch(
      {
        filters: asObject(stored.filters),
        displayFilters: asObject(stored.display_filters),
        displayProperties: asObject(stored.display_properties),
      },
      patch,
    );
    const epics = {
      filters: next.filters,
      display_filters: next.displayFilters,
      display_properties: next.displayProperties,
    };
    // Only the `epics` key of view_props changes (jsonb ||), whatever else is stored there.
    const [updated] = await db
      .update(projectMembers)
      .set({
        viewProps: sql`coalesce(${projectMembers.viewProps}, '{}'::jsonb) || jsonb_build_object('epics', ${JSON.stringify(epics)}::jsonb)`,
        updatedAt: new Date(),
      })
      .where(sql`${projectMembers.id} = ${membership.id}::uuid`)
      .returning();
    if (!updated) throw new Error("project membership missing");
    return presentEpicProps(access, updated);
  });
}
