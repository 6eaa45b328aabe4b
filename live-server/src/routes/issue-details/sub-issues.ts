/**
 * Sub-issues: GET {type}/:id/sub-issues/ lists an item's children (drafts left out) with their
 * distribution over state groups; POST {sub_issue_ids} makes items children of this one.
 * Removing a child is PATCH parent_id null on the work item itself.
 *
 * Children come from the same project; the tree never gets a loop (an item can't become a child
 * of itself or of one of its descendants). Changes to one project's tree are serialised by a
 * transaction-scoped advisory lock, so two opposite moves at once can't build a loop either.
 */
import { STATE_GROUPS, type StateGroup } from "@tideline/shared";
import { and, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { type DbOrTx, queryRows, type Tx } from "../../db/client.ts";
import { issues, projects } from "../../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, parse } from "../../http/errors.ts";
import { guestSeesOwnOnly, type IssueAccess } from "../../policies/access.ts";
import { type ActivityInput, recordActivity } from "../../services/issue-activity.ts";
import { loadIssues, type PresentedIssue } from "../issues/query.ts";
import { ITEM_TYPES, type ItemParams, type ItemType, itemAccess, itemIdentifier, PROJECT_PATH } from "./common.ts";

/** Most children one request may add. */
export const SUB_ISSUES_PER_REQUEST = 100;

const addSubIssuesBody = z.object({
  sub_issue_ids: z
    .array(z.uuid("Each work item is named by its id"), "List the work items to add")
    .min(1, "Choose at least one work item")
    .max(SUB_ISSUES_PER_REQUEST, `At most ${SUB_ISSUES_PER_REQUEST} work items at once`),
});

export type SubIssues = {
  sub_issues: PresentedIssue[];
  state_distribution: Record<StateGroup, string[]>;
};

/** The item's children as the caller may see them, and their ids per state group. */
async function subIssuesOf(db: DbOrTx, access: IssueAccess): Promise<SubIssues> {
  const conditions: SQL[] = [sql`i.parent_id = ${access.issue.id}`, sql`i.is_draft = false`, sql`i.in_intake = false`];
  if (guestSeesOwnOnly(access)) conditions.push(sql`i.created_by = ${access.user.id}`);
  const children = await loadIssues(db, { where: sql.join(conditions, sql` and `) });
  const distribution = Object.fromEntries(STATE_GROUPS.map((g) => [g, [] as string[]])) as Record<StateGroup, string[]>;
  for (const child of children) {
    const group = child.state__group as StateGroup | null;
    if (group && group in distribution) distribution[group].push(child.id);
  }
  return { sub_issues: children, state_distribution: distribution };
}

/** Serialise changes to the parent/child tree of one project (until the transaction ends). */
export async function lockIssueTree(tx: Tx, projectId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`issue-tree:${projectId}`}))`);
}

/** The item and all its ancestors. UNION (not UNION ALL) stops even on a loop in old data. */
async function selfAndAncestors(tx: Tx, issueId: string): Promise<Set<string>> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`with recursive up(id, parent_id) as (
          select id, parent_id from issues where id = ${issueId}
          union
          select i.id, i.parent_id from issues i join up on i.id = up.parent_id
        ) select id from up`,
  );
  return new Set(rows.map((r) => r.id));
}

export async function registerSubIssueRoutes(app: FastifyInstance): Promise<void> {
  const { db, events } = app.ctx;

  // An epic's children are at epics/{id}/issues/ in the reference (epics' sub-issues/ answers too).
  const paths = ITEM_TYPES.flatMap((ty): [ItemType, string][] =>
    ty === "epics"
      ? [
          [ty, "sub-issues"],
          [ty, "issues"],
        ]
      : [[ty, "sub-issues"]],
  );
  for (const [type, segment] of paths) {
    const base = `${PROJECT_PATH}/${type}/:issueId/${segment}`;
    const t: ItemType = type;

    app.get<{ Params: ItemParams }>(`${base}/`, async (request) => {
      const access = await itemAccess(db, request, t, request.params);
      return subIssuesOf(db, access);
    });

    app.post<{ Params: ItemParams }>(`${base}/`, async (request) => {
      const access = await itemAccess(db, request, t, request.params, true);
      const body = parse(addSubIssuesBody, request.body);
      const parent = access.issue;
      const ids = [...new Set(body.sub_issue_ids)];
      const refuse = (message: string, code: string): never => {
        throw badRequest(message, { sub_issue_ids: [message] }, code);
      };
      if (ids.includes(parent.id)) refuse("A work item can't be its own sub-issue.", "SUB_ISSUE_SELF");

      return transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
        await lockIssueTree(tx, access.project.id);
        const children = await tx
          .select()
          .from(issues)
          .where(and(inArray(issues.id, ids), eq(issues.projectId, access.project.id), isNull(issues.deletedAt)));
        const found = new Set(children.map((c) => c.id));
        const unknown = ids.filter((id) => !found.has(id));
        if (unknown.length > 0) {
          refuse(`Work item not found in this project: ${unknown.join(", ")}`, "SUB_ISSUE_UNKNOWN_ITEM");
        }
        if (children.some((c) => c.isEpic)) refuse("An epic can't be a sub-issue.", "SUB_ISSUE_EPIC");
        if (children.some((c) => c.isDraft)) refuse("A draft can't be a sub-issue.", "SUB_ISSUE_DRAFT");
        const ancestors = await selfAndAncestors(tx, parent.id);
        if (children.some((c) => ancestors.has(c.id))) {
          refuse("That would make a work item a sub-issue of its own sub-issue.", "SUB_ISSUE_LOOP");
        }

        const moved = children.filter((c) => c.parentId !== parent.id);
        if (moved.length > 0) {
          // Former parents, to name them in the history (any project: old data may cross).
          const oldParentIds = [...new Set(moved.map((c) => c.parentId).filter((id): id is string => id !== null))];
          const oldParents = new Map(
            oldParentIds.length === 0
              ? []
              : (
                  await tx
                    .select({ id: issues.id, sequenceId: issues.sequenceId, identifier: projects.identifier })
                    .from(issues)
                    .innerJoin(projects, eq(projects.id, issues.projectId))
                    .where(inArray(issues.id, oldParentIds))
                ).map((p) => [p.id, itemIdentifier(p.identifier, p.sequenceId)]),
          );
          const parentName = itemIdentifier(access.project.identifier, parent.sequenceId);
          await tx
            .update(issues)
            .set({ parentId: parent.id, updatedById: access.user.id })
            .where(
              inArray(
                issues.id,
                moved.map((c) => c.id),
              ),
            );
          // The parents' sub_issues_count changed: newer updated_at lets delta sync pick them up.
          await tx
            .update(issues)
            .set({ updatedAt: new Date() })
            .where(inArray(issues.id, [parent.id, ...oldParentIds]));

          const base = { workspaceId: access.workspace.id, projectId: access.project.id, actorId: access.user.id };
          const activity: ActivityInput[] = [];
          for (const child of moved) {
            const childName = itemIdentifier(access.project.identifier, child.sequenceId);
            const oldName = child.parentId ? (oldParents.get(child.parentId) ?? null) : null;
            activity.push({
              ...base,
              issueId: child.id,
              verb: "updated",
              field: "parent",
              oldValue: oldName,
              newValue: parentName,
              oldIdentifier: child.parentId,
              newIdentifier: parent.id,
            });
            activity.push({
              ...base,
              issueId: parent.id,
              verb: "created",
              field: "sub_issue",
              newValue: childName,
              newIdentifier: child.id,
            });
            if (child.parentId && oldParents.has(child.parentId)) {
              activity.push({
                ...base,
                issueId: child.parentId,
                verb: "deleted",
                field: "sub_issue",
                oldValue: childName,
                oldIdentifier: child.id,
              });
            }
          }
          await recordActivity(tx, activity);

          // As the core update announces it: the item as presented, plus which fields changed.
          const movedIds = new Set(moved.map((c) => c.id));
          const changed = await loadIssues(tx, {
            ids: [...movedIds, parent.id, ...oldParentIds],
            includeDescription: true,
          });
          for (const item of changed) {
            emit(
              "issue.updated",
              { workspaceId: item.workspace_id, projectId: item.project_id, entityId: item.id },
              { ...item, changed_fields: movedIds.has(item.id) ? ["parent_id"] : ["sub_issues_count"] },
            );
          }
        }
        return subIssuesOf(tx, access);
      });
    });
  }
}
