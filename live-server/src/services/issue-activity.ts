/**
 * Work-item history: one row per field change (field, verb, old and new value, actor), plus
 * rows for comments, links, relations, attachments and reactions. Written in the same
 * transaction as the change it records, so history never disagrees with the data.
 *
 * Rows are written the way the reference product writes them
 * (apps/api/plane/bgtasks/issue_activities_task.py), because its web client reads them: it
 * tells an addition from a removal by `old_value === ""`. Per field (verb; old → new values;
 * identifiers): name, priority, state (updated; old → new; state ids), description (updated;
 * old → new HTML), parent, start/target date (updated; "" on the empty side; parent ids),
 * assignees, labels (updated; "" → name or name → ""; the added or removed id), estimate
 * (estimate_<type>; updated, or removed when cleared; point values; point ids), archived_at
 * (updated; null → "manual_archive", "archive" → "restore"), a new item (created, no field;
 * then an added-assignee row each), a deleted one (deleted, field "issue"), cycles and modules
 * (created / deleted / updated; "" on the empty side; cycle or module ids), relations (the type
 * as field; updated "" → key when added, deleted key → "" when removed; the other item in
 * old_identifier), link (created → url, updated url → url, deleted url → "" without ids),
 * attachment (created → the asset's address; deleted without values), comment (created /
 * updated with the HTML; deleted with only the comment's id), reaction (field "reaction" for
 * items and comments alike). Callers say what changed; this module applies the conventions they
 * share:
 * - the empty side of a list, date, parent or relation change is "" (not null): assignees,
 *   labels, modules, cycles, parent, start_date, target_date, sub_issue and the relation types;
 * - joining a cycle or module is verb "created", leaving it "deleted", moving between cycles
 *   "updated" (whatever verb the caller passed);
 * - `comment` is the reference's sentence for the row ("added label ", "updated the state to"…)
 *   unless the caller gives one.
 */
import { sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { issueActivities } from "../db/schema.ts";

export type ActivityVerb = "created" | "updated" | "deleted" | "removed";

export type ActivityInput = {
  workspaceId: string;
  projectId: string;
  issueId: string;
  actorId: string | null;
  verb: ActivityVerb;
  field?: string | null;
  oldValue?: string | null;
  newValue?: string | null;
  /** Ids behind old/new values (a state, a label, an assignee…), so the client can render names. */
  oldIdentifier?: string | null;
  newIdentifier?: string | null;
  commentId?: string | null;
  /** The row's sentence; the reference's one for the field and verb when absent. */
  comment?: string;
};

/** The relation types, as activity fields (the reference names a relation row by its type). */
export const RELATION_ACTIVITY_FIELDS: ReadonlySet<string> = new Set([
  "blocked_by",
  "blocking",
  "relates_to",
  "duplicate",
  "start_before",
  "start_after",
  "finish_before",
  "finish_after",
]);

/** Fields whose empty side the reference writes as "" rather than null. */
const BLANK_WHEN_EMPTY: ReadonlySet<string> = new Set([
  "assignees",
  "labels",
  "modules",
  "cycles",
  "parent",
  "start_date",
  "target_date",
  "sub_issue",
  ...RELATION_ACTIVITY_FIELDS,
]);

/** Whether a row's field is an estimate (the reference names it estimate_<estimate type>). */
export const isEstimateField = (field: string | null | undefined): boolean =>
  Boolean(field && (field === "estimate_point" || field.startsWith("estimate_")));

type Row = {
  verb: ActivityVerb;
  field: string | null;
  oldValue: string | null;
  newValue: string | null;
  oldIdentifier: string | null;
  newIdentifier: string | null;
};

/** The reference's `comment` for a row (issue_activities_task.py), word for word. */
export function referenceComment(row: Row): string {
  const { field, verb } = row;
  const added = row.oldValue === "" || (row.oldValue === null && row.newValue !== null && row.newValue !== "");
  if (field === null) return verb === "deleted" ? "deleted the issue" : "created the issue";
  if (RELATION_ACTIVITY_FIELDS.has(field)) {
    return verb === "deleted" ? `deleted ${field} relation` : `added ${field} relation`;
  }
  if (isEstimateField(field)) return "updated the estimate point to ";
  switch (field) {
    case "issue":
      return "deleted the issue";
    case "name":
      return "updated the name to";
    case "description":
      return "updated the description to";
    case "parent":
      return "updated the parent issue to";
    case "priority":
      return "updated the priority to";
    case "state":
      return "updated the state to";
    case "target_date":
      return "updated the target date to";
    case "start_date":
      return "updated the start date to ";
    case "labels":
      return added ? "added label " : "removed label ";
    case "assignees":
      return added ? "added assignee " : "removed assignee ";
    case "archived_at":
      if (row.newValue === "restore") return "has restored the issue";
      return row.newValue === "archive" ? "Plane has archived the issue" : "Actor has archived the issue";
    case "comment":
      return verb === "created"
        ? "created a comment"
        : verb === "updated"
          ? "updated a comment"
          : "deleted the comment";
    case "cycles":
      if (verb === "created") return `added cycle ${row.newValue ?? ""}`;
      // The reference's f-string spans two lines; its sentence keeps the line break and indent.
      if (verb === "updated")
        return `updated cycle from ${row.oldValue ?? ""}\n                to ${row.newValue ?? ""}`;
      return `removed this issue from ${row.oldValue ?? ""}`;
    case "modules":
      return verb === "created"
        ? `added module ${row.newValue ?? ""}`
        : `removed this issue from ${row.oldValue ?? ""}`;
    case "link":
      return verb === "created" ? "created a link" : verb === "updated" ? "updated a link" : "deleted the link";
    case "attachment":
      return verb === "created" ? "created an attachment" : "deleted the attachment";
    case "reaction":
      return verb === "created" ? "added the reaction" : "removed the reaction";
    case "sub_issue":
      // Ours (the reference records only the child's parent change): the parent's side of it.
      return verb === "deleted" ? "removed the sub-issue " : "added the sub-issue ";
    default:
      return `updated the ${field.replaceAll("_", " ")} to`;
  }
}

/** One entry as the row the reference would write for it (see the module comment). */
export function referenceRow(e: ActivityInput): Row & { comment: string } {
  const field = e.field ?? null;
  let oldValue = e.oldValue ?? null;
  let newValue = e.newValue ?? null;
  const oldIdentifier = e.oldIdentifier ?? null;
  const newIdentifier = e.newIdentifier ?? null;
  let verb = e.verb;
  if (field && BLANK_WHEN_EMPTY.has(field)) {
    oldValue ??= "";
    newValue ??= "";
  }
  if (field === "cycles" || field === "modules") {
    verb = oldIdentifier && newIdentifier ? "updated" : newIdentifier ? "created" : "deleted";
  }
  const row = { verb, field, oldValue, newValue, oldIdentifier, newIdentifier };
  return { ...row, comment: e.comment ?? referenceComment(row) };
}

export async function recordActivity(tx: Tx, entries: ActivityInput | ActivityInput[]): Promise<void> {
  const rows = Array.isArray(entries) ? entries : [entries];
  if (rows.length === 0) return;
  await tx.insert(issueActivities).values(
    rows.map((e) => ({
      workspaceId: e.workspaceId,
      projectId: e.projectId,
      issueId: e.issueId,
      actorId: e.actorId,
      ...referenceRow(e),
      commentId: e.commentId ?? null,
      // now() is fixed for the whole transaction; clock_timestamp() keeps rows of one change in order.
      createdAt: sql`clock_timestamp()`,
    })),
  );
}
