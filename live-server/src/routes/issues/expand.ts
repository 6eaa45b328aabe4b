/**
 * The detail view of one work item: the presented item with its description and whether the
 * caller follows it, plus what `?expand=` asks for among assignees, labels, state, parent,
 * issue_relation (with issue_related), reactions, links and attachments. Unknown expansions
 * (cycle, module, type …: not built yet) are ignored.
 */
import { and, asc, eq, inArray, isNull, or } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import {
  fileAssets,
  issueLinks,
  issueReactions,
  issueRelations,
  issueSubscribers,
  labels,
  states,
  users,
} from "../../db/schema.ts";
import { presentUserLite } from "../../presenters/workspace.ts";
import { presentAttachment } from "../assets/presenter.ts";
import { presentLabel } from "../labels/presenter.ts";
import { presentState } from "../states/presenter.ts";
import { ISSUE_ATTACHMENT, loadIssue, loadIssues, type PresentedIssue } from "./query.ts";

export const EXPANSIONS = [
  "assignees",
  "labels",
  "state",
  "parent",
  "issue_relation",
  "reactions",
  "links",
  "attachments",
] as const;
type Expansion = (typeof EXPANSIONS)[number];

export function readExpand(value: unknown): Set<Expansion> {
  const raw = Array.isArray(value) ? value.join(",") : typeof value === "string" ? value : "";
  const wanted = raw.split(",").map((v) => v.trim());
  return new Set(EXPANSIONS.filter((e) => wanted.includes(e)));
}

const iso = (d: Date) => d.toISOString();

export async function issueDetail(
  db: DbOrTx,
  issueId: string,
  viewer: { userId: string; workspaceSlug: string },
  expand: Set<Expansion>,
): Promise<Record<string, unknown> | null> {
  const issue = await loadIssue(db, issueId, { includeDescription: true });
  if (!issue) return null;
  const [subscribed] = await db
    .select({ id: issueSubscribers.issueId })
    .from(issueSubscribers)
    .where(and(eq(issueSubscribers.issueId, issueId), eq(issueSubscribers.subscriberId, viewer.userId)))
    .limit(1);
  const out: Record<string, unknown> = { ...issue, is_subscribed: Boolean(subscribed) };

  if (expand.has("assignees")) {
    const rows = issue.assignee_ids.length
      ? await db.select().from(users).where(inArray(users.id, issue.assignee_ids))
      : [];
    const byId = new Map(rows.map((u) => [u.id, presentUserLite(u)]));
    out.assignees = issue.assignee_ids.map((id) => byId.get(id)).filter(Boolean);
  }
  if (expand.has("labels")) {
    const rows = issue.label_ids.length
      ? await db.select().from(labels).where(inArray(labels.id, issue.label_ids))
      : [];
    const byId = new Map(rows.map((l) => [l.id, presentLabel(l)]));
    out.labels = issue.label_ids.map((id) => byId.get(id)).filter(Boolean);
  }
  if (expand.has("state")) {
    const [row] = issue.state_id ? await db.select().from(states).where(eq(states.id, issue.state_id)) : [];
    out.state = row ? presentState(row) : null;
  }
  if (expand.has("parent")) {
    out.parent = issue.parent_id ? await loadIssue(db, issue.parent_id) : null;
  }
  if (expand.has("issue_relation")) {
    const rows = await db
      .select()
      .from(issueRelations)
      .where(or(eq(issueRelations.issueId, issueId), eq(issueRelations.relatedIssueId, issueId)));
    const otherIds = rows.map((r) => (r.issueId === issueId ? r.relatedIssueId : r.issueId));
    const others = new Map<string, PresentedIssue>(
      (await loadIssues(db, { ids: [...new Set(otherIds)] })).map((p) => [p.id, p]),
    );
    const present = (r: (typeof rows)[number], otherId: string) => ({
      id: r.id,
      relation_type: r.relationType,
      issue_id: r.issueId,
      related_issue: r.relatedIssueId,
      issue_detail: others.get(otherId) ?? null,
      created_at: iso(r.createdAt),
      created_by: r.createdById,
    });
    // issue_relation: rows this item owns; issue_related: rows that point at it.
    out.issue_relation = rows
      .filter((r) => r.issueId === issueId && others.has(r.relatedIssueId))
      .map((r) => present(r, r.relatedIssueId));
    out.issue_related = rows
      .filter((r) => r.relatedIssueId === issueId && others.has(r.issueId))
      .map((r) => present(r, r.issueId));
  }
  if (expand.has("reactions")) {
    const rows = await db
      .select()
      .from(issueReactions)
      .where(eq(issueReactions.issueId, issueId))
      .orderBy(asc(issueReactions.createdAt));
    out.reactions = rows.map((r) => ({
      id: r.id,
      actor: r.actorId,
      reaction: r.reaction,
      issue_id: r.issueId,
      created_at: iso(r.createdAt),
    }));
  }
  if (expand.has("links")) {
    const rows = await db
      .select()
      .from(issueLinks)
      .where(eq(issueLinks.issueId, issueId))
      .orderBy(asc(issueLinks.createdAt));
    out.links = rows.map((l) => ({
      id: l.id,
      url: l.url,
      title: l.title,
      metadata: l.metadata,
      issue_id: l.issueId,
      created_at: iso(l.createdAt),
      created_by: l.createdById,
    }));
  }
  if (expand.has("attachments")) {
    const rows = await db
      .select()
      .from(fileAssets)
      .where(
        and(
          eq(fileAssets.entityType, ISSUE_ATTACHMENT),
          eq(fileAssets.entityIdentifier, issueId),
          eq(fileAssets.isUploaded, true),
          isNull(fileAssets.deletedAt),
        ),
      )
      .orderBy(asc(fileAssets.createdAt));
    out.attachments = rows.map((a) => presentAttachment(a, viewer.workspaceSlug));
  }
  return out;
}
