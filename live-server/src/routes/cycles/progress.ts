/**
 * Cycle progress: counters per state group (work items and estimate points), the assignee and
 * label distribution, and the burndown computed from work-item history (issue_activities rows
 * of field "state" and "cycles"), never from a stored series. Work items counted: in the cycle,
 * not deleted, not archived, not drafts. Estimate points: the numeric value of the item's
 * current estimate point (non-numeric values such as categories count 0).
 *
 * Completed cycles: the first read after the end date freezes the progress at the end of the
 * end date into progress_snapshot (counters, distributions, chart); from then on the counters
 * and charts come from the snapshot.
 *
 * A restricted guest (guest-scope.ts) reads every number over the work items they created only:
 * counters, assignee ids, distributions and charts are computed for them (a completed cycle's
 * from history at its end date, never from the shared snapshot, which counts everyone's items).
 */
import {
  type BurndownItem,
  type BurndownPoint,
  type CycleHistoryEvent,
  calendarDate,
  completionChart,
  computeBurndown,
  countsAt,
  cycleStatus,
  STATE_GROUPS,
  type StateGroup,
} from "@tideline/shared";
import { eq, type SQL, sql } from "drizzle-orm";
import { type DbOrTx, queryRows } from "../../db/client.ts";
import { cycles, projects } from "../../db/schema.ts";
import { beforeCommit, type EmitFn } from "../../events/bus.ts";
import type { ProjectRow } from "../../policies/access.ts";
import { type OwnItemsOf, restrictedProjects } from "./guest-scope.ts";
import { type CycleCounters, type CycleRow, EMPTY_COUNTERS, hasSnapshot, presentCycle } from "./presenter.ts";

const uuidList = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/** The numeric value of an estimate point (alias ep), else 0. */
const POINT_VALUE = sql`(case when ep.value ~ '^\\s*-?[0-9]+(\\.[0-9]+)?\\s*$' then ep.value::float8 else 0 end)`;

/** Visible work items (alias i). */
const LIVE_ITEM = sql`i.deleted_at is null and i.archived_at is null and i.is_draft = false and i.in_intake = false`;

/** Only the reader's own items (alias i) when they are a restricted guest. */
const ownOnly = (owner: OwnItemsOf) => (owner ? sql`and i.created_by = ${owner}::uuid` : sql``);

/** Project's today (yyyy-MM-dd) in its timezone. */
export const projectToday = (project: Pick<ProjectRow, "timezone">) => calendarDate(new Date(), project.timezone);

/**
 * Live counters and assignee ids of several cycles in two queries. `restricted`: cycles whose
 * numbers count only the items that user created (a restricted guest's projects).
 */
export async function loadCounters(
  db: DbOrTx,
  cycleIds: readonly string[],
  restricted?: { userId: string; cycleIds: readonly string[] },
): Promise<Map<string, { counters: CycleCounters; assigneeIds: string[] }>> {
  const out = new Map<string, { counters: CycleCounters; assigneeIds: string[] }>();
  for (const id of cycleIds) out.set(id, { counters: { ...EMPTY_COUNTERS }, assigneeIds: [] });
  if (!cycleIds.length) return out;
  const own = restricted?.cycleIds.length
    ? sql`and (ci.cycle_id not in (${uuidList(restricted.cycleIds)}) or i.created_by = ${restricted.userId}::uuid)`
    : sql``;
  const rows = await queryRows<{ cycle_id: string; grp: string | null; n: number; pts: number | null }>(
    db,
    sql`select ci.cycle_id::text as cycle_id, s."group" as grp, count(*)::int as n, sum(${POINT_VALUE})::float8 as pts
        from cycle_issues ci join issues i on i.id = ci.issue_id
        left join states s on s.id = i.state_id left join estimate_points ep on ep.id = i.estimate_point_id
        where ci.cycle_id in (${uuidList(cycleIds)}) and ${LIVE_ITEM} ${own}
        group by ci.cycle_id, s."group"`,
  );
  for (const r of rows) {
    const entry = out.get(r.cycle_id);
    if (!entry) continue;
    const c = entry.counters;
    const group = (STATE_GROUPS as readonly string[]).includes(r.grp ?? "") ? (r.grp as StateGroup) : "backlog";
    const pts = round2(Number(r.pts ?? 0));
    c.total_issues += Number(r.n);
    c.total_estimate_points = round2(c.total_estimate_points + pts);
    c[`${group}_issues`] += Number(r.n);
    c[`${group}_estimate_points`] = round2(c[`${group}_estimate_points`] + pts);
  }
  const assignees = await queryRows<{ cycle_id: string; ids: string[] }>(
    db,
    sql`select ci.cycle_id::text as cycle_id, array_agg(distinct a.assignee_id)::text[] as ids
        from cycle_issues ci join issues i on i.id = ci.issue_id join issue_assignees a on a.issue_id = i.id
        where ci.cycle_id in (${uuidList(cycleIds)}) and ${LIVE_ITEM} ${own}
        group by ci.cycle_id`,
  );
  for (const r of assignees) {
    const entry = out.get(r.cycle_id);
    if (entry) entry.assigneeIds = r.ids ?? [];
  }
  return out;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Every work item that is or was in the cycle (the reader may count), with its current state
 * group, membership, points and its state and cycle history on the project's calendar days.
 */
export async function loadBurndownItems(
  db: DbOrTx,
  project: Pick<ProjectRow, "id" | "timezone">,
  cycleId: string,
  owner: OwnItemsOf = null,
): Promise<BurndownItem[]> {
  const tz = project.timezone || "UTC";
  const items = await queryRows<{ id: string; grp: string | null; in_cycle: boolean; pts: number | null }>(
    db,
    sql`select i.id::text as id, s."group" as grp, coalesce(ci.cycle_id = ${cycleId}::uuid, false) as in_cycle,
               ${POINT_VALUE} as pts
        from issues i
        left join cycle_issues ci on ci.issue_id = i.id
        left join states s on s.id = i.state_id left join estimate_points ep on ep.id = i.estimate_point_id
        where i.project_id = ${project.id}::uuid and ${LIVE_ITEM} ${ownOnly(owner)}
          and (ci.cycle_id = ${cycleId}::uuid or i.id in (
            select a.issue_id from issue_activities a
            where a.project_id = ${project.id}::uuid and a.field = 'cycles'
              and (a.old_identifier = ${cycleId}::uuid or a.new_identifier = ${cycleId}::uuid)))`,
  );
  if (!items.length) return [];
  // The items' ids as one array parameter (not thousands of bound values).
  const idArray = sql`${`{${items.map((i) => i.id).join(",")}}`}::uuid[]`;
  const history = await queryRows<{
    issue_id: string;
    field: string;
    old_id: string | null;
    new_id: string | null;
    old_group: string | null;
    new_group: string | null;
    day: string;
  }>(
    db,
    sql`select a.issue_id::text as issue_id, a.field, a.old_identifier::text as old_id, a.new_identifier::text as new_id,
               so."group" as old_group, sn."group" as new_group,
               to_char((a.created_at at time zone ${tz})::date, 'YYYY-MM-DD') as day
        from issue_activities a
        left join states so on a.field = 'state' and so.id = a.old_identifier
        left join states sn on a.field = 'state' and sn.id = a.new_identifier
        where a.issue_id = any(${idArray}) and a.field in ('state', 'cycles')
        order by a.issue_id, a.created_at, a.id`,
  );
  const byItem = new Map<string, CycleHistoryEvent[]>();
  const asGroup = (g: string | null) =>
    (STATE_GROUPS as readonly string[]).includes(g ?? "") ? (g as StateGroup) : null;
  for (const h of history) {
    const list = byItem.get(h.issue_id) ?? [];
    if (h.field === "state")
      list.push({ day: h.day, kind: "state", from: asGroup(h.old_group), to: asGroup(h.new_group) });
    else list.push({ day: h.day, kind: "cycle", from: h.old_id === cycleId, to: h.new_id === cycleId });
    byItem.set(h.issue_id, list);
  }
  return items.map((i) => ({
    id: i.id,
    group: asGroup(i.grp),
    inCycle: Boolean(i.in_cycle),
    points: round2(Number(i.pts ?? 0)),
    history: byItem.get(i.id) ?? [],
  }));
}

type DistributionRow = { key: string | null; a: string | null; b: string | null; c: string | null; d: string | null };

/** Assignee and label distribution of these items: total, completed and pending, in work items or points. */
async function distribution(db: DbOrTx, items: SQL | readonly string[], unit: "issues" | "points") {
  if (Array.isArray(items) && !items.length) return { assignees: [], labels: [] };
  const which = Array.isArray(items) ? sql`i.id = any(${`{${items.join(",")}}`}::uuid[])` : (items as SQL);
  const weight = unit === "points" ? POINT_VALUE : sql`1`;
  const sums = sql`sum(${weight})::float8 as total,
        sum(case when s."group" = 'completed' then ${weight} else 0 end)::float8 as done,
        sum(case when s."group" not in ('completed', 'cancelled') or s."group" is null then ${weight} else 0 end)::float8 as pending`;
  const from = (join: SQL) =>
    sql`from issues i left join states s on s.id = i.state_id left join estimate_points ep on ep.id = i.estimate_point_id
        ${join} where ${which}`;
  const assigneeRows = await queryRows<DistributionRow & { total: number; done: number; pending: number }>(
    db,
    sql`select a.assignee_id::text as key, u.display_name as a, u.first_name as b, u.last_name as c, u.avatar_url as d, ${sums}
        ${from(sql`left join issue_assignees a on a.issue_id = i.id left join users u on u.id = a.assignee_id`)}
        group by a.assignee_id, u.display_name, u.first_name, u.last_name, u.avatar_url
        order by lower(u.display_name) nulls last`,
  );
  const labelRows = await queryRows<DistributionRow & { total: number; done: number; pending: number }>(
    db,
    sql`select l.id::text as key, l.name as a, l.color as b, null as c, null as d, ${sums}
        ${from(sql`left join issue_labels il on il.issue_id = i.id left join labels l on l.id = il.label_id`)}
        group by l.id, l.name, l.color order by lower(l.name) nulls last`,
  );
  const counts = (r: { total: number; done: number; pending: number }) =>
    unit === "points"
      ? {
          total_estimates: round2(Number(r.total)),
          completed_estimates: round2(Number(r.done)),
          pending_estimates: round2(Number(r.pending)),
        }
      : { total_issues: Number(r.total), completed_issues: Number(r.done), pending_issues: Number(r.pending) };
  return {
    assignees: assigneeRows.map((r) => ({
      assignee_id: r.key,
      display_name: r.a,
      first_name: r.b,
      last_name: r.c,
      avatar_url: r.d,
      ...counts(r),
    })),
    labels: labelRows.map((r) => ({ label_id: r.key, label_name: r.a, color: r.b, ...counts(r) })),
  };
}

export type CycleAnalytics = {
  assignees: Record<string, unknown>[];
  labels: Record<string, unknown>[];
  completion_chart: Record<string, number | null>;
  /** One point per day (the reference's TCycleProgress): scope, completed, pending, ideal … */
  progress: BurndownPoint[];
};

/**
 * The live progress of a cycle: counters, distribution (work items) and estimate_distribution
 * (points), each with its completion chart and per-day points. Drafts have no chart. `owner`:
 * over that restricted guest's own items only.
 */
export async function liveProgress(
  db: DbOrTx,
  project: Pick<ProjectRow, "id" | "timezone">,
  cycle: CycleRow,
  today: string,
  owner: OwnItemsOf = null,
) {
  const items = await loadBurndownItems(db, project, cycle.id, owner);
  const chart = (unit: "issues" | "points") =>
    cycle.startDate && cycle.endDate
      ? computeBurndown({ start_date: cycle.startDate, end_date: cycle.endDate, today, items, unit })
      : [];
  // Completed cycles: what was in the cycle at the end of its end date; else what is in it now.
  const completed = cycleStatus({ start_date: cycle.startDate, end_date: cycle.endDate }, today) === "completed";
  const day = completed && cycle.endDate ? cycle.endDate : null;
  // Live: the items in the cycle now (one subquery); completed: those in it at the end date.
  const ids: SQL | string[] = day
    ? items.filter((i) => countsAt([i], day, "issues").scope > 0).map((i) => i.id)
    : sql`i.id in (select ci.issue_id from cycle_issues ci where ci.cycle_id = ${cycle.id}::uuid) and ${LIVE_ITEM} ${ownOnly(owner)}`;
  const issuesChart = chart("issues");
  const pointsChart = chart("points");
  const counters = countersOf(items, day);
  return {
    ...counters,
    distribution: {
      ...(await distribution(db, ids, "issues")),
      completion_chart: completionChart(issuesChart),
      progress: issuesChart,
    } satisfies CycleAnalytics,
    estimate_distribution: {
      ...(await distribution(db, ids, "points")),
      completion_chart: completionChart(pointsChart),
      progress: pointsChart,
    } satisfies CycleAnalytics,
  };
}

/** Counters now (day null) or at the end of `day` from history. */
function countersOf(items: readonly BurndownItem[], day: string | null): CycleCounters {
  const at = day ?? "9999-12-31";
  const n = countsAt(items, at, "issues");
  const p = countsAt(items, at, "points");
  return {
    total_issues: n.scope,
    backlog_issues: n.backlog,
    unstarted_issues: n.unstarted,
    started_issues: n.started,
    completed_issues: n.completed,
    cancelled_issues: n.cancelled,
    total_estimate_points: p.scope,
    backlog_estimate_points: p.backlog,
    unstarted_estimate_points: p.unstarted,
    started_estimate_points: p.started,
    completed_estimate_points: p.completed,
    cancelled_estimate_points: p.cancelled,
  };
}

export type CycleProgress = Awaited<ReturnType<typeof liveProgress>>;

/**
 * Only the counters (progress/): the snapshot's, else two grouped queries. A restricted guest's
 * (`owner`): over their own items, a completed cycle's at the end of its end date.
 */
export async function cycleCounters(
  db: DbOrTx,
  project: Pick<ProjectRow, "id" | "timezone">,
  cycle: CycleRow,
  today: string,
  owner: OwnItemsOf = null,
): Promise<CycleCounters> {
  if (owner) {
    const completed = cycleStatus({ start_date: cycle.startDate, end_date: cycle.endDate }, today) === "completed";
    if (completed || hasSnapshot(cycle))
      return countersOf(await loadBurndownItems(db, project, cycle.id, owner), cycle.endDate);
    const restricted = { userId: owner, cycleIds: [cycle.id] };
    return (await loadCounters(db, [cycle.id], restricted)).get(cycle.id)?.counters ?? { ...EMPTY_COUNTERS };
  }
  if (hasSnapshot(cycle))
    return { ...EMPTY_COUNTERS, ...(pickSnapshotCounters(cycle.progressSnapshot) as CycleCounters) };
  return (await loadCounters(db, [cycle.id])).get(cycle.id)?.counters ?? { ...EMPTY_COUNTERS };
}

function pickSnapshotCounters(snapshot: Record<string, unknown>): Partial<CycleCounters> {
  return Object.fromEntries(Object.keys(EMPTY_COUNTERS).map((k) => [k, Number(snapshot[k] ?? 0)]));
}

/**
 * The frozen progress when there is one, else the live one. A restricted guest's (`owner`) is
 * always computed over their own items (at the end date once the cycle is completed).
 */
export async function cycleProgress(
  db: DbOrTx,
  project: Pick<ProjectRow, "id" | "timezone">,
  cycle: CycleRow,
  today: string,
  owner: OwnItemsOf = null,
): Promise<CycleProgress> {
  if (owner) return liveProgress(db, project, cycle, today, owner);
  if (hasSnapshot(cycle)) return cycle.progressSnapshot as unknown as CycleProgress;
  return liveProgress(db, project, cycle, today);
}

type ReaderExtras = { counters: CycleCounters; assigneeIds: string[]; snapshot?: Record<string, unknown> };

/**
 * What a reader's cycle rows show: counters, assignee ids and, for a completed cycle read by a
 * restricted guest, a progress_snapshot of the counters over their own items at its end date
 * (the stored one counts everyone's; their distributions come from cycleProgress). Rows of projects where the reader is not restricted get the live counters (the
 * presenter takes a stored snapshot's counters over them).
 */
export async function readerCounters(
  db: DbOrTx,
  userId: string,
  rows: readonly CycleRow[],
  todayOf: (row: CycleRow) => string,
): Promise<Map<string, ReaderExtras>> {
  const restrictedIn = await restrictedProjects(
    db,
    userId,
    rows.map((r) => r.projectId),
  );
  const restrictedRows = rows.filter((r) => restrictedIn.has(r.projectId));
  const out: Map<string, ReaderExtras> = await loadCounters(
    db,
    rows.map((r) => r.id),
    { userId, cycleIds: restrictedRows.map((r) => r.id) },
  );
  const done = restrictedRows.filter(
    (r) => hasSnapshot(r) || cycleStatus({ start_date: r.startDate, end_date: r.endDate }, todayOf(r)) === "completed",
  );
  if (!done.length) return out;
  const zones = await queryRows<{ id: string; timezone: string }>(
    db,
    sql`select id::text as id, timezone from projects where id in (${uuidList([...new Set(done.map((r) => r.projectId))])})`,
  );
  const zoneOf = new Map(zones.map((z) => [z.id, z.timezone]));
  for (const row of done) {
    const project = { id: row.projectId, timezone: zoneOf.get(row.projectId) ?? "UTC" };
    // Its counters at the end of the end date (the detail's distributions come from cycleProgress).
    const snapshot = countersOf(await loadBurndownItems(db, project, row.id, userId), row.endDate);
    const entry = out.get(row.id);
    if (entry) out.set(row.id, { ...entry, snapshot });
  }
  return out;
}

/**
 * Freeze the progress of completed cycles that have no snapshot yet (the first read after the
 * end date, a transfer or an archive). Returns the rows as stored.
 */
export async function freezeCompleted(
  db: DbOrTx,
  project: ProjectRow,
  rows: CycleRow[],
  today: string,
): Promise<CycleRow[]> {
  const out: CycleRow[] = [];
  for (const row of rows) {
    const done = cycleStatus({ start_date: row.startDate, end_date: row.endDate }, today) === "completed";
    if (!done || hasSnapshot(row)) {
      out.push(row);
      continue;
    }
    const snapshot = await liveProgress(db, project, row, today);
    const [stored] = await db
      .update(cycles)
      .set({ progressSnapshot: snapshot as unknown as Record<string, unknown> })
      .where(sql`${cycles.id} = ${row.id}::uuid and ${cycles.progressSnapshot} = '{}'::jsonb`)
      .returning();
    out.push(stored ?? row);
  }
  return out;
}

/**
 * Schedule one cycle.updated with fresh counters for this cycle at the end of the transaction
 * (however many of its work items changed in it).
 */
export function scheduleCycleRefresh(emit: EmitFn, cycleId: string | null): void {
  if (!cycleId) return;
  beforeCommit(emit, `cycle-refresh:${cycleId}`, async (tx, emitNow) => {
    const [found] = await tx
      .select({ row: cycles, timezone: projects.timezone })
      .from(cycles)
      .innerJoin(projects, eq(projects.id, cycles.projectId))
      .where(eq(cycles.id, cycleId));
    if (!found) return;
    const { row } = found;
    const extras = (await loadCounters(tx, [row.id])).get(row.id);
    const presented = presentCycle(row, projectToday(found), {
      counters: extras?.counters ?? { ...EMPTY_COUNTERS },
      assigneeIds: extras?.assigneeIds ?? [],
    });
    emitNow(
      "cycle.updated",
      { workspaceId: row.workspaceId, projectId: row.projectId, entityId: row.id },
      { ...presented, progress_changed: true },
    );
  });
}
