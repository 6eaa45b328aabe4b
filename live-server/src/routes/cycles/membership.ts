/**
 * Which cycle a work item is in (cycle_issues: at most one row per item). Used by the cycle
 * routes (add many, remove one, transfer) and by the work-item writes that accept cycle_id
 * (create, patch, bulk, quick add, drafts). Every real move records a history row on the item
 * (field "cycles" as in the reference, old/new cycle name and id — "added to cycle X", "removed from cycle X") that
 * the burndown reads back, touches the item's updated_at, and schedules one cycle.updated with
 * fresh counters per cycle touched (progress.ts). Callers emit the item's issue.updated.
 */
import { cycleStatus } from "@tideline/shared";
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { cycleIssues, cycles, issues } from "../../db/schema.ts";
import type { EmitFn } from "../../events/bus.ts";
import { badRequest } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import type { IssueRow, ProjectRow } from "../../policies/access.ts";
import { type ActivityInput, recordActivity } from "../../services/issue-activity.ts";
import type { CycleRow } from "./presenter.ts";
import { projectToday, scheduleCycleRefresh } from "./progress.ts";

/**
 * The cycle a work item may be put in: a cycle of this project, not archived, not completed.
 * Anything else is a 400 on `field` (a cycle of another project or workspace included).
 */
export async function assignableCycle(db: DbOrTx, project: ProjectRow, cycleId: string, field = "cycle_id") {
  const [row] = isUuid(cycleId)
    ? await db
        .select()
        .from(cycles)
        .where(and(eq(cycles.id, cycleId), eq(cycles.projectId, project.id)))
        .limit(1)
    : [];
  const fail = (message: string, code: string) => badRequest(`${field}: ${message}`, { [field]: [message] }, code);
  if (!row) throw fail("This is not a cycle of the work item's project.", "CYCLE_NOT_IN_PROJECT");
  if (row.archivedAt) throw fail("This cycle is archived.", "CYCLE_ARCHIVED");
  if (cycleStatus({ start_date: row.startDate, end_date: row.endDate }, projectToday(project)) === "completed") {
    throw fail("This cycle is completed: no work item can be added to it.", "CYCLE_COMPLETED");
  }
  return row;
}

/** The current cycle id of each item (items without one are absent). */
export async function cyclesOfItems(db: DbOrTx, issueIds: readonly string[]): Promise<Map<string, string>> {
  if (!issueIds.length) return new Map();
  const rows = await db
    .select({ issueId: cycleIssues.issueId, cycleId: cycleIssues.cycleId })
    .from(cycleIssues)
    .where(inArray(cycleIssues.issueId, [...issueIds]));
  return new Map(rows.map((r) => [r.issueId, r.cycleId]));
}

export type MoveOptions = {
  /** Drafts: no history, no event (they are announced when published). */
  quiet?: boolean;
  /** The target cycle, already checked with assignableCycle. */
  target?: CycleRow | null;
};

/**
 * Put `items` into `cycleId` (null: out of any cycle). Returns the ids that really moved.
 * Items must be the caller's locked rows of `project`.
 */
export async function moveItemsToCycle(
  tx: Tx,
  emit: EmitFn,
  actor: { project: ProjectRow; actorId: string },
  items: readonly IssueRow[],
  cycleId: string | null,
  options: MoveOptions = {},
): Promise<string[]> {
  const { project, actorId } = actor;
  const target = cycleId ? (options.target ?? (await assignableCycle(tx, project, cycleId))) : null;
  const current = await cyclesOfItems(
    tx,
    items.map((i) => i.id),
  );
  const moving = items.filter((i) => (current.get(i.id) ?? null) !== (target?.id ?? null));
  if (!moving.length) return [];
  const ids = moving.map((i) => i.id);
  const oldIds = [...new Set(ids.map((id) => current.get(id)).filter((v): v is string => Boolean(v)))];
  const names = new Map<string, string>();
  if (oldIds.length) {
    for (const r of await tx
      .select({ id: cycles.id, name: cycles.name })
      .from(cycles)
      .where(inArray(cycles.id, oldIds)))
      names.set(r.id, r.name);
  }
  await tx.delete(cycleIssues).where(inArray(cycleIssues.issueId, ids));
  if (target) {
    await tx.insert(cycleIssues).values(
      ids.map((issueId) => ({
        workspaceId: project.workspaceId,
        projectId: project.id,
        cycleId: target.id,
        issueId,
        createdById: actorId,
      })),
    );
  }
  if (!options.quiet) {
    await tx.update(issues).set({ updatedAt: new Date(), updatedById: actorId }).where(inArray(issues.id, ids));
    const rows: ActivityInput[] = moving.map((item) => {
      const old = current.get(item.id) ?? null;
      return {
        workspaceId: item.workspaceId,
        projectId: item.projectId,
        issueId: item.id,
        actorId,
        verb: "updated",
        field: "cycles",
        oldValue: old ? (names.get(old) ?? null) : null,
        newValue: target?.name ?? null,
        oldIdentifier: old,
        newIdentifier: target?.id ?? null,
      };
    });
    await recordActivity(tx, rows);
    for (const id of oldIds) scheduleCycleRefresh(emit, id);
    scheduleCycleRefresh(emit, target?.id ?? null);
  }
  return ids;
}

/**
 * A draft published with a cycle: its membership becomes history now ("added to cycle X" on
 * the day it becomes a real work item).
 */
export async function announceDraftCycle(tx: Tx, emit: EmitFn, row: IssueRow, actorId: string) {
  const [link] = await tx
    .select({ cycleId: cycleIssues.cycleId, name: cycles.name })
    .from(cycleIssues)
    .innerJoin(cycles, eq(cycles.id, cycleIssues.cycleId))
    .where(eq(cycleIssues.issueId, row.id));
  if (!link) return;
  await recordActivity(tx, {
    workspaceId: row.workspaceId,
    projectId: row.projectId,
    issueId: row.id,
    actorId,
    verb: "updated",
    field: "cycles",
    newValue: link.name,
    newIdentifier: link.cycleId,
  });
  scheduleCycleRefresh(emit, link.cycleId);
}
