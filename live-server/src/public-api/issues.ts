/**
 * /api/v1 work items (the reference's plane/api/urls/work_item.py; `issues/` and its newer
 * alias `work-items/`):
 * - projects/:id/issues/: GET (cursor pages; order_by, fields, expand), POST (member+);
 * - projects/:id/issues/:id/: GET, PATCH (member+), DELETE (project admin or the creator);
 * - workspaces/:slug/issues/:PROJECT-SEQ/: one work item by its key.
 * Reads follow the web API's visibility (restricted guests: their own items; drafts and intake
 * requests are not work items). Writes go through routes/issues/service.ts in
 * transactionWithEvents, so issue.* events, history, subscriptions and notifications follow.
 */
import { ISSUE_NAME_MAX, PRIORITIES, ROLE } from "@tideline/shared";
import { asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { DbOrTx } from "../db/client.ts";
import { queryRows } from "../db/client.ts";
import { issueAssignees, issueLabels, issues, labels, projects, states, users } from "../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../events/bus.ts";
import { badRequest, forbidden, notFound, parse } from "../http/errors.ts";
import { type IssueAccess, type IssueRow, issueAccess, type ProjectAccess, projectAccess } from "../policies/access.ts";
import { readListQuery, visibleConditions } from "../routes/issues/common.ts";
import { dateField, optionalRef, stateRef } from "../routes/issues/schema.ts";
import { createIssue, deleteIssues, lockIssueRow, updateIssue } from "../routes/issues/service.ts";
import { PROJECT, type ProjectParams, type SlugParams, type V1, WS } from "./context.ts";
import { csv, dumpRow, pickFields } from "./dump.ts";
import { pageAnswer, readPage } from "./paginate.ts";
import { presentPublicLabel, presentUserLite } from "./projects.ts";

type Query = Record<string, unknown>;
const id = z.guid("Expected an id");

/** The reference's public IssueSerializer fields one writes (unknown keys ignored). */
const issueFields = {
  name: z
    .string("Name is required")
    .trim()
    .min(1, "Name is required")
    .max(ISSUE_NAME_MAX, `Name must be at most ${ISSUE_NAME_MAX} characters`),
  description_html: z.string().max(2_000_000, "Description is too long").nullable(),
  state: stateRef,
  priority: z.enum(PRIORITIES),
  assignees: z.array(id).max(100),
  labels: z.array(id).max(100),
  parent: optionalRef,
  estimate_point: optionalRef,
  start_date: dateField,
  target_date: dateField,
  sort_order: z.number().finite(),
};

export const publicCreateIssueBody = z.object(issueFields).partial().required({ name: true });
export const publicUpdateIssueBody = z.object(issueFields).partial();

/** The public body in the web API's form names (routes/issues/schema.ts). */
function toForm(body: z.output<typeof publicUpdateIssueBody>) {
  const { state, assignees, labels: labelIds, parent, ...rest } = body;
  return {
    ...rest,
    ...(state !== undefined ? { state_id: state } : {}),
    ...(assignees !== undefined ? { assignee_ids: assignees } : {}),
    ...(labelIds !== undefined ? { label_ids: labelIds } : {}),
    ...(parent !== undefined ? { parent_id: parent } : {}),
  };
}

const EXPANDABLE = new Set(["assignees", "labels", "state", "project", "parent", "created_by", "updated_by"]);

/** Work items in the reference's public shape, in the order of `rows`. */
export async function presentIssues(db: DbOrTx, rows: readonly IssueRow[], expand: readonly string[] | null) {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const want = new Set((expand ?? []).filter((e) => EXPANDABLE.has(e)));
  const [assigneeRows, labelRows] = await Promise.all([
    db
      .select({ issueId: issueAssignees.issueId, user: users })
      .from(issueAssignees)
      .innerJoin(users, eq(users.id, issueAssignees.assigneeId))
      .where(inArray(issueAssignees.issueId, ids))
      .orderBy(asc(issueAssignees.createdAt)),
    db
      .select({ issueId: issueLabels.issueId, label: labels })
      .from(issueLabels)
      .innerJoin(labels, eq(labels.id, issueLabels.labelId))
      .where(inArray(issueLabels.issueId, ids))
      .orderBy(asc(issueLabels.createdAt)),
  ]);
  const stateIds = [...new Set(rows.map((r) => r.stateId).filter((v): v is string => Boolean(v)))];
  const projectIds = [...new Set(rows.map((r) => r.projectId))];
  const parentIds = [...new Set(rows.map((r) => r.parentId).filter((v): v is string => Boolean(v)))];
  const userIds = [
    ...new Set(rows.flatMap((r) => [r.createdById, r.updatedById]).filter((v): v is string => Boolean(v))),
  ];
  const [stateRows, projectRows, parentRows, userRows] = await Promise.all([
    want.has("state") && stateIds.length ? db.select().from(states).where(inArray(states.id, stateIds)) : [],
    want.has("project") ? db.select().from(projects).where(inArray(projects.id, projectIds)) : [],
    want.has("parent") && parentIds.length ? db.select().from(issues).where(inArray(issues.id, parentIds)) : [],
    (want.has("created_by") || want.has("updated_by")) && userIds.length
      ? db.select().from(users).where(inArray(users.id, userIds))
      : [],
  ]);
  const byId = <T extends { id: string }>(list: T[]) => new Map(list.map((x) => [x.id, x]));
  const stateMap = byId(stateRows);
  const projectMap = byId(projectRows);
  const parentMap = byId(parentRows);
  const userMap = byId(userRows);
  return rows.map((row) => {
    const assigned = assigneeRows.filter((a) => a.issueId === row.id);
    const labelled = labelRows.filter((l) => l.issueId === row.id);
    const out: Record<string, unknown> = {
      ...dumpRow(row, ["descriptionStripped", "descriptionBinary", "isEpic", "inIntake"]),
      external_source: null,
      external_id: null,
      type_id: null,
      assignees: want.has("assignees") ? assigned.map((a) => presentUserLite(a.user)) : assigned.map((a) => a.user.id),
      labels: want.has("labels") ? labelled.map((l) => presentPublicLabel(l.label)) : labelled.map((l) => l.label.id),
    };
    const s = row.stateId ? stateMap.get(row.stateId) : undefined;
    if (want.has("state")) out.state = s ? { id: s.id, name: s.name, color: s.color, group: s.group } : null;
    const p = projectMap.get(row.projectId);
    if (want.has("project") && p) {
      out.project = {
        id: p.id,
        identifier: p.identifier,
        name: p.name,
        cover_image: p.coverImage,
        logo_props: p.logoProps,
        description: p.description,
      };
    }
    const parent = row.parentId ? parentMap.get(row.parentId) : undefined;
    if (want.has("parent"))
      out.parent = parent ? { id: parent.id, sequence_id: parent.sequenceId, project_id: parent.projectId } : null;
    for (const key of ["created_by", "updated_by"] as const) {
      if (!want.has(key)) continue;
      const uid = key === "created_by" ? row.createdById : row.updatedById;
      const u = uid ? userMap.get(uid) : undefined;
      out[key] = u ? presentUserLite(u) : null;
    }
    return out;
  });
}

async function presentOne(db: DbOrTx, issueId: string, query: Query) {
  const [row] = await db.select().from(issues).where(eq(issues.id, issueId)).limit(1);
  if (!row) throw notFound("Work item");
  const [presented] = await presentIssues(db, [row], csv(query.expand));
  return pickFields(presented as Record<string, unknown>, csv(query.fields));
}

const PRIORITY_ORDER = ["urgent", "high", "medium", "low", "none"];
const STATE_ORDER = ["backlog", "unstarted", "started", "completed", "cancelled"];

/** The reference's order_by values (default -created_at); anything else is a 400. */
function orderByOf(raw: unknown): SQL {
  const value = raw === undefined || raw === "" ? "-created_at" : String(raw);
  const desc = value.startsWith("-");
  const key = desc ? value.slice(1) : value;
  const dir = desc ? sql`desc` : sql`asc`;
  const columns: Record<string, SQL> = {
    created_at: sql`i.created_at`,
    updated_at: sql`i.updated_at`,
    sequence_id: sql`i.sequence_id`,
    sort_order: sql`i.sort_order`,
    name: sql`i.name`,
    start_date: sql`i.start_date`,
    target_date: sql`i.target_date`,
    completed_at: sql`i.completed_at`,
  };
  if (key === "priority") {
    const list = desc ? [...PRIORITY_ORDER].reverse() : PRIORITY_ORDER;
    return sql`array_position(${`{${list.join(",")}}`}::text[], i.priority::text), i.created_at desc, i.id`;
  }
  if (key === "state__group" || key === "state__name") {
    const list = desc ? [...STATE_ORDER].reverse() : STATE_ORDER;
    return sql`coalesce(array_position(${`{${list.join(",")}}`}::text[], (select s."group" from states s where s.id = i.state_id)), 5), i.created_at desc, i.id`;
  }
  const column = columns[key];
  if (!column) {
    throw badRequest(`Unknown order_by "${value}"`, {
      order_by: [
        `Use one of ${[...Object.keys(columns), "priority", "state__group"].join(", ")}, with - for descending`,
      ],
    });
  }
  return sql`${column} ${dir} nulls last, i.created_at desc, i.id`;
}

export function registerIssueRoutes({ app, docs }: V1): void {
  const { db, events } = app.ctx;
  type ItemParams = ProjectParams & { issueId: string };
  const item = (request: FastifyRequest<{ Params: ItemParams }>, minRole?: 5 | 15 | 20) =>
    issueAccess(db, request, request.params.slug, request.params.projectId, request.params.issueId, {
      minRole,
      includeDrafts: false,
    }).then((access) => {
      if (access.issue.isEpic) throw notFound("Work item");
      return access;
    });
  const listQuery = z.object({
    order_by: z
      .string()
      .optional()
      .describe(
        "created_at, updated_at, sequence_id, sort_order, name, start_date, target_date, priority, state__group; - for descending",
      ),
    fields: z.string().optional().describe("comma-separated fields to answer"),
    expand: z.string().optional().describe("assignees, labels, state, project, parent, created_by, updated_by"),
    state: z.string().optional().describe("state ids, comma-separated (the web API's filters)"),
    priority: z.string().optional().describe("urgent, high, medium, low, none; comma-separated"),
    assignees: z.string().optional().describe("user ids, comma-separated"),
    labels: z.string().optional().describe("label ids, comma-separated"),
    search: z.string().optional().describe("words of the name, or a key such as WEB-12"),
  });
  const itemQuery = listQuery.pick({ fields: true, expand: true });

  for (const kind of ["issues", "work-items"] as const) {
    const base = `${PROJECT}/${kind}`;
    const tag = "Work items";

    docs.add<ProjectParams>(
      app,
      "get",
      `${base}/`,
      { summary: "List work items", tag, paginated: true, query: listQuery },
      async (request) => {
        const access = await projectAccess(db, request, request.params.slug, request.params.projectId);
        const page = readPage(request.query);
        const order = orderByOf(request.query.order_by);
        // The web API's filters (state, priority, assignees, labels, dates, search…) on top.
        const { order_by: _o, cursor: _c, per_page: _p, fields: _f, expand: _e, ...filterQuery } = request.query;
        const filters = readListQuery(filterQuery, access).conditions;
        const where = sql.join([...visibleConditions(access), sql`i.is_epic = false`, ...filters], sql` and `);
        const [idRows, countRows] = await Promise.all([
          queryRows<{ id: string }>(
            db,
            sql`select i.id::text as id from issues i where ${where} order by ${order}
                limit ${page.perPage + 1} offset ${page.offset}`,
          ),
          queryRows<{ n: number }>(db, sql`select count(*)::int as n from issues i where ${where}`),
        ]);
        const ids = idRows.map((r) => r.id);
        const rows = ids.length ? await db.select().from(issues).where(inArray(issues.id, ids)) : [];
        const byId = new Map(rows.map((r) => [r.id, r]));
        const ordered = ids.flatMap((x) => byId.get(x) ?? []);
        const fields = csv(request.query.fields);
        const presented = (await presentIssues(db, ordered, csv(request.query.expand))).map((p) =>
          pickFields(p, fields),
        );
        return pageAnswer(page, presented, countRows[0]?.n ?? 0);
      },
    );

    docs.add<ProjectParams>(
      app,
      "post",
      `${base}/`,
      { summary: "Create a work item", tag, body: publicCreateIssueBody, status: 201 },
      async (request, reply) => {
        const access = await projectAccess(db, request, request.params.slug, request.params.projectId, {
          minRole: ROLE.member,
        });
        const body = parse(publicCreateIssueBody, request.body);
        const created = await transactionWithEvents(db, events, eventOrigin(request), (tx, emit) =>
          createIssue(
            tx,
            emit,
            { project: access.project, actorId: access.user.id },
            { ...toForm(body), name: body.name },
            {
              isEpic: false,
              isDraft: false,
            },
          ),
        );
        return reply.status(201).send(await presentOne(db, created.id, {}));
      },
    );

    docs.add<ItemParams>(
      app,
      "get",
      `${base}/:issueId/`,
      { summary: "Get a work item", tag, query: itemQuery },
      async (request) => {
        const access = await item(request);
        return presentOne(db, access.issue.id, request.query);
      },
    );

    docs.add<ItemParams>(
      app,
      "patch",
      `${base}/:issueId/`,
      { summary: "Update a work item", tag, body: publicUpdateIssueBody },
      async (request) => {
        const access = await item(request, ROLE.member);
        const body = parse(publicUpdateIssueBody, request.body);
        await transactionWithEvents(db, events, eventOrigin(request), (tx, emit) =>
          lockIssueRow(tx, access.issue).then((row) =>
            updateIssue(tx, emit, { project: access.project, actorId: access.user.id }, row, toForm(body)),
          ),
        );
        return presentOne(db, access.issue.id, {});
      },
    );

    docs.add<ItemParams>(
      app,
      "delete",
      `${base}/:issueId/`,
      { summary: "Delete a work item (project admin or its creator)", tag, empty: true },
      async (request, reply) => {
        const access = await item(request, ROLE.member);
        if (!canDelete(access)) throw forbidden("Only admin or creator can delete the work item");
        await transactionWithEvents(db, events, eventOrigin(request), (tx, emit) =>
          lockIssueRow(tx, access.issue).then((row) =>
            deleteIssues(tx, emit, { project: access.project, actorId: access.user.id }, [row]),
          ),
        );
        return reply.status(204).send();
      },
    );
  }

  for (const kind of ["issues", "work-items"] as const) {
    docs.add<SlugParams & { identifier: string }>(
      app,
      "get",
      `${WS}/${kind}/:identifier/`,
      { summary: "Get a work item by its key (PROJECT-123)", tag: "Work items", query: itemQuery },
      async (request) => {
        const access = await byIdentifier(request, request.params.slug, request.params.identifier);
        return presentOne(db, access.issue.id, request.query);
      },
    );
  }

  /** PROJECT-123 → the item, with the same checks as its path by id. */
  async function byIdentifier(request: FastifyRequest, slug: string, key: string): Promise<IssueAccess> {
    const m = /^([A-Za-z0-9]{1,12})-(\d{1,9})$/.exec(key);
    if (!m) throw notFound("Work item");
    const [row] = await queryRows<{ project_id: string; id: string }>(
      db,
      sql`select i.project_id::text as project_id, i.id::text as id from issues i
          join projects p on p.id = i.project_id join workspaces w on w.id = p.workspace_id
          where w.slug = ${slug.toLowerCase()} and p.identifier = ${(m[1] as string).toUpperCase()}
            and i.sequence_id = ${Number(m[2])} and i.deleted_at is null and i.is_draft = false
            and i.in_intake = false and i.is_epic = false`,
    );
    if (!row) throw notFound("Work item");
    return issueAccess(db, request, slug, row.project_id, row.id, { includeDrafts: false });
  }
}

/** The reference: a project admin or the item's creator deletes it. */
function canDelete(access: ProjectAccess & { issue: IssueRow }): boolean {
  return (access.projectMembership?.role ?? 0) >= ROLE.admin || access.issue.createdById === access.user.id;
}
