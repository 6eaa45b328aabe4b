/**
 * Which modules a work item is in (module_issues). Every path that changes it — work-item
 * create / patch / bulk / drafts with `module_ids`, POST modules/{id}/issues/, DELETE
 * modules/{id}/issues/{issueId}/, POST issues/{id}/modules/, deleting a module — goes through
 * `changeIssueModules`, which writes the rows and returns the history rows ("added to module
 * X": field `modules`, new_value the name, new_identifier the id; removal: old_*), so history
 * and the completion chart (progress.ts) agree with the data. Callers record the history and
 * emit issue.updated with `module_ids`.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { moduleIssues, modules } from "../../db/schema.ts";
import { badRequest } from "../../http/errors.ts";
import type { ActivityInput } from "../../services/issue-activity.ts";

export type ModuleRef = { id: string; name: string; archivedAt: Date | null };

/**
 * The modules `ids` of the project, by id. An id that is not a module of this project (another
 * project's, another workspace's, or none) is a 400 naming `field`, before anything is written.
 */
export async function projectModules(
  tx: Tx,
  projectId: string,
  ids: readonly string[],
  field = "module_ids",
): Promise<Map<string, ModuleRef>> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return new Map();
  const rows = await tx
    .select({ id: modules.id, name: modules.name, archivedAt: modules.archivedAt })
    .from(modules)
    .where(and(inArray(modules.id, wanted), eq(modules.projectId, projectId)));
  const found = new Map(rows.map((r) => [r.id, r]));
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length) {
    const message = `${missing[0]} is not a module of this project.`;
    throw badRequest(`${field}: ${message}`, {
      [field]: missing.map((id) => `${id} is not a module of this project.`),
    });
  }
  return found;
}

/** The modules a work item is in now. */
export async function issueModuleIds(tx: Tx, issueId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: moduleIssues.moduleId })
    .from(moduleIssues)
    .where(eq(moduleIssues.issueId, issueId));
  return rows.map((r) => r.id);
}

type Item = { id: string; workspaceId: string; projectId: string };

export type ModuleChange = { added: string[]; removed: string[]; activity: ActivityInput[] };

/**
 * Put `item` in the modules of `add` and take it out of those of `remove` (already checked to
 * be the project's, see projectModules). Only real changes are written and returned.
 */
export async function changeIssueModules(
  tx: Tx,
  actorId: string,
  item: Item,
  change: { add?: readonly string[]; remove?: readonly string[] },
  refs: Map<string, ModuleRef>,
): Promise<ModuleChange> {
  const now = await issueModuleIds(tx, item.id);
  const added = [...new Set(change.add ?? [])].filter((id) => !now.includes(id));
  // An archived module takes no new work items (it can't be changed until restored).
  const archived = added.map((id) => refs.get(id)).find((ref) => ref?.archivedAt);
  if (archived) {
    throw badRequest(
      `module_ids: ${archived.name} is archived. Restore it before adding work items.`,
      { module_ids: [`${archived.name} is archived. Restore it before adding work items.`] },
      "MODULE_ARCHIVED",
    );
  }
  const removed = [...new Set(change.remove ?? [])].filter((id) => now.includes(id) && !added.includes(id));
  const scope = { workspaceId: item.workspaceId, projectId: item.projectId };
  if (added.length) {
    await tx
      .insert(moduleIssues)
      .values(added.map((moduleId) => ({ moduleId, issueId: item.id, ...scope, createdById: actorId })))
      .onConflictDoNothing();
  }
  if (removed.length) {
    await tx
      .delete(moduleIssues)
      .where(and(eq(moduleIssues.issueId, item.id), inArray(moduleIssues.moduleId, removed)));
  }
  const base = { ...scope, issueId: item.id, actorId, verb: "updated" as const, field: "modules" };
  const activity: ActivityInput[] = [
    ...removed.map((id) => ({ ...base, oldValue: refs.get(id)?.name ?? null, oldIdentifier: id })),
    ...added.map((id) => ({ ...base, newValue: refs.get(id)?.name ?? null, newIdentifier: id })),
  ];
  return { added, removed, activity };
}

/**
 * Set an item's unarchived modules to exactly `next` (work-item create and patch with
 * module_ids). Memberships of archived modules are kept: presented `module_ids` leave archived
 * modules out, so a client sending back the list it was shown must not take the item out of them.
 */
export async function setIssueModules(
  tx: Tx,
  actorId: string,
  item: Item,
  next: readonly string[],
): Promise<ModuleChange> {
  const refs = await projectModules(tx, item.projectId, next);
  const now = await issueModuleIds(tx, item.id);
  const leaving = now.filter((id) => !next.includes(id));
  const remove: string[] = [];
  if (leaving.length) {
    for (const [id, ref] of await projectModules(tx, item.projectId, leaving)) {
      refs.set(id, ref);
      if (!ref.archivedAt) remove.push(id);
    }
  }
  return changeIssueModules(tx, actorId, item, { add: next, remove }, refs);
}
