/**
 * GET /api/workspaces/{slug}/user-issues/{userId}/: the work items a member is involved in —
 * the profile's assigned, created and subscribed tabs — with every parameter of the project
 * list (filters, group_by / sub_group_by, order_by, cursor / per_page, search, layout, expand;
 * routes/issues/README.md). `type=assigned | created | subscribed` picks the tab (the
 * reference's client sends the same as `assignees=` / `created_by=` / `subscriber=` filters,
 * which work too); without it, items the user is assigned to, created or follows. `type=active`
 * / `backlog` keep their list meaning. Default order `-created_at`, as the reference's.
 * Only items the caller may see (common.ts `visibleWorkItems`), across the workspace's projects;
 * groups of states, labels … show only when they hold items (the list's rule across projects).
 */
import { type SQL, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { readListQueryIn } from "../issues/common.ts";
import { applyLayout, attachRelations, wantsRelations } from "../issues/layout.ts";
import { listIssuePage } from "../issues/list.ts";
import { type ProfileParams, profileAccess, visibleWorkItems, WS_PATH } from "./common.ts";

type Query = Record<string, unknown>;

export const PROFILE_TABS = ["assigned", "created", "subscribed"] as const;
type ProfileTab = (typeof PROFILE_TABS)[number];

function involvement(userId: string, tab: ProfileTab | null): SQL {
  const assigned = sql`exists (select 1 from issue_assignees ua where ua.issue_id = i.id and ua.assignee_id = ${userId}::uuid)`;
  const created = sql`i.created_by = ${userId}::uuid`;
  const subscribed = sql`exists (select 1 from issue_subscribers us where us.issue_id = i.id and us.subscriber_id = ${userId}::uuid)`;
  if (tab === "assigned") return assigned;
  if (tab === "created") return created;
  if (tab === "subscribed") return subscribed;
  return sql`(${assigned} or ${created} or ${subscribed})`;
}

export async function profileIssuesRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  app.get<{ Params: ProfileParams; Querystring: Query }>(`${WS_PATH}/user-issues/:userId/`, async (request) => {
    const access = await profileAccess(db, request, request.params);
    const query: Query = { ...request.query };
    const rawType = Array.isArray(query.type) ? query.type[query.type.length - 1] : query.type;
    let tab: ProfileTab | null = null;
    if (typeof rawType === "string" && (PROFILE_TABS as readonly string[]).includes(rawType)) {
      tab = rawType as ProfileTab;
      delete query.type;
    }
    if (query.order_by === undefined || query.order_by === "") query.order_by = "-created_at";
    const list = applyLayout(
      readListQueryIn(query, {
        timezone: access.workspace.timezone,
        identifier: sql`(select ip.identifier from projects ip where ip.id = i.project_id)`,
      }),
      query,
    );
    const page = await listIssuePage(db, {
      where: [...visibleWorkItems(access), involvement(access.target.id, tab), ...list.conditions],
      projectId: null,
      groupBy: list.groupBy,
      subGroupBy: list.subGroupBy,
      orderBy: list.orderBy,
      cursor: list.cursor,
    });
    return wantsRelations(query) ? attachRelations(db, page, access.user.id) : page;
  });
}
