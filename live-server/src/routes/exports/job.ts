/**
 * The export job (kind `export.issues`, payload `{export_id}`): reads the work items the
 * requester may see, project by project, in batches by keyset (sequence id), writes each batch
 * into the file stream of the chosen format, then stores the file. Memory stays bounded whatever
 * the size: one batch of rows and the writer's buffers at a time.
 *
 * Progress (exported_items / total_items) is written as batches go, with export.updated at most
 * every PROGRESS_EVERY_MS. A job that is run again (after a crash, the queue requeues it) starts
 * the file over; a finished or failed export is left alone.
 */
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { personName, ROLE } from "@tideline/shared";
import { eq, sql } from "drizzle-orm";
import { queryRows } from "../../db/client.ts";
import { exporterHistory, users } from "../../db/schema.ts";
import { transactionWithEvents } from "../../events/bus.ts";
import {
  CONTENT_TYPES,
  createExportWriter,
  type ExportColumn,
  type ExportProvider,
  type ExportRow,
} from "../../exports/writers.ts";
import { itemVisibleTo } from "../issues/visibility.ts";
import type { ExportRow as HistoryRow } from "./presenter.ts";
import { type ExportDeps, memberProjects, presentExports, workspaceSlug } from "./service.ts";

/** Work items read per query. */
export const EXPORT_BATCH_SIZE = 1000;
const PROGRESS_EVERY_MS = 500;

/** The columns, in order: json keys and csv/xlsx headings. */
export const EXPORT_COLUMNS: readonly ExportColumn[] = [
  { key: "id", header: "ID", width: 12 },
  { key: "project", header: "Project", width: 20 },
  { key: "name", header: "Name", width: 40 },
  { key: "description", header: "Description", width: 60 },
  { key: "state", header: "State", width: 14 },
  { key: "priority", header: "Priority", width: 10 },
  { key: "assignees", header: "Assignees", width: 24 },
  { key: "labels", header: "Labels", width: 24 },
  { key: "cycle", header: "Cycle", width: 18 },
  { key: "modules", header: "Modules", width: 24 },
  { key: "start_date", header: "Start date", width: 12 },
  { key: "target_date", header: "Target date", width: 12 },
  { key: "estimate", header: "Estimate", width: 10 },
  { key: "created_at", header: "Created at", width: 22 },
  { key: "created_by", header: "Created by", width: 18 },
  { key: "updated_at", header: "Updated at", width: 22 },
  { key: "updated_by", header: "Updated by", width: 18 },
  { key: "completed_at", header: "Completed at", width: 22 },
  { key: "completed_by", header: "Completed by", width: 18 },
];

type ItemRow = {
  id: string;
  sequence_id: number;
  name: string;
  description: string;
  priority: string;
  start_date: string | null;
  target_date: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  completed_at: Date | string | null;
  created_by: string | null;
  updated_by: string | null;
  completed_by: string | null;
  state_name: string | null;
  estimate: string | null;
  assignee_ids: string[] | null;
  labels: string[] | null;
  cycle_name: string | null;
  modules: string[] | null;
};

export type RunExportOptions = {
  batchSize?: number;
  /** Called after each batch is written (tests count batches). */
  onBatch?: (rows: number) => void;
};

const isoOf = (value: Date | string | null) =>
  value === null ? null : (value instanceof Date ? value : new Date(value)).toISOString();

/** `array(...)` comes back as a JS array from node-postgres and PGlite; be lenient anyway. */
const list = (value: string[] | null): string[] => (Array.isArray(value) ? value.filter(Boolean) : []);

/** The visible work items of one project after `afterSequence`, one batch, with everything the columns need. */
function batchQuery(projectId: string, userId: string, afterSequence: number, limit: number) {
  return sql`
    select i.id::text as id, i.sequence_id, i.name, i.description_stripped as description, i.priority,
      i.start_date::text as start_date, i.target_date::text as target_date,
      i.created_at, i.updated_at, i.completed_at, i.created_by::text as created_by, i.updated_by::text as updated_by,
      case when i.completed_at is not null then (
        select a.actor_id::text from issue_activities a
        where a.issue_id = i.id and a.field = 'state' order by a.created_at desc limit 1) end as completed_by,
      s.name as state_name, ep.value as estimate,
      array(select ia.assignee_id::text from issue_assignees ia where ia.issue_id = i.id
            order by ia.created_at, ia.assignee_id) as assignee_ids,
      array(select l.name from issue_labels il join labels l on l.id = il.label_id where il.issue_id = i.id
            order by l.name) as labels,
      (select c.name from cycle_issues ci join cycles c on c.id = ci.cycle_id where ci.issue_id = i.id limit 1) as cycle_name,
      array(select m.name from module_issues mi join modules m on m.id = mi.module_id where mi.issue_id = i.id
            order by m.name) as modules
    from issues i
    left join states s on s.id = i.state_id
    left join estimate_points ep on ep.id = i.estimate_point_id
    where i.project_id = ${projectId}::uuid and i.sequence_id > ${afterSequence}
      and i.archived_at is null and i.is_epic = false and ${itemVisibleTo("i", userId, { activeProjectsOnly: true })}
    order by i.sequence_id
    limit ${limit}`;
}

/** Display names of people, read once per person for the whole export. */
class PeopleNames {
  private readonly names = new Map<string, string>();
  private readonly deps: ExportDeps;
  constructor(deps: ExportDeps) {
    this.deps = deps;
  }
  async load(ids: Iterable<string | null>): Promise<void> {
    const missing = [...new Set([...ids].filter((id): id is string => Boolean(id) && !this.names.has(id as string)))];
    if (!missing.length) return;
    const rows = await this.deps.db
      .select({
        id: users.id,
        display_name: users.displayName,
        first_name: users.firstName,
        last_name: users.lastName,
        email: users.email,
      })
      .from(users)
      .where(
        sql`${users.id} in (${sql.join(
          missing.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      );
    for (const row of rows) this.names.set(row.id, personName(row));
  }
  name(id: string | null): string | null {
    return id ? (this.names.get(id) ?? null) : null;
  }
}

async function update(deps: ExportDeps, row: HistoryRow, values: Partial<typeof exporterHistory.$inferInsert>) {
  return transactionWithEvents(deps.db, deps.events, { actorId: null, clientMutationId: null }, async (tx, emit) => {
    const [updated] = await tx.update(exporterHistory).set(values).where(eq(exporterHistory.id, row.id)).returning();
    if (!updated) return row;
    const [view] = await presentExports(tx, [updated], await workspaceSlug(tx, updated.workspaceId));
    emit("export.updated", { workspaceId: updated.workspaceId, projectId: null, entityId: updated.id }, view ?? {});
    return updated;
  });
}

/** Keep this job's queue row fresh so another instance starting up does not take it for a crashed one. */
async function heartbeat(deps: ExportDeps, exportId: string) {
  await deps.db.execute(
    sql`update jobs set updated_at = now() where status = 'running' and kind = 'export.issues'
        and payload->>'export_id' = ${exportId}`,
  );
}

const FILE_EXTENSIONS: Record<ExportProvider, string> = { csv: "csv", xlsx: "xlsx", json: "json" };

/** Run the export `exportId` to its end (completed or failed). */
export async function runExport(deps: ExportDeps, exportId: string, options: RunExportOptions = {}): Promise<void> {
  const batchSize = options.batchSize ?? EXPORT_BATCH_SIZE;
  const [found] = await deps.db.select().from(exporterHistory).where(eq(exporterHistory.id, exportId)).limit(1);
  if (!found || found.status === "completed" || found.status === "failed") return;
  let row = found;
  const provider = row.provider as ExportProvider;
  const dir = await mkdtemp(path.join(os.tmpdir(), "tideline-export-"));
  try {
    // Rights are read when the export runs, as the reference's task does: the requester must
    // still be an admin, and only their live projects among those asked for count.
    const [member] = await queryRows<{ role: number }>(
      deps.db,
      sql`select role from workspace_members where workspace_id = ${row.workspaceId}::uuid
          and member_id = ${row.initiatedById}::uuid and is_active`,
    );
    if (!member || member.role < ROLE.admin) {
      row = await update(deps, row, { status: "failed", reason: "The requester is no longer a workspace admin." });
      return;
    }
    const asked = new Set(row.projectIds);
    const projects = (await memberProjects(deps.db, row.workspaceId, row.initiatedById)).filter((p) => asked.has(p.id));
    const userId = row.initiatedById;
    const [count] = await queryRows<{ n: number }>(
      deps.db,
      projects.length
        ? sql`select count(*)::int as n from issues i where i.project_id in (${sql.join(
            projects.map((p) => sql`${p.id}::uuid`),
            sql`, `,
          )}) and i.archived_at is null and i.is_epic = false and ${itemVisibleTo("i", userId, { activeProjectsOnly: true })}`
        : sql`select 0 as n`,
    );
    row = await update(deps, row, {
      status: "processing",
      reason: "",
      exportedItems: 0,
      totalItems: Number(count?.n ?? 0),
    });

    const slug = await workspaceSlug(deps.db, row.workspaceId);
    const day = new Date().toISOString().slice(0, 10);
    const fileName = `${slug}-work-items-${day}-${row.token.slice(0, 6)}.${FILE_EXTENSIONS[provider]}`;
    const filePath = path.join(dir, fileName);
    const file = createWriteStream(filePath);
    const writer = await createExportWriter(provider, file, EXPORT_COLUMNS);
    const people = new PeopleNames(deps);
    let exported = 0;
    let lastProgress = Date.now();
    for (const project of projects) {
      let after = 0;
      for (;;) {
        const items = await queryRows<ItemRow>(deps.db, batchQuery(project.id, userId, after, batchSize));
        if (!items.length) break;
        await people.load(items.flatMap((i) => [i.created_by, i.updated_by, i.completed_by, ...list(i.assignee_ids)]));
        const rows: ExportRow[] = items.map((i) => ({
          id: `${project.identifier}-${i.sequence_id}`,
          project: project.name,
          name: i.name,
          description: i.description,
          state: i.state_name,
          priority: i.priority,
          assignees: list(i.assignee_ids)
            .map((id) => people.name(id))
            .filter(Boolean)
            .join(", "),
          labels: list(i.labels).join(", "),
          cycle: i.cycle_name,
          modules: list(i.modules).join(", "),
          start_date: i.start_date,
          target_date: i.target_date,
          estimate: i.estimate,
          created_at: isoOf(i.created_at),
          created_by: people.name(i.created_by),
          updated_at: isoOf(i.updated_at),
          updated_by: people.name(i.updated_by),
          completed_at: isoOf(i.completed_at),
          completed_by: people.name(i.completed_by),
        }));
        await writer.write(rows);
        options.onBatch?.(rows.length);
        exported += rows.length;
        after = Number(items[items.length - 1]?.sequence_id ?? after);
        if (Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
          lastProgress = Date.now();
          row = await update(deps, row, { exportedItems: exported });
          await heartbeat(deps, row.id);
        }
        if (items.length < batchSize) break;
      }
    }
    await writer.end();
    const key = `${row.workspaceId}/exports/${row.id}.${FILE_EXTENSIONS[provider]}`;
    const { size } = await deps.storage.putFile(key, filePath, CONTENT_TYPES[provider]);
    row = await update(deps, row, {
      status: "completed",
      exportedItems: exported,
      totalItems: Math.max(exported, row.totalItems ?? 0),
      key,
      fileName,
      size,
      completedAt: new Date(),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await update(deps, row, { status: "failed", reason: `The export failed: ${message}` });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
