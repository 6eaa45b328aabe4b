/**
 * Project labels (product-domain §3 Label, §5 label reorder). Routes check access first and
 * pass the rows they got back; every query here is also scoped by project id. Every change
 * runs in transactionWithEvents and emits label.* with the label as the API presents it.
 *
 * Rules:
 * - names are unique per project, ignoring case (409);
 * - labels nest by parent: the parent is a label of the same project, and a label can't
 *   become its own ancestor (400);
 * - a new label, or one moved to another parent without a sort_order, goes after its last
 *   sibling (labelPosition: +10000, or 65535 when alone);
 * - deleting a label moves its children up to the deleted label's parent (they keep their
 *   sort_order); the label leaves every work item it was on.
 * Tree changes of one project are serialised by an advisory lock, so two concurrent moves
 * can't build a loop between them.
 */
import { labelParentCreatesCycle, labelPosition } from "@tideline/shared";
import { and, asc, eq, isNull, max, ne, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { DbOrTx } from "../../db/client.ts";
import { uniqueViolation } from "../../db/errors.ts";
import { labels, projectMembers, projects } from "../../db/schema.ts";
import { type EventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, conflict, notFound } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import type { ProjectAccess, ProjectRow, WorkspaceAccess } from "../../policies/access.ts";
import { type LabelRow, presentLabel } from "./presenter.ts";
import type { CreateLabelBody, UpdateLabelBody } from "./schema.ts";

type Ctx = Pick<AppContext, "db" | "events">;

const scopeOf = (l: LabelRow) => ({ workspaceId: l.workspaceId, projectId: l.projectId, entityId: l.id });

const nameTaken = (name: string) =>
  conflict(
    `A label named "${name}" already exists in this project.`,
    { name: ["This name is already taken."] },
    "LABEL_NAME_TAKEN",
  );

function rethrowAsConflict(error: unknown, name: string | undefined): never {
  if (uniqueViolation(error) === "labels_project_name_key" && name !== undefined) throw nameTaken(name);
  throw error;
}

async function assertNameFree(db: DbOrTx, projectId: string, name: string, exceptId?: string): Promise<void> {
  const [row] = await db
    .select({ id: labels.id })
    .from(labels)
    .where(
      and(
        eq(labels.projectId, projectId),
        sql`lower(${labels.name}) = lower(${name})`,
        exceptId ? ne(labels.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (row) throw nameTaken(name);
}

async function lockLabelTree(tx: DbOrTx, projectId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`labels:${projectId}`}, 0))`);
}

/** Sort order after the last child of `parentId` (top level when null). */
async function afterLastSibling(db: DbOrTx, projectId: string, parentId: string | null): Promise<number> {
  const [row] = await db
    .select({ last: max(labels.sortOrder) })
    .from(labels)
    .where(and(eq(labels.projectId, projectId), parentId ? eq(labels.parentId, parentId) : isNull(labels.parentId)));
  return labelPosition(row?.last ?? null, null);
}

const badParent = (message: string) => badRequest(message, { parent: [message] }, "INVALID_LABEL_PARENT");

async function assertParentInProject(db: DbOrTx, projectId: string, parentId: string): Promise<void> {
  const [row] = await db
    .select({ id: labels.id })
    .from(labels)
    .where(and(eq(labels.id, parentId), eq(labels.projectId, projectId)))
    .limit(1);
  if (!row) throw badParent("The parent must be a label of this project.");
}

// ───────────────────────────── reading ─────────────────────────────

const labelOrder = [asc(labels.sortOrder), asc(labels.name)];

export async function listProjectLabels(db: DbOrTx, project: ProjectRow): Promise<LabelRow[]> {
  return db
    .select()
    .from(labels)
    .where(eq(labels.projectId, project.id))
    .orderBy(...labelOrder);
}

/** Labels of every unarchived project of the workspace the caller is an active member of. */
export async function listWorkspaceLabels(db: DbOrTx, ws: WorkspaceAccess): Promise<LabelRow[]> {
  const rows = await db
    .select({ label: labels })
    .from(labels)
    .innerJoin(projects, eq(projects.id, labels.projectId))
    .innerJoin(
      projectMembers,
      and(
        eq(projectMembers.projectId, labels.projectId),
        eq(projectMembers.memberId, ws.user.id),
        eq(projectMembers.isActive, true),
      ),
    )
    .where(and(eq(labels.workspaceId, ws.workspace.id), isNull(projects.archivedAt)))
    .orderBy(asc(labels.projectId), ...labelOrder);
  return rows.map((r) => r.label);
}

export async function getLabel(db: DbOrTx, project: ProjectRow, labelId: string, lock = false): Promise<LabelRow> {
  if (!isUuid(labelId)) throw notFound("Label");
  const query = db
    .select()
    .from(labels)
    .where(and(eq(labels.id, labelId), eq(labels.projectId, project.id)))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("Label");
  return row;
}

// ───────────────────────────── changing ─────────────────────────────

export async function createLabel(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  body: CreateLabelBody,
): Promise<LabelRow> {
  const { project, user } = access;
  const parentId = body.parent ?? null;
  try {
    return await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
      await lockLabelTree(tx, project.id);
      await assertNameFree(tx, project.id, body.name);
      if (parentId) await assertParentInProject(tx, project.id, parentId);
      const sortOrder = body.sort_order ?? (await afterLastSibling(tx, project.id, parentId));
      const [row] = await tx
        .insert(labels)
        .values({
          workspaceId: project.workspaceId,
          projectId: project.id,
          parentId,
          name: body.name,
          description: body.description ?? "",
          color: body.color,
          sortOrder,
          createdById: user.id,
          updatedById: user.id,
        })
        .returning();
      if (!row) throw new Error("label insert failed");
      emit("label.created", scopeOf(row), presentLabel(row));
      return row;
    });
  } catch (error) {
    rethrowAsConflict(error, body.name);
  }
}

export const LABEL_CYCLE_MESSAGE = "A label can't be nested under itself or one of its own sub-labels.";

export async function updateLabel(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  labelId: string,
  body: UpdateLabelBody,
): Promise<LabelRow> {
  const { project, user } = access;
  try {
    return await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
      const reparenting = body.parent !== undefined;
      if (reparenting) await lockLabelTree(tx, project.id);
      const current = await getLabel(tx, project, labelId, true);
      const renamed = body.name !== undefined && body.name !== current.name ? body.name : undefined;
      if (renamed !== undefined) await assertNameFree(tx, project.id, renamed, current.id);

      const newParent = reparenting && body.parent !== current.parentId ? (body.parent ?? null) : undefined;
      if (newParent) {
        await assertParentInProject(tx, project.id, newParent);
        const tree = await tx
          .select({ id: labels.id, parentId: labels.parentId })
          .from(labels)
          .where(eq(labels.projectId, project.id));
        const parentOf = new Map(tree.map((l) => [l.id, l.parentId]));
        if (labelParentCreatesCycle(parentOf, current.id, newParent)) throw badParent(LABEL_CYCLE_MESSAGE);
      }
      const sortOrder =
        body.sort_order ?? (newParent !== undefined ? await afterLastSibling(tx, project.id, newParent) : undefined);

      const set: Partial<typeof labels.$inferInsert> = {
        name: renamed,
        color: body.color,
        description: body.description,
        sortOrder,
      };
      const changes: Partial<typeof labels.$inferInsert> = Object.fromEntries(
        Object.entries(set).filter(([, v]) => v !== undefined),
      );
      // null is a real value here (move to the top level), so it is set apart from the filter above.
      if (newParent !== undefined) changes.parentId = newParent;
      if (Object.keys(changes).length === 0) return current;
      const [row] = await tx
        .update(labels)
        .set({ ...changes, updatedById: user.id })
        .where(eq(labels.id, current.id))
        .returning();
      if (!row) throw notFound("Label");
      emit("label.updated", scopeOf(row), presentLabel(row));
      return row;
    });
  } catch (error) {
    rethrowAsConflict(error, body.name);
  }
}

/** Delete a label; its children move up to its parent (label.updated for each). */
export async function deleteLabel(ctx: Ctx, origin: EventOrigin, access: ProjectAccess, labelId: string) {
  const { project, user } = access;
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    await lockLabelTree(tx, project.id);
    const current = await getLabel(tx, project, labelId, true);
    const children = await tx
      .update(labels)
      .set({ parentId: current.parentId, updatedById: user.id })
      .where(and(eq(labels.projectId, project.id), eq(labels.parentId, current.id)))
      .returning();
    // Work-item links (issue_labels) go with the label: the foreign key cascades.
    await tx.delete(labels).where(eq(labels.id, current.id));
    for (const child of children) emit("label.updated", scopeOf(child), presentLabel(child));
    emit("label.deleted", scopeOf(current), presentLabel(current));
  });
}
