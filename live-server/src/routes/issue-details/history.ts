/**
 * A work item's history: GET {type}/:id/history/ (alias activities/). `activity_type` picks what
 * comes back — issue-property (field changes, links, relations, sub-issues…), issue-comment (the
 * comments themselves; epic-property / epic-comment are the same for epics), several joined by
 * commas, everything when absent — oldest first, merged by created_at. `created_at__gt` fetches
 * only what is newer (incremental refresh).
 *
 * Comment and reaction activity rows are kept for the record (notifications, webhooks) but not
 * listed: the comments themselves show, and reactions are not history. Rows are written as the
 * reference writes them (services/issue-activity.ts) and presented in its shape.
 */
import { and, asc, eq, isNull, notInArray, or } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { issueActivities, issueComments } from "../../db/schema.ts";
import { parse } from "../../http/errors.ts";
import type { IssueAccess } from "../../policies/access.ts";
import {
  type ActorDetail,
  ITEM_TYPES,
  type ItemParams,
  type ItemType,
  itemAccess,
  laterThan,
  loadActors,
  PROJECT_PATH,
  timestampParam,
} from "./common.ts";
import { type PresentedComment, presentComments } from "./presenters.ts";

const ACTIVITY_KINDS = {
  "issue-property": "property",
  "epic-property": "property",
  "issue-comment": "comment",
  "epic-comment": "comment",
} as const;
type ActivityKind = (typeof ACTIVITY_KINDS)[keyof typeof ACTIVITY_KINDS];

/** Activity fields the history leaves out (see the module comment), as the reference leaves them out. */
const UNLISTED_FIELDS = ["comment", "reaction", "comment_reaction", "vote", "draft"];

const historyQuery = z.object({
  activity_type: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const kinds = new Set<ActivityKind>();
      const parts = (value ?? "")
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean);
      if (parts.length === 0) return new Set<ActivityKind>(["property", "comment"]);
      for (const part of parts) {
        const kind = ACTIVITY_KINDS[part as keyof typeof ACTIVITY_KINDS];
        if (!kind) {
          ctx.addIssue({
            code: "custom",
            message: `Unknown activity type "${part}"; use ${Object.keys(ACTIVITY_KINDS).join(", ")}`,
          });
          return z.NEVER;
        }
        kinds.add(kind);
      }
      return kinds;
    }),
  created_at__gt: timestampParam,
});

type ActivityRow = typeof issueActivities.$inferSelect;

/** What every row of one item's history shares: the reference's workspace/project/issue details. */
function rowContext(access: IssueAccess) {
  const { workspace, project, issue } = access;
  return {
    workspace_detail: { id: workspace.id, name: workspace.name, slug: workspace.slug, logo_url: workspace.logoUrl },
    project_detail: {
      id: project.id,
      identifier: project.identifier,
      name: project.name,
      cover_image: project.coverImage,
      cover_image_url: project.coverImage,
      logo_props: project.logoProps,
      description: project.description,
    },
    issue_detail: {
      id: issue.id,
      name: issue.name,
      priority: issue.priority,
      start_date: issue.startDate,
      target_date: issue.targetDate,
      sequence_id: issue.sequenceId,
      sort_order: issue.sortOrder,
      is_draft: issue.isDraft,
    },
  };
}

/**
 * One history row in the reference's shape (its IssueActivitySerializer): `comment` is the
 * row's sentence, `issue_comment` the comment a comment row is about, `epoch` its time in
 * seconds; the details let its web client build links (a profile, a cycle) from the row.
 */
function presentActivity(row: ActivityRow, actor: ActorDetail | undefined, context: ReturnType<typeof rowContext>) {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    updated_at: row.createdAt.toISOString(),
    deleted_at: null,
    verb: row.verb,
    field: row.field,
    old_value: row.oldValue,
    new_value: row.newValue,
    comment: row.comment,
    attachments: [],
    old_identifier: row.oldIdentifier,
    new_identifier: row.newIdentifier,
    epoch: Math.floor(row.createdAt.getTime() / 1000),
    created_by: null,
    updated_by: null,
    issue_comment: row.commentId,
    actor: row.actorId,
    actor_detail: actor ?? null,
    workspace: row.workspaceId,
    project: row.projectId,
    issue: row.issueId,
    ...context,
    source_data: null,
  };
}
type PresentedActivity = ReturnType<typeof presentActivity>;

export async function registerHistoryRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  for (const type of ITEM_TYPES) {
    for (const segment of ["history", "activities"]) {
      const t: ItemType = type;
      app.get<{ Params: ItemParams }>(`${PROJECT_PATH}/${type}/:issueId/${segment}/`, async (request) => {
        const access = await itemAccess(db, request, t, request.params);
        const query = parse(historyQuery, request.query);
        const since = query.created_at__gt;

        let activities: PresentedActivity[] = [];
        if (query.activity_type.has("property")) {
          const rows = await db
            .select()
            .from(issueActivities)
            .where(
              and(
                eq(issueActivities.issueId, access.issue.id),
                or(isNull(issueActivities.field), notInArray(issueActivities.field, UNLISTED_FIELDS)),
                since ? laterThan(issueActivities.createdAt, since) : undefined,
              ),
            )
            .orderBy(asc(issueActivities.createdAt), asc(issueActivities.id));
          const actors = await loadActors(
            db,
            rows.map((r) => r.actorId),
          );
          const context = rowContext(access);
          activities = rows.map((r) => presentActivity(r, r.actorId ? actors.get(r.actorId) : undefined, context));
        }

        let comments: PresentedComment[] = [];
        if (query.activity_type.has("comment")) {
          const rows = await db
            .select()
            .from(issueComments)
            .where(
              and(
                eq(issueComments.issueId, access.issue.id),
                since ? laterThan(issueComments.createdAt, since) : undefined,
              ),
            )
            .orderBy(asc(issueComments.createdAt), asc(issueComments.id));
          comments = await presentComments(db, rows);
        }

        // Both lists are sorted; a stable sort of the two keeps ties in activity-then-comment order.
        return [...activities, ...comments].sort((a, b) => a.created_at.localeCompare(b.created_at));
      });
    }
  }
}
