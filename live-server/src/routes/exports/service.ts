/**
 * Exports of work items (routes/exports/README.md): the history rows, their creation (a row and
 * its job in one transaction), the paged list, the file for the download, and the expiry sweep.
 * The export itself runs in job.ts.
 */
import { randomBytes } from "node:crypto";
import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { queryRows } from "../../db/client.ts";
import { exporterHistory } from "../../db/schema.ts";
import { type EventBus, type EventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import type { WorkspaceAccess } from "../../policies/access.ts";
import type { Storage } from "../../storage/index.ts";
import { loadActors } from "../issue-details/common.ts";
import { type ExportRow, presentExport } from "./presenter.ts";
import { type CreateExportBody, isProvider } from "./schema.ts";

/** The job kind that runs an export (job.ts). */
export const EXPORT_JOB = "export.issues";
/** How long a finished export's file is kept. */
export const EXPORT_KEEP_DAYS = 7;

export type ExportDeps = { db: Db; events: EventBus; jobs: JobQueue; storage: Storage };

/** The workspace's live projects `userId` is an active member of, by identifier. */
export async function memberProjects(db: DbOrTx, workspaceId: string, userId: string) {
  return queryRows<{ id: string; identifier: string; name: string }>(
    db,
    sql`select p.id::text as id, p.identifier, p.name from projects p
        join project_members pm on pm.project_id = p.id and pm.member_id = ${userId}::uuid and pm.is_active
        where p.workspace_id = ${workspaceId}::uuid and p.archived_at is null
        order by p.identifier`,
  );
}

/** Present rows with their initiators. */
export async function presentExports(db: DbOrTx, rows: readonly ExportRow[], slug: string) {
  const actors = await loadActors(
    db,
    rows.map((r) => r.initiatedById),
  );
  return rows.map((row) => presentExport(row, slug, actors.get(row.initiatedById)));
}

/**
 * Queue an export of `body.project` (every live project the caller is in when empty): the
 * history row and its job commit together, so the job can never be lost nor run for nothing.
 */
export async function createExport(
  deps: ExportDeps,
  access: WorkspaceAccess,
  body: CreateExportBody,
  origin: EventOrigin,
) {
  const { provider } = body;
  if (!isProvider(provider)) {
    throw badRequest(`Provider '${provider ?? ""}' not found.`, { provider: ["Expected csv, xlsx or json"] });
  }
  const mine = await memberProjects(deps.db, access.workspace.id, access.user.id);
  const known = new Set(mine.map((p) => p.id));
  let projectIds = [...new Set(body.project)];
  if (projectIds.length) {
    const unknown = projectIds.filter((id) => !known.has(id));
    if (unknown.length) {
      throw badRequest("Some projects are not projects of this workspace you are a member of.", {
        project: unknown.map((id) => `Unknown project ${id}`),
      });
    }
  } else projectIds = mine.map((p) => p.id);
  if (!projectIds.length) {
    throw badRequest("There is no project to export: join a project first.", { project: ["No project"] });
  }
  const row = await transactionWithEvents(deps.db, deps.events, origin, async (tx, emit) => {
    const [created] = await tx
      .insert(exporterHistory)
      .values({
        workspaceId: access.workspace.id,
        projectIds,
        provider,
        multiple: body.multiple,
        token: randomBytes(16).toString("hex"),
        initiatedById: access.user.id,
        createdById: access.user.id,
        updatedById: access.user.id,
      })
      .returning();
    if (!created) throw new Error("export insert failed");
    await deps.jobs.enqueue(EXPORT_JOB, { export_id: created.id }, tx);
    const [view] = await presentExports(tx, [created], access.workspace.slug);
    emit("export.created", { workspaceId: access.workspace.id, projectId: null, entityId: created.id }, view ?? {});
    return created;
  });
  const [view] = await presentExports(deps.db, [row], access.workspace.slug);
  return view;
}

/** One page of the workspace's exports, newest first, in the reference's paged answer. */
export async function listExports(db: DbOrTx, access: WorkspaceAccess, perPage: number, pageIndex: number) {
  const offset = pageIndex * perPage;
  const rows = await db
    .select()
    .from(exporterHistory)
    .where(and(eq(exporterHistory.workspaceId, access.workspace.id), eq(exporterHistory.type, "issue_exports")))
    .orderBy(desc(exporterHistory.createdAt), desc(exporterHistory.id))
    .limit(perPage + 1)
    .offset(offset);
  const [count] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from exporter_history where workspace_id = ${access.workspace.id}::uuid
        and type = 'issue_exports'`,
  );
  const total = Number(count?.n ?? 0);
  const page = rows.slice(0, perPage);
  return {
    results: await presentExports(db, page, access.workspace.slug),
    count: page.length,
    total_results: total,
    total_pages: Math.ceil(total / perPage),
    next_cursor: `${perPage}:${pageIndex + 1}:0`,
    prev_cursor: `${perPage}:${Math.max(pageIndex - 1, 0)}:0`,
    next_page_results: rows.length > perPage,
    prev_page_results: pageIndex > 0,
    extra_stats: null,
  };
}

/** The export `id` of the caller's workspace, or 404. */
export async function exportOf(db: DbOrTx, access: WorkspaceAccess, id: string): Promise<ExportRow> {
  const [row] = await db
    .select()
    .from(exporterHistory)
    .where(and(eq(exporterHistory.id, id), eq(exporterHistory.workspaceId, access.workspace.id)))
    .limit(1);
  if (!row) throw notFound("Export");
  return row;
}

/**
 * Delete the files of exports finished more than EXPORT_KEEP_DAYS ago and mark them expired
 * (export.updated for each). Safe to run on several instances at once: each row is claimed by
 * the update that marks it. Returns how many expired.
 */
export async function expireExports(deps: ExportDeps, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - EXPORT_KEEP_DAYS * 24 * 60 * 60 * 1000);
  const due = await deps.db
    .select({ id: exporterHistory.id })
    .from(exporterHistory)
    .where(
      and(
        eq(exporterHistory.status, "completed"),
        isNull(exporterHistory.expiredAt),
        lt(exporterHistory.completedAt, before),
      ),
    )
    .limit(500);
  let expired = 0;
  for (const { id } of due) {
    const done = await transactionWithEvents(
      deps.db,
      deps.events,
      { actorId: null, clientMutationId: null },
      async (tx, emit) => {
        const [row] = await tx
          .update(exporterHistory)
          .set({ expiredAt: now })
          .where(and(eq(exporterHistory.id, id), isNull(exporterHistory.expiredAt)))
          .returning();
        if (!row) return false;
        // The file goes first: if the storage refuses, the row is not marked and the next sweep retries.
        if (row.key) await deps.storage.delete(row.key);
        const slug = await workspaceSlug(tx, row.workspaceId);
        const [view] = await presentExports(tx, [row], slug);
        emit("export.updated", { workspaceId: row.workspaceId, projectId: null, entityId: row.id }, view ?? {});
        return true;
      },
    );
    if (done) expired++;
  }
  return expired;
}

export async function workspaceSlug(db: DbOrTx, workspaceId: string): Promise<string> {
  const [row] = await queryRows<{ slug: string }>(db, sql`select slug from workspaces where id = ${workspaceId}::uuid`);
  return row?.slug ?? "";
}
