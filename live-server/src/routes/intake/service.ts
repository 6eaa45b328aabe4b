/**
 * Intake (product-domain §2–§4, §9; calls-errors-sync §7 "Intake"): requests submitted to a
 * project's queue. A request is a work item created with issues.in_intake = true, so it is in
 * no work-item list, count, search or sync (issues/common.ts visibleConditions and every list
 * query test in_intake) until a member accepts it; then in_intake turns false and the item is
 * announced with issue.created. intake.* events carry the request (its `created_by` lets the
 * live layer give a guest only their own); intake.updated also says which work-item fields the
 * call changed (`changed_fields`). Notifications about a request (notifications/service.ts) come
 * from intake.created and from edits, marked is_inbox_issue until the request is accepted.
 */
import { ROLE } from "@tideline/shared";
import { and, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { type DbOrTx, queryRows, type Tx } from "../../db/client.ts";
import { intakeIssues, issues, states } from "../../db/schema.ts";
import { type EmitFn, type EventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, forbidden, notFound } from "../../http/errors.ts";
import type { ProjectAccess } from "../../policies/access.ts";
import { readListQueryIn, singleQueryValue } from "../issues/common.ts";
import { parseCursor } from "../issues/list.ts";
import { loadIssue, loadIssues, type PresentedIssue } from "../issues/query.ts";
import { createIssue, emitIssue, updateIssue } from "../issues/service.ts";
import type { CreateIntakeInput, UpdateIntakeInput } from "./schema.ts";

export const INTAKE_PAGE_SIZE = 10;
export const INTAKE_STATUS = { pending: -2, declined: -1, snoozed: 0, accepted: 1, duplicate: 2 } as const;

type IntakeRow = typeof intakeIssues.$inferSelect;

export type PresentedIntakeIssue = {
  id: string;
  status: number;
  snoozed_till: string | null;
  duplicate_to: string | null;
  duplicate_issue_detail: { id: string; sequence_id: number; name: string; project_id: string } | null;
  source: string;
  issue: PresentedIssue;
  project: string;
  workspace: string;
  created_by: string | null;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
};

/** A snoozed request whose date has passed counts as pending (product-domain §4). */
export function effectiveStatus(row: Pick<IntakeRow, "status" | "snoozedTill">, now = new Date()): number {
  if (row.status === INTAKE_STATUS.snoozed && row.snoozedTill && row.snoozedTill <= now) return INTAKE_STATUS.pending;
  return row.status;
}

const EFFECTIVE_STATUS = sql`(case when ii.status = 0 and ii.snoozed_till is not null and ii.snoozed_till <= now() then -2 else ii.status end)`;

/** Guests see (and edit) only the requests they submitted; triage is for members and admins. */
export const isGuest = (access: ProjectAccess) => (access.projectMembership?.role ?? 0) < ROLE.member;

/** The feature switch: every intake call of a project with intake off is a clear 400. */
export function requireIntakeOn(access: ProjectAccess): void {
  if (!access.project.inboxView) {
    throw badRequest(
      "Intake is turned off for this project. An admin can turn it on in the project's Features settings.",
      undefined,
      "INTAKE_DISABLED",
    );
  }
}

async function present(db: DbOrTx, rows: IntakeRow[]): Promise<PresentedIntakeIssue[]> {
  if (!rows.length) return [];
  const items = await loadIssues(db, {
    ids: rows.map((r) => r.issueId),
    includeDescription: true,
    includeDeleted: true,
  });
  const byId = new Map(items.map((i) => [i.id, i]));
  const dupIds = rows.map((r) => r.duplicateToId).filter((id): id is string => Boolean(id));
  const dups = dupIds.length ? await loadIssues(db, { ids: dupIds }) : [];
  const dupById = new Map(dups.map((d) => [d.id, d]));
  const out: PresentedIntakeIssue[] = [];
  for (const r of rows) {
    const issue = byId.get(r.issueId);
    if (!issue) continue;
    const dup = r.duplicateToId ? dupById.get(r.duplicateToId) : undefined;
    out.push({
      id: r.id,
      status: effectiveStatus(r),
      snoozed_till: r.snoozedTill?.toISOString() ?? null,
      duplicate_to: r.duplicateToId,
      duplicate_issue_detail: dup
        ? { id: dup.id, sequence_id: dup.sequence_id, name: dup.name, project_id: dup.project_id }
        : null,
      source: r.source,
      issue,
      project: r.projectId,
      workspace: r.workspaceId,
      created_by: r.createdById,
      updated_by: r.updatedById,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    });
  }
  return out;
}

/**
 * The request by path id: the reference's client addresses a request by its work item's id,
 * so both that and the request's own id are accepted. Guests reach only their own (else 404).
 */
async function findRequest(db: DbOrTx, access: ProjectAccess, id: string, lock = false): Promise<IntakeRow> {
  const query = db
    .select({ ii: intakeIssues })
    .from(intakeIssues)
    .innerJoin(issues, eq(issues.id, intakeIssues.issueId))
    .where(
      and(
        eq(intakeIssues.projectId, access.project.id),
        or(eq(intakeIssues.id, id), eq(intakeIssues.issueId, id)),
        isNull(issues.deletedAt),
      ),
    )
    .limit(1);
  const [row] = lock ? await query.for("update", { of: intakeIssues }) : await query;
  if (!row) throw notFound("Intake work item");
  if (isGuest(access) && row.ii.createdById !== access.user.id) throw notFound("Intake work item");
  return row.ii;
}

const ORDERS: Record<string, SQL> = {
  created_at: sql`i.created_at asc, ii.id`,
  "-created_at": sql`i.created_at desc, ii.id`,
  updated_at: sql`i.updated_at asc, ii.id`,
  "-updated_at": sql`i.updated_at desc, ii.id`,
  sequence_id: sql`i.sequence_id asc`,
  "-sequence_id": sql`i.sequence_id desc`,
};

function readStatuses(raw: string | undefined): number[] {
  const text = raw === undefined || raw === "" ? String(INTAKE_STATUS.pending) : raw;
  const values = text.split(",").filter((v) => v !== "" && v !== "null");
  const out: number[] = [];
  for (const v of values) {
    const n = Number(v);
    if (![-2, -1, 0, 1, 2].includes(n)) {
      throw badRequest(`Unknown intake status "${v}"`, { status: ["Use -2, -1, 0, 1 or 2"] });
    }
    out.push(n);
  }
  return out;
}

/**
 * One page of a project's requests: `status` (comma list, default pending; a snoozed request
 * past its date is pending), the work-item filters, `order_by` (created_at, updated_at,
 * sequence_id, with or without `issue__` and `-`; default -created_at), `per_page` / `cursor`
 * (perPage:pageIndex:0, page 10). Guests get only their own.
 */
export async function listRequests(db: DbOrTx, access: ProjectAccess, query: Record<string, unknown>) {
  const { order_by: orderRaw, status: statusRaw, ...rest } = query;
  const orderKey = (singleQueryValue(orderRaw) ?? "-created_at").replace("issue__", "");
  const order = ORDERS[orderKey === "" ? "-created_at" : orderKey];
  if (!order) throw badRequest(`Unknown order_by "${String(orderRaw)}"`, { order_by: ["Unknown ordering"] });
  const statuses = readStatuses(singleQueryValue(statusRaw));
  const perPageRaw = rest.per_page ?? (rest.cursor ? undefined : INTAKE_PAGE_SIZE);
  const cursor = parseCursor(singleQueryValue(rest.cursor), perPageRaw);
  const options = readListQueryIn(
    { ...rest, cursor: undefined, per_page: undefined },
    { timezone: access.project.timezone, identifier: sql`${access.project.identifier}` },
  );
  const conditions: SQL[] = [
    sql`ii.project_id = ${access.project.id}::uuid`,
    sql`i.deleted_at is null`,
    statuses.length
      ? sql`${EFFECTIVE_STATUS} in (${sql.join(
          statuses.map((s) => sql`${s}`),
          sql`, `,
        )})`
      : sql`true`,
    ...options.conditions,
  ];
  if (isGuest(access)) conditions.push(sql`ii.created_by = ${access.user.id}::uuid`);
  const where = sql.join(conditions, sql` and `);
  const offset = cursor.pageIndex * cursor.perPage;
  const rows = await queryRows<{ id: string; total: number }>(
    db,
    sql`select ii.id, count(*) over()::int as total
        from intake_issues ii join issues i on i.id = ii.issue_id
        left join states s on s.id = i.state_id
        where ${where} order by ${order} limit ${cursor.perPage} offset ${offset}`,
  );
  let total = rows[0]?.total ?? 0;
  if (!rows.length && offset > 0) {
    const [row] = await queryRows<{ total: number }>(
      db,
      sql`select count(*)::int as total from intake_issues ii join issues i on i.id = ii.issue_id
          left join states s on s.id = i.state_id where ${where}`,
    );
    total = row?.total ?? 0;
  }
  const ids = rows.map((r) => r.id);
  const found = ids.length
    ? await db
        .select()
        .from(intakeIssues)
        .where(
          sql`${intakeIssues.id} in (${sql.join(
            ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`,
        )
    : [];
  const byId = new Map(found.map((r) => [r.id, r]));
  const results = await present(
    db,
    ids.map((id) => byId.get(id)).filter((r): r is IntakeRow => r !== undefined),
  );
  const loaded = offset + results.length;
  const nextPage = loaded < total;
  const totalPages = Math.ceil(total / cursor.perPage);
  return {
    results,
    total_results: total,
    total_count: total,
    count: results.length,
    total_pages: totalPages,
    next_cursor: `${cursor.perPage}:${cursor.pageIndex + 1}:0`,
    prev_cursor: `${cursor.perPage}:${Math.max(cursor.pageIndex - 1, 0)}:0`,
    next_page_results: nextPage,
    prev_page_results: cursor.pageIndex > 0,
    extra_stats: null,
  };
}

/** One request, as the detail pane shows it. */
export async function getRequest(db: DbOrTx, access: ProjectAccess, id: string): Promise<PresentedIntakeIssue> {
  const row = await findRequest(db, access, id);
  const [out] = await present(db, [row]);
  if (!out) throw notFound("Intake work item");
  return out;
}

/** How many requests wait (pending, or snoozed past their date): the sidebar's count. */
export async function pendingCount(db: DbOrTx, access: ProjectAccess): Promise<number> {
  const own = isGuest(access) ? sql`and ii.created_by = ${access.user.id}::uuid` : sql``;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from intake_issues ii join issues i on i.id = ii.issue_id
        where ii.project_id = ${access.project.id}::uuid and i.deleted_at is null
          and ${EFFECTIVE_STATUS} = -2 ${own}`,
  );
  return row?.n ?? 0;
}

function emitRequest(
  emit: EmitFn,
  type: "intake.created" | "intake.updated" | "intake.deleted",
  r: PresentedIntakeIssue,
  extra: Record<string, unknown> = {},
) {
  emit(type, { workspaceId: r.workspace, projectId: r.project, entityId: r.id }, { ...r, ...extra });
}

/** Submit a request: a work item in the project's default state, held in intake (pending). */
export async function createRequest(
  ctx: AppContext,
  origin: EventOrigin,
  access: ProjectAccess,
  input: CreateIntakeInput,
): Promise<PresentedIntakeIssue> {
  // A guest describes the request; planning fields (people, labels, dates…) are the triager's.
  const fields = isGuest(access)
    ? { name: input.issue.name, description_html: input.issue.description_html, priority: input.issue.priority }
    : input.issue;
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const issue = await createIssue(
      tx,
      emit,
      { project: access.project, actorId: access.user.id },
      { ...fields },
      { isEpic: false, isDraft: false, inIntake: true },
    );
    const [row] = await tx
      .insert(intakeIssues)
      .values({
        workspaceId: access.project.workspaceId,
        projectId: access.project.id,
        issueId: issue.id,
        source: "IN_APP",
        createdById: access.user.id,
        updatedById: access.user.id,
      })
      .returning();
    if (!row) throw new Error("intake insert failed");
    const [out] = await present(tx, [row]);
    if (!out) throw new Error("intake request not found");
    emitRequest(emit, "intake.created", out);
    return out;
  });
}

async function checkDuplicateTarget(tx: Tx, access: ProjectAccess, row: IntakeRow, targetId: string): Promise<void> {
  const [target] = await tx
    .select({ id: issues.id, isDraft: issues.isDraft, inIntake: issues.inIntake })
    .from(issues)
    .where(and(eq(issues.id, targetId), eq(issues.projectId, access.project.id), isNull(issues.deletedAt)))
    .limit(1);
  if (!target || target.isDraft || target.inIntake || target.id === row.issueId) {
    throw badRequest(
      "duplicate_to: Pick an existing work item of this project.",
      { duplicate_to: ["Pick an existing work item of this project."] },
      "VALIDATION_ERROR",
    );
  }
}

/**
 * Triage or edit a request. Members and above set status / snoozed_till / duplicate_to and
 * edit the work item; a guest edits only the name, description and priority of their own.
 * Rules: a snooze date makes it snoozed (must be in the future), clearing it returns it to
 * pending; duplicate needs duplicate_to (an existing work item of the project); accepting
 * puts the work item into the project's lists (issue.created) and is final.
 */
export async function updateRequest(
  ctx: AppContext,
  origin: EventOrigin,
  access: ProjectAccess,
  id: string,
  input: UpdateIntakeInput,
): Promise<PresentedIntakeIssue> {
  const triaging = input.status !== undefined || input.snoozed_till !== undefined || input.duplicate_to !== undefined;
  if (triaging && isGuest(access)) throw forbidden("Only project members can triage intake requests.");
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const row = await findRequest(tx, access, id, true);
    const actor = { project: access.project, actorId: access.user.id };
    const current = effectiveStatus(row);
    if (triaging && row.status === INTAKE_STATUS.accepted) {
      throw badRequest(
        "This request was accepted: it is a work item of the project now.",
        undefined,
        "INTAKE_ACCEPTED",
      );
    }
    let status: number = input.status ?? current;
    let snoozedTill = row.snoozedTill;
    let duplicateTo = row.duplicateToId;
    if (input.snoozed_till !== undefined) {
      snoozedTill = input.snoozed_till ? new Date(input.snoozed_till) : null;
      if (input.status === undefined) status = snoozedTill ? INTAKE_STATUS.snoozed : INTAKE_STATUS.pending;
    }
    if (status === INTAKE_STATUS.snoozed) {
      if (!snoozedTill || snoozedTill <= new Date()) {
        throw badRequest(
          "snoozed_till: Pick a date in the future to snooze until.",
          { snoozed_till: ["Pick a date in the future."] },
          "VALIDATION_ERROR",
        );
      }
    } else snoozedTill = null;
    if (input.duplicate_to !== undefined) duplicateTo = input.duplicate_to;
    if (status === INTAKE_STATUS.duplicate) {
      if (!duplicateTo) {
        throw badRequest(
          "duplicate_to: Pick the work item this request duplicates.",
          { duplicate_to: ["Pick the work item this request duplicates."] },
          "VALIDATION_ERROR",
        );
      }
      await checkDuplicateTarget(tx, access, row, duplicateTo);
    } else duplicateTo = null;

    const issueInput = input.issue
      ? isGuest(access)
        ? { name: input.issue.name, description_html: input.issue.description_html, priority: input.issue.priority }
        : input.issue
      : null;
    const [issueRow] = await tx.select().from(issues).where(eq(issues.id, row.issueId)).for("update");
    if (!issueRow) throw notFound("Intake work item");
    let changed: string[] = [];
    if (issueInput && Object.values(issueInput).some((v) => v !== undefined)) {
      ({ changed } = await updateIssue(tx, emit, actor, issueRow, issueInput));
    }
    const accepting = status === INTAKE_STATUS.accepted && row.status !== INTAKE_STATUS.accepted;
    const [updated] = await tx
      .update(intakeIssues)
      .set({ status, snoozedTill, duplicateToId: duplicateTo, updatedById: access.user.id, updatedAt: new Date() })
      .where(eq(intakeIssues.id, row.id))
      .returning();
    if (!updated) throw new Error("intake row vanished");
    if (accepting) {
      await tx
        .update(issues)
        .set({ inIntake: false, updatedAt: new Date(), updatedById: access.user.id })
        .where(eq(issues.id, row.issueId));
      const item = await loadIssue(tx, row.issueId, { includeDescription: true });
      if (item) emitIssue(emit, "issue.created", item);
    }
    const [out] = await present(tx, [updated]);
    if (!out) throw new Error("intake request not found");
    // The work-item fields this call changed ([] for triage alone), as issue.updated names them:
    // an edit of a request is told to its followers from this event (notifications/service.ts),
    // since a request's work item announces no issue.* events until it is accepted.
    emitRequest(emit, "intake.updated", out, { changed_fields: changed });
    return out;
  });
}

/**
 * Delete a request (members and above). A request not accepted takes its work item with it;
 * an accepted one leaves the work item in the project.
 */
export async function deleteRequest(ctx: AppContext, origin: EventOrigin, access: ProjectAccess, id: string) {
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const row = await findRequest(tx, access, id, true);
    const [before] = await present(tx, [row]);
    if (row.status !== INTAKE_STATUS.accepted) {
      await tx
        .update(issues)
        .set({ deletedAt: new Date(), updatedById: access.user.id })
        .where(eq(issues.id, row.issueId));
    }
    await tx.delete(intakeIssues).where(eq(intakeIssues.id, row.id));
    if (before) emitRequest(emit, "intake.deleted", before);
  });
}

/** The state new requests are created in: the project's default state (no separate triage state here). */
export async function intakeState(db: DbOrTx, access: ProjectAccess) {
  const [row] = await db
    .select()
    .from(states)
    .where(and(eq(states.projectId, access.project.id), eq(states.isDefault, true)))
    .limit(1);
  if (!row) throw notFound("State");
  return row;
}
