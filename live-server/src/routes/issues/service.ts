/**
 * Work-item changes: create, update (with one history row per change), delete, archive and
 * restore, publish a draft. Every function runs inside the caller's transaction and emits its
 * domain events through `emit` (published after commit). Access has been checked by the route.
 */
import { ISSUE_SORT_DEFAULT, ISSUE_SORT_STEP, isClosedStateGroup } from "@tideline/shared";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { htmlToPlainText, sanitizeRichText } from "../../content/sanitize.ts";
import { queryRows, type Tx } from "../../db/client.ts";
import {
  estimatePoints,
  estimates,
  issueAssignees,
  issueLabels,
  issues,
  labels,
  projectMembers,
  projects,
  states,
  users,
} from "../../db/schema.ts";
import type { EmitFn } from "../../events/bus.ts";
import { badRequest, type FieldErrors, notFound } from "../../http/errors.ts";
import type { IssueRow, ProjectRow } from "../../policies/access.ts";
import { recordDescriptionVersion } from "../../services/description-versions.ts";
import { type ActivityInput, recordActivity } from "../../services/issue-activity.ts";
import { ensureSubscribed } from "../../services/issue-subscriptions.ts";
import { announceDraftCycle, assignableCycle, moveItemsToCycle } from "../cycles/membership.ts";
import { scheduleCycleRefresh } from "../cycles/progress.ts";
import { setIssueModules } from "../modules/membership.ts";
import { loadIssue, loadIssues, type PresentedIssue } from "./query.ts";
import type { CreateIssueInput, UpdateIssueInput } from "./schema.ts";

/** Who changes what, where. */
export type IssueActor = { project: ProjectRow; actorId: string };

/** The project's states, labels, members and active estimate points, to check ids and name them. */
export type ProjectRefs = {
  states: Map<string, { id: string; name: string; group: string; isDefault: boolean; sequence: number }>;
  labels: Map<string, { id: string; name: string }>;
  members: Map<string, { id: string; name: string }>;
  points: Map<string, { id: string; value: string }>;
};

/**
 * Which references to read: the whole project by default; an update reads only what its form
 * names (refsScopeOf), since a project with hundreds of members made every PATCH read them all.
 */
export type RefsScope = { states: boolean; labels: boolean; points: boolean; memberIds: readonly string[] | "all" };

const ALL_REFS: RefsScope = { states: true, labels: true, points: true, memberIds: "all" };

/**
 * The references an update needs: states when it changes the state (the old and new state's
 * names and groups), every label when it sets labels (removed ones are named in the history),
 * the points when it sets one, and only the members it assigns (userNames looks up the rest).
 */
export function refsScopeOf(input: FormInput): RefsScope {
  return {
    states: input.state_id !== undefined,
    labels: input.label_ids !== undefined,
    points: input.estimate_point !== undefined,
    memberIds: input.assignee_ids ?? [],
  };
}

export async function loadProjectRefs(tx: Tx, project: ProjectRow, scope: RefsScope = ALL_REFS): Promise<ProjectRefs> {
  // One after another: a transaction is one connection, and pg refuses overlapping queries on it.
  const stateRows = scope.states
    ? await tx
        .select({
          id: states.id,
          name: states.name,
          group: states.group,
          isDefault: states.isDefault,
          sequence: states.sequence,
        })
        .from(states)
        .where(eq(states.projectId, project.id))
    : [];
  const labelRows = scope.labels
    ? await tx.select({ id: labels.id, name: labels.name }).from(labels).where(eq(labels.projectId, project.id))
    : [];
  const { memberIds } = scope;
  const memberRows =
    memberIds === "all" || memberIds.length > 0
      ? await tx
          .select({ id: users.id, name: users.displayName })
          .from(projectMembers)
          .innerJoin(users, eq(users.id, projectMembers.memberId))
          .where(
            and(
              eq(projectMembers.projectId, project.id),
              eq(projectMembers.isActive, true),
              memberIds === "all" ? undefined : inArray(projectMembers.memberId, [...new Set(memberIds)]),
            ),
          )
      : [];
  const pointRows =
    scope.points && project.estimateId
      ? await tx
          .select({ id: estimatePoints.id, value: estimatePoints.value })
          .from(estimatePoints)
          .where(and(eq(estimatePoints.estimateId, project.estimateId), eq(estimatePoints.projectId, project.id)))
      : [];
  return {
    states: new Map(stateRows.map((r) => [r.id, r])),
    labels: new Map(labelRows.map((r) => [r.id, r])),
    members: new Map(memberRows.map((r) => [r.id, r])),
    points: new Map(pointRows.map((r) => [r.id, r])),
  };
}

/** The state a new item starts in: the project's default, else its first state. */
function defaultState(refs: ProjectRefs) {
  const all = [...refs.states.values()];
  return all.find((s) => s.isDefault) ?? all.sort((a, b) => a.sequence - b.sequence)[0] ?? null;
}

/** Ancestors of `parentId` (itself first), to refuse a parent that would close a loop. */
async function ancestorChain(tx: Tx, parentId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`with recursive chain(id, parent_id, depth) as (
          select id, parent_id, 0 from issues where id = ${parentId}::uuid
          union all
          select i.id, i.parent_id, c.depth + 1 from issues i join chain c on i.id = c.parent_id where c.depth < 1000
        ) select id::text as id from chain`,
  );
  return rows.map((r) => r.id);
}

type FormInput = Partial<UpdateIssueInput>;

/**
 * Check every reference of a form against the project (states, members, labels, estimate
 * points, parent) and the date order of the resulting item. Throws one 400 naming each bad
 * field, before anything is written.
 */
export async function validateIssueForm(
  tx: Tx,
  project: ProjectRow,
  refs: ProjectRefs,
  input: FormInput,
  current: IssueRow | null,
): Promise<void> {
  const fields: FieldErrors = {};
  const add = (key: string, message: string) => {
    fields[key] = [...(fields[key] ?? []), message];
  };
  if (input.project_id !== undefined && input.project_id !== project.id) {
    add("project_id", "Moving a work item to another project is not supported here.");
  }
  if (input.state_id !== undefined) {
    if (input.state_id === null) {
      if (current) add("state_id", "A work item always has a state.");
    } else if (!refs.states.has(input.state_id)) add("state_id", "This state is not one of the project's states.");
  }
  for (const id of input.assignee_ids ?? []) {
    if (!refs.members.has(id)) add("assignee_ids", `${id} is not a member of this project.`);
  }
  for (const id of input.label_ids ?? []) {
    if (!refs.labels.has(id)) add("label_ids", `${id} is not a label of this project.`);
  }
  if (input.estimate_point) {
    if (!project.estimateId) add("estimate_point", "This project has no estimates enabled.");
    else if (!refs.points.has(input.estimate_point))
      add("estimate_point", "This is not a point of the project's active estimate.");
  }
  if (input.parent_id) {
    if (current && input.parent_id === current.id) add("parent_id", "A work item cannot be its own parent.");
    else {
      const [parent] = await tx
        .select({ id: issues.id, isDraft: issues.isDraft, inIntake: issues.inIntake })
        .from(issues)
        .where(and(eq(issues.id, input.parent_id), eq(issues.projectId, project.id), isNull(issues.deletedAt)))
        .limit(1);
      if (!parent || parent.isDraft || parent.inIntake)
        add("parent_id", "The parent must be a work item of this project.");
      else if (current && (await ancestorChain(tx, parent.id)).includes(current.id)) {
        add("parent_id", "This parent is a sub-issue of this work item: that would make a loop.");
      }
    }
  }
  const start = input.start_date !== undefined ? input.start_date : (current?.startDate ?? null);
  const target = input.target_date !== undefined ? input.target_date : (current?.targetDate ?? null);
  if (start && target && start > target) {
    add(
      input.start_date !== undefined ? "start_date" : "target_date",
      "The start date must be on or before the due date.",
    );
  }
  if (Object.keys(fields).length) {
    const [first] = Object.entries(fields);
    throw badRequest(first ? `${first[0]}: ${first[1][0]}` : "Invalid work item", fields, "VALIDATION_ERROR");
  }
}

/**
 * The item's row read again inside the transaction, locked: changes are computed from what is
 * stored now, not from what the access check read a moment before.
 */
export async function lockIssueRow(tx: Tx, row: IssueRow): Promise<IssueRow> {
  const [fresh] = await tx.select().from(issues).where(eq(issues.id, row.id)).for("update");
  if (!fresh || fresh.deletedAt) throw notFound("Work item");
  return fresh;
}

/** Next number of the project, under the project row's lock: gap-free and unique (rolled back with the insert). */
async function nextSequenceId(tx: Tx, projectId: string): Promise<number> {
  const [row] = await tx
    .update(projects)
    .set({ lastSequenceId: sql`${projects.lastSequenceId} + 1` })
    .where(eq(projects.id, projectId))
    .returning({ value: projects.lastSequenceId });
  if (!row) throw new Error("project row missing");
  return row.value;
}

async function appendedSortOrder(tx: Tx, projectId: string): Promise<number> {
  const [row] = await queryRows<{ max: number | null }>(
    tx,
    sql`select max(sort_order) as max from issues where project_id = ${projectId}::uuid and deleted_at is null`,
  );
  const max = row?.max;
  return max === null || max === undefined ? ISSUE_SORT_DEFAULT : Number(max) + ISSUE_SORT_STEP;
}

/** `inIntake`: an intake request (routes/intake): recorded, but in no list and not announced until accepted. */
export type CreateOptions = { isEpic: boolean; isDraft: boolean; inIntake?: boolean };

/**
 * Create a work item (or a draft). Drafts get their number now but no history, subscriptions
 * or event until they are published.
 */
export async function createIssue(
  tx: Tx,
  emit: EmitFn,
  actor: IssueActor,
  input: CreateIssueInput,
  options: CreateOptions,
): Promise<PresentedIssue> {
  const { project, actorId } = actor;
  const refs = await loadProjectRefs(tx, project);
  await validateIssueForm(tx, project, refs, input, null);
  const cycle = input.cycle_id ? await assignableCycle(tx, project, input.cycle_id) : null;
  const state = input.state_id ? refs.states.get(input.state_id) : defaultState(refs);
  const sequenceId = await nextSequenceId(tx, project.id);
  const sortOrder = input.sort_order ?? (await appendedSortOrder(tx, project.id));
  const html = input.description_html ? sanitizeRichText(input.description_html) : "<p></p>";
  const [row] = await tx
    .insert(issues)
    .values({
      workspaceId: project.workspaceId,
      projectId: project.id,
      sequenceId,
      name: input.name,
      descriptionHtml: html,
      descriptionStripped: htmlToPlainText(html),
      priority: input.priority ?? "none",
      stateId: state?.id ?? null,
      parentId: input.parent_id ?? null,
      estimatePointId: input.estimate_point ?? null,
      startDate: input.start_date ?? null,
      targetDate: input.target_date ?? null,
      sortOrder,
      completedAt: state?.group === "completed" ? new Date() : null,
      isDraft: options.isDraft,
      isEpic: options.isEpic,
      inIntake: options.inIntake ?? false,
      createdById: actorId,
      updatedById: actorId,
    })
    .returning();
  if (!row) throw new Error("insert failed");
  const scope = { workspaceId: project.workspaceId, projectId: project.id };
  const assigneeIds = [...new Set(input.assignee_ids ?? [])];
  const labelIds = [...new Set(input.label_ids ?? [])];
  if (assigneeIds.length) {
    await tx
      .insert(issueAssignees)
      .values(assigneeIds.map((assigneeId) => ({ issueId: row.id, assigneeId, ...scope, createdById: actorId })));
  }
  if (labelIds.length) {
    await tx
      .insert(issueLabels)
      .values(labelIds.map((labelId) => ({ issueId: row.id, labelId, ...scope, createdById: actorId })));
  }
  if (!options.isDraft) await announceCreated(tx, actorId, row, assigneeIds);
  if (cycle) await moveItemsToCycle(tx, emit, actor, [row], cycle.id, { target: cycle, quiet: options.isDraft });
  if (input.module_ids?.length) {
    // A module of another project is a 400 here, and the whole creation rolls back.
    const modules = await setIssueModules(tx, actorId, row, input.module_ids);
    if (!options.isDraft) await recordActivity(tx, modules.activity);
  }
  const presented = await loadIssue(tx, row.id, { includeDescription: true });
  if (!presented) throw new Error("created item not found");
  if (!options.isDraft && !options.inIntake) emitIssue(emit, "issue.created", presented);
  return presented;
}

/**
 * History and subscriptions of a newly visible item (created, or a published draft). As the
 * reference records a creation: the "created" row (no field, no values), then one "added
 * assignee" row per assignee.
 */
async function announceCreated(tx: Tx, actorId: string, row: IssueRow, assigneeIds: string[]) {
  await ensureSubscribed(tx, row, [row.createdById ?? actorId, ...assigneeIds]);
  await recordDescriptionVersion(
    tx,
    row,
    { html: row.descriptionHtml, stripped: row.descriptionStripped, state: row.descriptionBinary },
    actorId,
  );
  const base = { workspaceId: row.workspaceId, projectId: row.projectId, issueId: row.id, actorId };
  const names = assigneeIds.length
    ? new Map(
        (
          await tx.select({ id: users.id, name: users.displayName }).from(users).where(inArray(users.id, assigneeIds))
        ).map((u) => [u.id, u.name]),
      )
    : new Map<string, string>();
  await recordActivity(tx, [
    { ...base, verb: "created", field: null },
    ...assigneeIds.map((id) => ({
      ...base,
      verb: "updated" as const,
      field: "assignees",
      newValue: names.get(id) ?? null,
      newIdentifier: id,
    })),
  ]);
}

/** Work-item fields that change a cycle's counters or distribution. */
const CYCLE_PROGRESS_FIELDS = new Set(["state_id", "estimate_point", "cycle_id", "assignee_ids", "label_ids"]);

export function emitIssue(
  emit: EmitFn,
  type: "issue.created" | "issue.updated" | "issue.deleted" | "issue.archived" | "issue.restored",
  issue: PresentedIssue,
  extra: Record<string, unknown> = {},
): void {
  // A change that moves a cycle's numbers refreshes them for every open screen (cycle.updated).
  const changed = Array.isArray(extra.changed_fields) ? (extra.changed_fields as string[]) : null;
  if (issue.cycle_id && (!changed || changed.some((f) => CYCLE_PROGRESS_FIELDS.has(f)))) {
    scheduleCycleRefresh(emit, issue.cycle_id);
  }
  emit(
    type,
    { workspaceId: issue.workspace_id, projectId: issue.project_id, entityId: issue.id },
    { ...issue, ...extra },
  );
}

/** Publish a draft: it becomes a real item (history, subscriptions, issue.created). */
export async function publishDraft(tx: Tx, emit: EmitFn, actorId: string, row: IssueRow): Promise<PresentedIssue> {
  const [updated] = await tx
    .update(issues)
    .set({ isDraft: false, updatedById: actorId })
    .where(eq(issues.id, row.id))
    .returning();
  if (!updated) throw new Error("draft vanished");
  const assignees = await tx
    .select({ id: issueAssignees.assigneeId })
    .from(issueAssignees)
    .where(eq(issueAssignees.issueId, row.id));
  await announceCreated(
    tx,
    actorId,
    updated,
    assignees.map((a) => a.id),
  );
  await announceDraftCycle(tx, emit, updated, actorId);
  const presented = await loadIssue(tx, row.id, { includeDescription: true });
  if (!presented) throw new Error("published item not found");
  emitIssue(emit, "issue.created", presented);
  return presented;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** Work-item label, e.g. "WEB-12", for history rows about parents. */
async function issueKeys(tx: Tx, project: ProjectRow, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = ids.filter((id): id is string => Boolean(id));
  if (!wanted.length) return new Map();
  const rows = await tx
    .select({ id: issues.id, seq: issues.sequenceId })
    .from(issues)
    .where(inArray(issues.id, wanted));
  return new Map(rows.map((r) => [r.id, `${project.identifier}-${r.seq}`]));
}

export type UpdateResult = { issue: PresentedIssue; changed: string[] };

/**
 * Apply a default-form patch to one item: only fields that really change are written and
 * recorded (one history row per field; per added or removed assignee/label). New assignees
 * are subscribed. `quiet` (drafts) skips history, subscriptions and the event.
 */
export async function updateIssue(
  tx: Tx,
  emit: EmitFn,
  actor: IssueActor,
  current: IssueRow,
  input: FormInput,
  options: { quiet?: boolean; refs?: ProjectRefs } = {},
): Promise<UpdateResult> {
  const { project, actorId } = actor;
  if (input.parent_id !== undefined && input.parent_id !== current.parentId) {
    // The same lock the sub-issue routes take (issue-details/sub-issues.ts): two concurrent
    // re-parentings can't each pass the loop check and together close a loop.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`issue-tree:${project.id}`}))`);
  }
  const refs = options.refs ?? (await loadProjectRefs(tx, project, refsScopeOf(input)));
  await validateIssueForm(tx, project, refs, input, current);

  const set: Partial<typeof issues.$inferInsert> = {};
  const activity: ActivityInput[] = [];
  const changed: string[] = [];
  const base = { workspaceId: current.workspaceId, projectId: current.projectId, issueId: current.id, actorId };
  const log = (entry: Omit<ActivityInput, keyof typeof base | "verb">) =>
    activity.push({ ...base, verb: "updated", ...entry });

  if (input.name !== undefined && input.name !== current.name) {
    set.name = input.name;
    changed.push("name");
    log({ field: "name", oldValue: current.name, newValue: input.name });
  }
  if (input.description_html !== undefined) {
    const html = sanitizeRichText(input.description_html ?? "");
    if (html !== current.descriptionHtml) {
      set.descriptionHtml = html;
      set.descriptionStripped = htmlToPlainText(html);
      // The live document is rebuilt from the new HTML rather than overriding it with stale state.
      set.descriptionBinary = null;
      changed.push("description_html");
      log({ field: "description", oldValue: current.descriptionHtml, newValue: html });
      if (!options.quiet) {
        await recordDescriptionVersion(tx, current, { html, stripped: htmlToPlainText(html), state: null }, actorId);
      }
    }
  }
  if (input.state_id && input.state_id !== current.stateId) {
    const next = refs.states.get(input.state_id);
    const prev = current.stateId ? refs.states.get(current.stateId) : undefined;
    set.stateId = input.state_id;
    if (next?.group === "completed") {
      if (prev?.group !== "completed" || !current.completedAt) set.completedAt = new Date();
    } else if (current.completedAt) set.completedAt = null;
    changed.push("state_id");
    log({
      field: "state",
      oldValue: prev?.name ?? null,
      newValue: next?.name ?? null,
      oldIdentifier: current.stateId,
      newIdentifier: input.state_id,
    });
  }
  if (input.priority !== undefined && input.priority !== current.priority) {
    set.priority = input.priority;
    changed.push("priority");
    log({ field: "priority", oldValue: current.priority, newValue: input.priority });
  }
  if (input.parent_id !== undefined && input.parent_id !== current.parentId) {
    set.parentId = input.parent_id;
    changed.push("parent_id");
    const keys = await issueKeys(tx, project, [current.parentId, input.parent_id]);
    log({
      field: "parent",
      oldValue: current.parentId ? (keys.get(current.parentId) ?? null) : null,
      newValue: input.parent_id ? (keys.get(input.parent_id) ?? null) : null,
      oldIdentifier: current.parentId,
      newIdentifier: input.parent_id,
    });
  }
  if (input.estimate_point !== undefined && input.estimate_point !== current.estimatePointId) {
    set.estimatePointId = input.estimate_point;
    changed.push("estimate_point");
    const ids = [current.estimatePointId, input.estimate_point].filter((id): id is string => Boolean(id));
    const points = new Map(
      (
        await tx
          .select({ id: estimatePoints.id, value: estimatePoints.value, type: estimates.type })
          .from(estimatePoints)
          .innerJoin(estimates, eq(estimates.id, estimatePoints.estimateId))
          .where(inArray(estimatePoints.id, ids))
      ).map((p) => [p.id, p]),
    );
    const prev = current.estimatePointId ? points.get(current.estimatePointId) : undefined;
    const next = input.estimate_point ? points.get(input.estimate_point) : undefined;
    // The reference names the field after the estimate's type (estimate_points, estimate_categories)
    // and calls clearing it "removed" (it names the cleared estimate by the old point's type).
    activity.push({
      ...base,
      verb: input.estimate_point ? "updated" : "removed",
      field: `estimate_${(next ?? prev)?.type ?? "points"}`,
      oldValue: prev?.value ?? null,
      newValue: next?.value ?? null,
      oldIdentifier: current.estimatePointId,
      newIdentifier: input.estimate_point,
    });
  }
  for (const key of ["start_date", "target_date"] as const) {
    const value = input[key];
    const old = key === "start_date" ? current.startDate : current.targetDate;
    if (value !== undefined && value !== old) {
      if (key === "start_date") set.startDate = value;
      else set.targetDate = value;
      changed.push(key);
      log({ field: key, oldValue: old, newValue: value });
    }
  }
  if (input.sort_order !== undefined && input.sort_order !== current.sortOrder) {
    // Reordering is not history: a drag would otherwise flood it.
    set.sortOrder = input.sort_order;
    changed.push("sort_order");
  }

  if (input.cycle_id !== undefined) {
    const moved = await moveItemsToCycle(tx, emit, actor, [current], input.cycle_id, {
      quiet: options.quiet || current.isDraft,
    });
    if (moved.length) changed.push("cycle_id");
  }

  const scope = { workspaceId: current.workspaceId, projectId: current.projectId };
  let addedAssignees: string[] = [];
  if (input.assignee_ids !== undefined) {
    const now = (
      await tx
        .select({ id: issueAssignees.assigneeId })
        .from(issueAssignees)
        .where(eq(issueAssignees.issueId, current.id))
    ).map((r) => r.id);
    const next = [...new Set(input.assignee_ids)];
    if (!sameList(now, next)) {
      addedAssignees = next.filter((id) => !now.includes(id));
      const removed = now.filter((id) => !next.includes(id));
      if (removed.length)
        await tx
          .delete(issueAssignees)
          .where(and(eq(issueAssignees.issueId, current.id), inArray(issueAssignees.assigneeId, removed)));
      if (addedAssignees.length)
        await tx
          .insert(issueAssignees)
          .values(
            addedAssignees.map((assigneeId) => ({ issueId: current.id, assigneeId, ...scope, createdById: actorId })),
          );
      const names = await userNames(tx, [...removed, ...addedAssignees], refs);
      for (const id of removed) log({ field: "assignees", oldValue: names.get(id) ?? null, oldIdentifier: id });
      for (const id of addedAssignees) log({ field: "assignees", newValue: names.get(id) ?? null, newIdentifier: id });
      changed.push("assignee_ids");
    }
  }
  if (input.label_ids !== undefined) {
    const now = (
      await tx.select({ id: issueLabels.labelId }).from(issueLabels).where(eq(issueLabels.issueId, current.id))
    ).map((r) => r.id);
    const next = [...new Set(input.label_ids)];
    if (!sameList(now, next)) {
      const added = next.filter((id) => !now.includes(id));
      const removed = now.filter((id) => !next.includes(id));
      if (removed.length)
        await tx
          .delete(issueLabels)
          .where(and(eq(issueLabels.issueId, current.id), inArray(issueLabels.labelId, removed)));
      if (added.length)
        await tx
          .insert(issueLabels)
          .values(added.map((labelId) => ({ issueId: current.id, labelId, ...scope, createdById: actorId })));
      for (const id of removed)
        log({ field: "labels", oldValue: refs.labels.get(id)?.name ?? null, oldIdentifier: id });
      for (const id of added) log({ field: "labels", newValue: refs.labels.get(id)?.name ?? null, newIdentifier: id });
      changed.push("label_ids");
    }
  }
  if (input.module_ids !== undefined) {
    const modules = await setIssueModules(tx, actorId, current, input.module_ids);
    if (modules.added.length || modules.removed.length) {
      activity.push(...modules.activity);
      changed.push("module_ids");
    }
  }

  if (changed.length) {
    await tx
      .update(issues)
      .set({ ...set, updatedById: actorId, updatedAt: new Date() })
      .where(eq(issues.id, current.id));
  }
  const presented = await loadIssue(tx, current.id, { includeDescription: true, includeDeleted: true });
  if (!presented) throw new Error("updated item not found");
  if (changed.length && !options.quiet && !current.isDraft) {
    await recordActivity(tx, activity);
    if (addedAssignees.length) await ensureSubscribed(tx, current, addedAssignees);
    // An intake request is announced by intake.* events (routes/intake) until it is accepted.
    if (!current.inIntake) emitIssue(emit, "issue.updated", presented, { changed_fields: changed });
  }
  return { issue: presented, changed };
}

/** Display names of users (members from refs; others, e.g. removed members, looked up). */
async function userNames(tx: Tx, ids: string[], refs: ProjectRefs): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const missing: string[] = [];
  for (const id of ids) {
    const member = refs.members.get(id);
    if (member) out.set(id, member.name);
    else missing.push(id);
  }
  if (missing.length) {
    const rows = await tx
      .select({ id: users.id, name: users.displayName })
      .from(users)
      .where(inArray(users.id, missing));
    for (const r of rows) out.set(r.id, r.name);
  }
  return out;
}

/**
 * Soft-delete items: deleted_at set, history row, issue.deleted with the item as it was. Their
 * sub-issues are detached (parent cleared, with history and issue.updated) so no visible
 * item points at a deleted parent.
 */
export async function deleteIssues(tx: Tx, emit: EmitFn, actor: IssueActor, rows: IssueRow[]): Promise<void> {
  if (!rows.length) return;
  const ids = rows.map((r) => r.id);
  const before = await loadIssues(tx, { ids, includeDescription: true });
  const now = new Date();
  await tx
    .update(issues)
    .set({ deletedAt: now, updatedAt: now, updatedById: actor.actorId })
    .where(inArray(issues.id, ids));
  await recordActivity(
    tx,
    rows.map((r) => ({
      workspaceId: r.workspaceId,
      projectId: r.projectId,
      issueId: r.id,
      actorId: actor.actorId,
      verb: "deleted" as const,
      field: "issue",
    })),
  );
  const children = await tx
    .select()
    .from(issues)
    .where(and(inArray(issues.parentId, ids), isNull(issues.deletedAt)));
  if (children.length) {
    const refs = await loadProjectRefs(tx, actor.project);
    for (const child of children) {
      if (child.isDraft) {
        await tx.update(issues).set({ parentId: null }).where(eq(issues.id, child.id));
        continue;
      }
      await updateIssue(tx, emit, actor, child, { parent_id: null }, { refs });
    }
  }
  for (const issue of before) emitIssue(emit, "issue.deleted", issue, { deleted_at: now.toISOString() });
}

/** Only closed items (completed or cancelled) may be archived (product-domain §5). */
export function assertArchivable(row: IssueRow, refs: ProjectRefs, label = "This work item"): void {
  if (row.archivedAt) throw badRequest(`${label} is already archived.`, undefined, "ALREADY_ARCHIVED");
  const group = row.stateId ? refs.states.get(row.stateId)?.group : undefined;
  if (!isClosedStateGroup(group)) {
    throw badRequest(
      `${label} can't be archived: only work items in a completed or cancelled state can be archived.`,
      undefined,
      "NOT_ARCHIVABLE",
    );
  }
}

export async function archiveIssues(tx: Tx, emit: EmitFn, actor: IssueActor, rows: IssueRow[]): Promise<Date> {
  const now = new Date();
  const ids = rows.map((r) => r.id);
  await tx
    .update(issues)
    .set({ archivedAt: now, updatedAt: now, updatedById: actor.actorId })
    .where(inArray(issues.id, ids));
  await recordActivity(
    tx,
    rows.map((r) => ({
      workspaceId: r.workspaceId,
      projectId: r.projectId,
      issueId: r.id,
      actorId: actor.actorId,
      // The reference: an "updated" row of archived_at, new value "manual_archive" when a
      // person archived it ("archive" is its automation's).
      verb: "updated" as const,
      field: "archived_at",
      newValue: "manual_archive",
    })),
  );
  for (const issue of await loadIssues(tx, { ids, includeDescription: true })) {
    emitIssue(emit, "issue.archived", issue);
  }
  return now;
}

export async function restoreIssue(tx: Tx, emit: EmitFn, actor: IssueActor, row: IssueRow): Promise<PresentedIssue> {
  if (!row.archivedAt) throw badRequest("This work item is not archived.", undefined, "NOT_ARCHIVED");
  await tx
    .update(issues)
    .set({ archivedAt: null, updatedAt: new Date(), updatedById: actor.actorId })
    .where(eq(issues.id, row.id));
  await recordActivity(tx, {
    workspaceId: row.workspaceId,
    projectId: row.projectId,
    issueId: row.id,
    actorId: actor.actorId,
    verb: "updated",
    field: "archived_at",
    oldValue: "archive",
    newValue: "restore",
  });
  const issue = await loadIssue(tx, row.id, { includeDescription: true });
  if (!issue) throw new Error("restored item not found");
  emitIssue(emit, "issue.restored", issue);
  return issue;
}
