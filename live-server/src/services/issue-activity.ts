/**
 * Work-item history: one row per field change (field, verb, old and new value, actor), plus
 * rows for comments, links, relations, attachments and reactions. Written in the same
 * transaction as the change it records, so history never disagrees with the data.
 */
import { sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { issueActivities } from "../db/schema.ts";

export type ActivityInput = {
  workspaceId: string;
  projectId: string;
  issueId: string;
  actorId: string | null;
  verb: "created" | "updated" | "deleted" | "archived" | "restored";
  field?: string | null;
  oldValue?: string | null;
  newValue?: string | null;
  /** Ids behind old/new values (a state, a label, an assignee…), so the client can render names. */
  oldIdentifier?: string | null;
  newIdentifier?: string | null;
  commentId?: string | null;
};

export async function recordActivity(tx: Tx, entries: ActivityInput | ActivityInput[]): Promise<void> {
  const rows = Array.isArray(entries) ? entries : [entries];
  if (rows.length === 0) return;
  await tx.insert(issueActivities).values(
    rows.map((e) => ({
      workspaceId: e.workspaceId,
      projectId: e.projectId,
      issueId: e.issueId,
      actorId: e.actorId,
      verb: e.verb,
      field: e.field ?? null,
      oldValue: e.oldValue ?? null,
      newValue: e.newValue ?? null,
      oldIdentifier: e.oldIdentifier ?? null,
      newIdentifier: e.newIdentifier ?? null,
      commentId: e.commentId ?? null,
      // now() is fixed for the whole transaction; clock_timestamp() keeps rows of one change in order.
      createdAt: sql`clock_timestamp()`,
    })),
  );
}
