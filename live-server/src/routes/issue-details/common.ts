/**
 * What every work-item detail route shares: the `{type}` path segment (issues or epics), access
 * to the parent item, the people shown next to rows (actor_detail) and small parsers.
 */
import { ROLE } from "@tideline/shared";
import { type AnyColumn, inArray, type SQL, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { users } from "../../db/schema.ts";
import { notFound } from "../../http/errors.ts";
import { type IssueAccess, issueAccess } from "../../policies/access.ts";
import { type ActivityInput, recordActivity } from "../../services/issue-activity.ts";

export const PROJECT_PATH = "/api/workspaces/:slug/projects/:projectId";

/** Path segments naming work items; epics are work items with is_epic in a project with epics on. */
export const ITEM_TYPES = ["issues", "epics"] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

export type ProjectParams = { slug: string; projectId: string };
export type ItemParams = ProjectParams & { issueId: string };

/**
 * The work item named by the path, checked for the caller: 404 outside their workspace or
 * projects, for deleted items and for guests who may only see their own; `write` needs member.
 * `issues` accepts every work item (the spec has epics use the issues paths for sub-issues);
 * `epics` only epics of a project that has epics switched on.
 */
export async function itemAccess(
  db: DbOrTx,
  request: FastifyRequest,
  type: ItemType,
  params: ItemParams,
  write = false,
): Promise<IssueAccess> {
  const access = await issueAccess(
    db,
    request,
    params.slug,
    params.projectId,
    params.issueId,
    write ? { minRole: ROLE.member } : {},
  );
  if (type === "epics" && !(access.issue.isEpic && access.project.isEpicEnabled)) throw notFound("Work item");
  return access;
}

/** Event scope for something that belongs to the item's project. */
export function scopeOf(access: IssueAccess, entityId: string) {
  return { workspaceId: access.workspace.id, projectId: access.project.id, entityId };
}

/** A history row about the item `access` reached, made by the caller (in the change's transaction). */
export function recordItemActivity(
  tx: Tx,
  access: IssueAccess,
  entry: Omit<ActivityInput, "workspaceId" | "projectId" | "issueId" | "actorId">,
): Promise<void> {
  return recordActivity(tx, {
    workspaceId: access.workspace.id,
    projectId: access.project.id,
    issueId: access.issue.id,
    actorId: access.user.id,
    ...entry,
  });
}

/** "PROJ-12": how activity rows name another work item. */
export function itemIdentifier(projectIdentifier: string, sequenceId: number): string {
  return `${projectIdentifier}-${sequenceId}`;
}

/**
 * Serialise changes to one work item's detail collections (links, relations): the row lock
 * makes concurrent duplicate checks see each other. Locks are taken in id order, so two
 * requests touching the same pair never deadlock.
 */
export async function lockItems(tx: Tx, ids: readonly string[]): Promise<void> {
  const sorted = [...new Set(ids)].sort();
  if (sorted.length === 0) return;
  await tx.execute(
    sql`select id from issues where id in (${sql.join(
      sorted.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) order by id for update`,
  );
}

type UserRow = typeof users.$inferSelect;

/** A person next to a row they made (comment author, reactor, activity actor); no e-mail. */
export function presentActor(user: UserRow) {
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    display_name: user.displayName,
    avatar: user.avatarUrl,
    avatar_url: user.avatarUrl,
    is_bot: user.isBot,
  };
}
export type ActorDetail = ReturnType<typeof presentActor>;

/** The users behind `ids`, presented, by id (one query). */
export async function loadActors(db: DbOrTx, ids: readonly (string | null)[]): Promise<Map<string, ActorDetail>> {
  const unique = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  if (unique.length === 0) return new Map();
  const rows = await db.select().from(users).where(inArray(users.id, unique));
  return new Map(rows.map((u) => [u.id, presentActor(u)]));
}

export const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** `?created_at__gt=` (and friends): an ISO date-time, or absent. */
export const timestampParam = z
  .string()
  .trim()
  .refine((value) => !Number.isNaN(Date.parse(value)), "Expected an ISO date-time")
  .transform((value) => new Date(value))
  .optional();

/**
 * `column` is later than `since`, compared to the millisecond: the API shows times with
 * milliseconds, so a client passing back the last time it saw must not get that row again
 * because the database kept microseconds.
 */
export function laterThan(column: AnyColumn, since: Date): SQL {
  return sql`date_trunc('milliseconds', ${column}) > ${since.toISOString()}::timestamptz`;
}
