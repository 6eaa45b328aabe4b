/**
 * /api/v1 projects, states, labels and members (the reference's plane/api/urls/project.py,
 * state.py, label.py, member.py). Each handler checks access as the web API does
 * (policies/access.ts: 404 outside, 403 below the role) and calls the same services, so the
 * same domain events reach live screens, notifications and webhooks.
 * - projects/: GET (paginated; the caller's projects and the public ones), POST (member+);
 *   projects/:id/: GET, PATCH and DELETE (project admin);
 * - projects/:id/states/ and labels/: GET (paginated), POST; :id/: GET, PATCH, DELETE (member+);
 * - members/: GET the workspace's members with their role (workspace admin, as the reference);
 *   projects/:id/members/: GET the project's members (any member).
 */
import { ROLE, type Role } from "@tideline/shared";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { queryRows } from "../db/client.ts";
import { projectMembers, projects, users, workspaceMembers } from "../db/schema.ts";
import { eventOrigin } from "../events/bus.ts";
import { parse } from "../http/errors.ts";
import { type ProjectAccess, type ProjectRow, projectAccess, workspaceAccess } from "../policies/access.ts";
import { createLabelBody, updateLabelBody } from "../routes/labels/schema.ts";
import { createLabel, deleteLabel, getLabel, listProjectLabels, updateLabel } from "../routes/labels/service.ts";
import { createProjectBody, updateProjectBody } from "../routes/projects/schema.ts";
import { createProject, deleteProject, updateProject } from "../routes/projects/service.ts";
import type { StateRow } from "../routes/states/presenter.ts";
import { createStateBody, updateStateBody } from "../routes/states/schema.ts";
import { createState, deleteState, getState, listProjectStates, updateState } from "../routes/states/service.ts";
import { PROJECT, type ProjectParams, type SlugParams, type V1, WS } from "./context.ts";
import { csv, dumpRow, pickFields } from "./dump.ts";
import { pageAnswer, paginateList, readPage } from "./paginate.ts";

type Query = Record<string, unknown>;
type LabelRow = Awaited<ReturnType<typeof getLabel>>;

/** A user as the reference's UserLiteSerializer shows them. */
export function presentUserLite(u: typeof users.$inferSelect) {
  return {
    id: u.id,
    first_name: u.firstName,
    last_name: u.lastName,
    email: u.email,
    avatar: u.avatarUrl ?? "",
    avatar_url: u.avatarUrl,
    display_name: u.displayName,
  };
}

type ProjectExtras = {
  total_members: number;
  total_cycles: number;
  total_modules: number;
  is_member: boolean;
  member_role: number | null;
  sort_order: number | null;
};

/** A project as the reference's public ProjectSerializer answers it. */
export function presentProject(p: ProjectRow, extras: ProjectExtras) {
  return {
    ...dumpRow(p, ["lastSequenceId"]),
    ...extras,
    is_deployed: false,
    cover_image_url: p.coverImage,
  };
}

/** The projects of `ids` (or every project the caller may see) with their counters. */
async function loadProjects(
  request: FastifyRequest,
  workspaceId: string,
  userId: string,
  page: { ids?: string[]; limit?: number; offset?: number },
) {
  const { db } = request.server.ctx;
  const visible = sql`p.workspace_id = ${workspaceId}::uuid and p.archived_at is null
    and (p.network = 2 or exists (select 1 from project_members m where m.project_id = p.id
      and m.member_id = ${userId}::uuid and m.is_active))`;
  const idFilter = page.ids ? sql` and p.id = any(${`{${page.ids.join(",")}}`}::uuid[])` : sql``;
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select p.id::text as id from projects p where ${visible}${idFilter}
        order by p.created_at desc, p.id limit ${page.limit ?? 1000} offset ${page.offset ?? 0}`,
  );
  const [countRow] = page.ids
    ? [{ n: rows.length }]
    : await queryRows<{ n: number }>(db, sql`select count(*)::int as n from projects p where ${visible}`);
  if (!rows.length) return { results: [], total: countRow?.n ?? 0 };
  const ids = rows.map((r) => r.id);
  const idArray = `{${ids.join(",")}}`;
  const [projectRows, counters] = await Promise.all([
    db
      .select({ project: projects, membership: projectMembers })
      .from(projects)
      .leftJoin(
        projectMembers,
        and(
          eq(projectMembers.projectId, projects.id),
          eq(projectMembers.memberId, userId),
          eq(projectMembers.isActive, true),
        ),
      )
      .where(sql`${projects.id} = any(${idArray}::uuid[])`),
    queryRows<{ id: string; members: number; cycles: number; modules: number }>(
      db,
      sql`select p.id::text as id,
            (select count(*)::int from project_members m where m.project_id = p.id and m.is_active) as members,
            (select count(*)::int from cycles c where c.project_id = p.id and c.archived_at is null) as cycles,
            (select count(*)::int from modules d where d.project_id = p.id and d.archived_at is null) as modules
          from projects p where p.id = any(${idArray}::uuid[])`,
    ),
  ]);
  const byId = new Map(projectRows.map((r) => [r.project.id, r]));
  const countsById = new Map(counters.map((c) => [c.id, c]));
  const results = ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const c = countsById.get(id);
    return [
      presentProject(row.project, {
        total_members: c?.members ?? 0,
        total_cycles: c?.cycles ?? 0,
        total_modules: c?.modules ?? 0,
        is_member: Boolean(row.membership),
        member_role: row.membership?.role ?? null,
        sort_order: row.membership?.sortOrder ?? null,
      }),
    ];
  });
  return { results, total: countRow?.n ?? results.length };
}

async function oneProject(request: FastifyRequest, access: ProjectAccess, query: Query) {
  const { results } = await loadProjects(request, access.workspace.id, access.user.id, { ids: [access.project.id] });
  const [project] = results;
  if (!project) return project;
  return pickFields(project, csv(query.fields));
}

/** A state as the reference's public StateSerializer answers it. */
export function presentPublicState(s: StateRow) {
  const { isDefault, ...rest } = s;
  return { ...dumpRow(rest), default: isDefault, external_source: null, external_id: null };
}

/** A label as the reference's LabelSerializer answers it. */
export function presentPublicLabel(l: LabelRow) {
  return { ...dumpRow(l), external_source: null, external_id: null };
}

export function registerProjectRoutes({ app, docs }: V1): void {
  const { db } = app.ctx;
  const member = (request: FastifyRequest<{ Params: ProjectParams }>, minRole?: Role) =>
    projectAccess(db, request, request.params.slug, request.params.projectId, { minRole, allowNonMember: !minRole });
  const tag = "Projects";

  docs.add<SlugParams>(
    app,
    "get",
    `${WS}/projects/`,
    { summary: "List projects", tag, paginated: true },
    async (request) => {
      const ws = await workspaceAccess(db, request, request.params.slug);
      const page = readPage(request.query);
      const { results, total } = await loadProjects(request, ws.workspace.id, ws.user.id, {
        limit: page.perPage + 1,
        offset: page.offset,
      });
      const fields = csv(request.query.fields);
      return pageAnswer(
        page,
        results.map((p) => pickFields(p, fields)),
        total,
      );
    },
  );

  docs.add<SlugParams>(
    app,
    "post",
    `${WS}/projects/`,
    { summary: "Create a project", tag, body: createProjectBody, status: 201 },
    async (request, reply) => {
      const ws = await workspaceAccess(db, request, request.params.slug, ROLE.member);
      const body = parse(createProjectBody, request.body);
      const projectId = await createProject(app.ctx, eventOrigin(request), ws, body);
      const { results } = await loadProjects(request, ws.workspace.id, ws.user.id, { ids: [projectId] });
      return reply.status(201).send(results[0]);
    },
  );

  docs.add<ProjectParams>(app, "get", `${PROJECT}/`, { summary: "Get a project", tag }, async (request) =>
    oneProject(request, await member(request), request.query),
  );

  docs.add<ProjectParams>(
    app,
    "patch",
    `${PROJECT}/`,
    { summary: "Update a project (project admin)", tag, body: updateProjectBody },
    async (request) => {
      const access = await member(request, ROLE.admin);
      const body = parse(updateProjectBody, request.body);
      await updateProject(app.ctx, eventOrigin(request), access, body);
      return oneProject(request, access, {});
    },
  );

  docs.add<ProjectParams>(
    app,
    "delete",
    `${PROJECT}/`,
    { summary: "Delete a project (project admin)", tag, empty: true },
    async (request, reply) => {
      const access = await member(request, ROLE.admin);
      await deleteProject(app.ctx, eventOrigin(request), access.project);
      return reply.status(204).send();
    },
  );

  // ── states ──
  type StateParams = ProjectParams & { stateId: string };
  const STATES = `${PROJECT}/states`;
  docs.add<ProjectParams>(
    app,
    "get",
    `${STATES}/`,
    { summary: "List states", tag: "States", paginated: true },
    async (request) => {
      const access = await member(request, ROLE.guest);
      return paginateList(request.query, (await listProjectStates(db, access.project)).map(presentPublicState));
    },
  );
  docs.add<ProjectParams>(
    app,
    "post",
    `${STATES}/`,
    { summary: "Create a state", tag: "States", body: createStateBody, status: 201 },
    async (request, reply) => {
      const access = await member(request, ROLE.member);
      const body = parse(createStateBody, request.body);
      return reply.status(201).send(presentPublicState(await createState(app.ctx, eventOrigin(request), access, body)));
    },
  );
  docs.add<StateParams>(
    app,
    "get",
    `${STATES}/:stateId/`,
    { summary: "Get a state", tag: "States" },
    async (request) => {
      const access = await member(request, ROLE.guest);
      return presentPublicState(await getState(db, access.project, request.params.stateId));
    },
  );
  docs.add<StateParams>(
    app,
    "patch",
    `${STATES}/:stateId/`,
    { summary: "Update a state", tag: "States", body: updateStateBody },
    async (request) => {
      const access = await member(request, ROLE.member);
      const body = parse(updateStateBody, request.body);
      return presentPublicState(await updateState(app.ctx, eventOrigin(request), access, request.params.stateId, body));
    },
  );
  docs.add<StateParams>(
    app,
    "delete",
    `${STATES}/:stateId/`,
    { summary: "Delete a state", tag: "States", empty: true },
    async (request, reply) => {
      const access = await member(request, ROLE.member);
      await deleteState(app.ctx, eventOrigin(request), access, request.params.stateId);
      return reply.status(204).send();
    },
  );

  // ── labels ──
  type LabelParams = ProjectParams & { labelId: string };
  const LABELS = `${PROJECT}/labels`;
  docs.add<ProjectParams>(
    app,
    "get",
    `${LABELS}/`,
    { summary: "List labels", tag: "Labels", paginated: true },
    async (request) => {
      const access = await member(request, ROLE.guest);
      return paginateList(request.query, (await listProjectLabels(db, access.project)).map(presentPublicLabel));
    },
  );
  docs.add<ProjectParams>(
    app,
    "post",
    `${LABELS}/`,
    { summary: "Create a label", tag: "Labels", body: createLabelBody, status: 201 },
    async (request, reply) => {
      const access = await member(request, ROLE.member);
      const body = parse(createLabelBody, request.body);
      return reply.status(201).send(presentPublicLabel(await createLabel(app.ctx, eventOrigin(request), access, body)));
    },
  );
  docs.add<LabelParams>(
    app,
    "get",
    `${LABELS}/:labelId/`,
    { summary: "Get a label", tag: "Labels" },
    async (request) => {
      const access = await member(request, ROLE.guest);
      return presentPublicLabel(await getLabel(db, access.project, request.params.labelId));
    },
  );
  docs.add<LabelParams>(
    app,
    "patch",
    `${LABELS}/:labelId/`,
    { summary: "Update a label", tag: "Labels", body: updateLabelBody },
    async (request) => {
      const access = await member(request, ROLE.member);
      const body = parse(updateLabelBody, request.body);
      return presentPublicLabel(await updateLabel(app.ctx, eventOrigin(request), access, request.params.labelId, body));
    },
  );
  docs.add<LabelParams>(
    app,
    "delete",
    `${LABELS}/:labelId/`,
    { summary: "Delete a label", tag: "Labels", empty: true },
    async (request, reply) => {
      const access = await member(request, ROLE.member);
      await deleteLabel(app.ctx, eventOrigin(request), access, request.params.labelId);
      return reply.status(204).send();
    },
  );

  // ── members ──
  docs.add<SlugParams>(
    app,
    "get",
    `${WS}/members/`,
    { summary: "List workspace members with their role (workspace admin)", tag: "Members" },
    async (request) => {
      const ws = await workspaceAccess(db, request, request.params.slug, ROLE.admin);
      const rows = await db
        .select({ user: users, role: workspaceMembers.role })
        .from(workspaceMembers)
        .innerJoin(users, eq(users.id, workspaceMembers.memberId))
        .where(and(eq(workspaceMembers.workspaceId, ws.workspace.id), eq(workspaceMembers.isActive, true)))
        .orderBy(workspaceMembers.createdAt, workspaceMembers.id);
      return rows.map((r) => ({ ...presentUserLite(r.user), role: r.role }));
    },
  );
  for (const segment of ["members", "project-members"] as const) {
    docs.add<ProjectParams>(
      app,
      "get",
      `${PROJECT}/${segment}/`,
      { summary: "List project members", tag: "Members" },
      async (request) => {
        const access = await member(request, ROLE.guest);
        const rows = await db
          .select({ user: users, role: projectMembers.role })
          .from(projectMembers)
          .innerJoin(users, eq(users.id, projectMembers.memberId))
          .innerJoin(
            workspaceMembers,
            and(
              eq(workspaceMembers.workspaceId, projectMembers.workspaceId),
              eq(workspaceMembers.memberId, projectMembers.memberId),
              eq(workspaceMembers.isActive, true),
            ),
          )
          .where(and(eq(projectMembers.projectId, access.project.id), eq(projectMembers.isActive, true)))
          .orderBy(projectMembers.createdAt, projectMembers.id);
        return rows.map((r) => ({ ...presentUserLite(r.user), role: r.role }));
      },
    );
  }
}
