/**
 * Relations between work items: GET/POST {type}/:id/issue-relation/, POST …/remove-relation/ and
 * DELETE …/issue-relation/:relatedId/. GET answers the relation map (every type, as seen from
 * the item); POST answers the related work items, one per item named (presentPosted).
 *
 * A related pair is stored once: "A blocking B" is the row (B, A, blocked_by), "A start_after B"
 * is (B, A, start_before), "A finish_after B" is (B, A, finish_before); relates_to and duplicate
 * are symmetric and stored as given. Each side reads the row in its own terms (the inverse for
 * the related side). A pair has one relation only, so relating it again replaces the old one.
 * Related items may live in any project of the workspace the caller can see.
 */
import { ROLE } from "@tideline/shared";
import { and, asc, eq, inArray, isNull, or } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { issueRelations, issues, projectMembers, projects, states } from "../../db/schema.ts";
import { type EmitFn, type EventOrigin, eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, notFound, parse } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import type { IssueAccess } from "../../policies/access.ts";
import { type ActivityInput, recordActivity } from "../../services/issue-activity.ts";
import {
  ITEM_TYPES,
  type ItemParams,
  type ItemType,
  itemAccess,
  itemIdentifier,
  lockItems,
  PROJECT_PATH,
} from "./common.ts";

export const RELATION_TYPES = [
  "blocked_by",
  "blocking",
  "relates_to",
  "duplicate",
  "start_before",
  "start_after",
  "finish_before",
  "finish_after",
] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** How the other side of a pair reads a relation. */
export const INVERSE_RELATION: Record<RelationType, RelationType> = {
  blocked_by: "blocking",
  blocking: "blocked_by",
  relates_to: "relates_to",
  duplicate: "duplicate",
  start_before: "start_after",
  start_after: "start_before",
  finish_before: "finish_after",
  finish_after: "finish_before",
};

/** The types kept in the table; the others are stored as their inverse, seen from the other item. */
const STORED_TYPES: ReadonlySet<RelationType> = new Set([
  "blocked_by",
  "relates_to",
  "duplicate",
  "start_before",
  "finish_before",
]);

/** Most related items one request may add. */
export const RELATIONS_PER_REQUEST = 100;

const relationType = z.enum(RELATION_TYPES, `Relation type must be one of: ${RELATION_TYPES.join(", ")}`);
const createRelationBody = z.object({
  relation_type: relationType,
  issues: z
    .array(z.uuid("Each work item is named by its id"), "List the work items to relate")
    .min(1, "Choose at least one work item")
    .max(RELATIONS_PER_REQUEST, `At most ${RELATIONS_PER_REQUEST} work items at once`),
});
const removeRelationBody = z.object({
  relation_type: relationType,
  related_issue: z.uuid("Name the related work item by its id"),
});

type RelationRow = typeof issueRelations.$inferSelect;

/** The row that stores "`issueId` `type` `otherId`". */
function storedForm(issueId: string, otherId: string, type: RelationType) {
  return STORED_TYPES.has(type)
    ? { issueId, relatedIssueId: otherId, relationType: type }
    : { issueId: otherId, relatedIssueId: issueId, relationType: INVERSE_RELATION[type] };
}

/** A stored row read from `viewerId`'s side. */
function seenFrom(row: RelationRow, viewerId: string): { otherId: string; type: RelationType } {
  const stored = row.relationType as RelationType;
  return row.issueId === viewerId
    ? { otherId: row.relatedIssueId, type: stored }
    : { otherId: row.issueId, type: INVERSE_RELATION[stored] };
}

/** A related work item as relation lists show it. */
export type RelatedItem = {
  id: string;
  name: string;
  sequence_id: number;
  project_id: string;
  project_identifier: string;
  workspace_id: string;
  state_id: string | null;
  state__group: string | null;
  priority: string;
  is_epic: boolean;
  type_id: null;
  archived_at: string | null;
};

/**
 * The items among `ids` the caller may see: same workspace, not deleted, in a project they are an
 * active member of, and (guests without guest_view_all_features) created by them.
 */
async function visibleItems(
  db: DbOrTx,
  access: IssueAccess,
  ids: readonly string[],
): Promise<Map<string, RelatedItem>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      issue: issues,
      identifier: projects.identifier,
      guestViewAll: projects.guestViewAllFeatures,
      role: projectMembers.role,
      stateGroup: states.group,
    })
    .from(issues)
    .innerJoin(projects, eq(projects.id, issues.projectId))
    .innerJoin(
      projectMembers,
      and(
        eq(projectMembers.projectId, issues.projectId),
        eq(projectMembers.memberId, access.user.id),
        eq(projectMembers.isActive, true),
      ),
    )
    .leftJoin(states, eq(states.id, issues.stateId))
    .where(
      and(inArray(issues.id, [...new Set(ids)]), eq(issues.workspaceId, access.workspace.id), isNull(issues.deletedAt)),
    );
  const out = new Map<string, RelatedItem>();
  for (const r of rows) {
    const ownOnly = r.role < ROLE.member && !r.guestViewAll;
    if (ownOnly && r.issue.createdById !== access.user.id) continue;
    out.set(r.issue.id, {
      id: r.issue.id,
      name: r.issue.name,
      sequence_id: r.issue.sequenceId,
      project_id: r.issue.projectId,
      project_identifier: r.identifier,
      workspace_id: r.issue.workspaceId,
      state_id: r.issue.stateId,
      state__group: r.stateGroup ?? null,
      priority: r.issue.priority,
      is_epic: r.issue.isEpic,
      type_id: null,
      archived_at: r.issue.archivedAt ? r.issue.archivedAt.toISOString() : null,
    });
  }
  return out;
}

export type RelationGroups = Record<
  RelationType,
  (RelatedItem & { relation_type: RelationType; relation_id: string })[]
>;

/** Every relation of the item the caller can see, grouped by type as seen from the item. */
async function relationGroups(db: DbOrTx, access: IssueAccess): Promise<RelationGroups> {
  const id = access.issue.id;
  const rows = await db
    .select()
    .from(issueRelations)
    .where(or(eq(issueRelations.issueId, id), eq(issueRelations.relatedIssueId, id)))
    .orderBy(asc(issueRelations.createdAt), asc(issueRelations.id));
  const seen = rows.map((row) => ({ row, ...seenFrom(row, id) }));
  const items = await visibleItems(
    db,
    access,
    seen.map((s) => s.otherId),
  );
  const groups = Object.fromEntries(RELATION_TYPES.map((t) => [t, []])) as unknown as RelationGroups;
  for (const s of seen) {
    const item = items.get(s.otherId);
    if (item) groups[s.type].push({ ...item, relation_type: s.type, relation_id: s.row.id });
  }
  return groups;
}

/** Activity on both items and one event per project involved (both sides, when they differ). */
async function recordRelationChange(
  tx: Tx,
  emit: EmitFn,
  access: IssueAccess,
  self: RelatedItem,
  other: RelatedItem,
  row: RelationRow,
  change: "created" | "deleted",
) {
  const { type } = seenFrom(row, self.id);
  const inverse = INVERSE_RELATION[type];
  // As the reference writes them: a new relation is an "updated" row ("" → the other item's
  // key), a removed one a "deleted" row (its key → ""); either way old_identifier names the
  // other item. (The reference's inverse row on removal keeps the type for all but
  // blocking/blocked_by and names the row's own item: we write the true inverse and the other
  // item, as its rows on creation do.) A removal's sentence names the type as the caller saw it.
  const entry = (on: RelatedItem, field: RelationType, about: RelatedItem): ActivityInput => {
    const name = itemIdentifier(about.project_identifier, about.sequence_id);
    return {
      workspaceId: on.workspace_id,
      projectId: on.project_id,
      issueId: on.id,
      actorId: access.user.id,
      verb: change === "created" ? "updated" : "deleted",
      field,
      oldIdentifier: about.id,
      ...(change === "created"
        ? { oldValue: "", newValue: name, comment: `added ${field} relation` }
        : { oldValue: name, newValue: "", comment: `deleted ${type} relation` }),
    };
  };
  await recordActivity(tx, [entry(self, type, other), entry(other, inverse, self)]);
  const eventType = change === "created" ? "relation.created" : "relation.deleted";
  const data = (from: RelatedItem, to: RelatedItem, seenType: RelationType) => ({
    id: row.id,
    issue_id: from.id,
    related_issue_id: to.id,
    relation_type: seenType,
    inverse_relation_type: INVERSE_RELATION[seenType],
    issue: from,
    related_issue: to,
  });
  emit(
    eventType,
    { workspaceId: access.workspace.id, projectId: self.project_id, entityId: row.id },
    data(self, other, type),
  );
  if (other.project_id !== self.project_id) {
    emit(
      eventType,
      { workspaceId: access.workspace.id, projectId: other.project_id, entityId: row.id },
      data(other, self, inverse),
    );
  }
}

/**
 * One related item as POST issue-relation/ answers it: the reference answers the related work
 * items (its IssueRelationSerializer / RelatedIssueSerializer: the other item's id, project_id,
 * sequence_id, name, state_id and priority, with the relation's relation_type as stored — the
 * reference stores blocking, start_after and finish_after as their inverse — and its audit
 * fields), which its web client adds to its work-item store. Our lite fields come along.
 */
type PostedRelation = RelatedItem & {
  relation_type: RelationType;
  relation_id: string;
  created_by: string | null;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
};

function presentPosted(other: RelatedItem, row: RelationRow): PostedRelation {
  return {
    ...other,
    relation_type: row.relationType as RelationType,
    relation_id: row.id,
    created_by: row.createdById,
    updated_by: row.updatedById,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The rows linking the pair, in either direction (at most one once this module wrote them). */
async function pairRows(db: DbOrTx, a: string, b: string): Promise<RelationRow[]> {
  return db
    .select()
    .from(issueRelations)
    .where(
      or(
        and(eq(issueRelations.issueId, a), eq(issueRelations.relatedIssueId, b)),
        and(eq(issueRelations.issueId, b), eq(issueRelations.relatedIssueId, a)),
      ),
    );
}

async function deleteRelation(
  tx: Tx,
  emit: EmitFn,
  access: IssueAccess,
  self: RelatedItem,
  other: RelatedItem,
  row: RelationRow,
) {
  await tx.delete(issueRelations).where(eq(issueRelations.id, row.id));
  await recordRelationChange(tx, emit, access, self, other, row, "deleted");
}

export async function registerRelationRoutes(app: FastifyInstance): Promise<void> {
  const { db, events } = app.ctx;

  /** The item itself in the lite form (it is visible: the caller reached it). */
  const selfItem = async (tx: DbOrTx, access: IssueAccess): Promise<RelatedItem> => {
    const item = (await visibleItems(tx, access, [access.issue.id])).get(access.issue.id);
    if (!item) throw notFound("Work item");
    return item;
  };

  for (const type of ITEM_TYPES) {
    const base = `${PROJECT_PATH}/${type}/:issueId`;
    const t: ItemType = type;

    app.get<{ Params: ItemParams }>(`${base}/issue-relation/`, async (request) => {
      const access = await itemAccess(db, request, t, request.params);
      return relationGroups(db, access);
    });

    app.post<{ Params: ItemParams }>(`${base}/issue-relation/`, async (request, reply) => {
      const access = await itemAccess(db, request, t, request.params, true);
      const body = parse(createRelationBody, request.body);
      const ids = [...new Set(body.issues)];
      if (ids.includes(access.issue.id)) {
        const message = "A work item can't be related to itself.";
        throw badRequest(message, { issues: [message] }, "RELATION_SELF");
      }
      const targets = await visibleItems(db, access, ids);
      const unknown = ids.filter((id) => !targets.has(id));
      if (unknown.length > 0) {
        const message = `Work item not found: ${unknown.join(", ")}`;
        throw badRequest(message, { issues: [message] }, "RELATION_UNKNOWN_ITEM");
      }
      const result = await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
        await lockItems(tx, [access.issue.id, ...ids]);
        const self = await selfItem(tx, access);
        const answered: PostedRelation[] = [];
        for (const id of ids) {
          const other = targets.get(id);
          if (!other) continue;
          const wanted = storedForm(self.id, id, body.relation_type);
          const existing = await pairRows(tx, self.id, id);
          const same = existing.find(
            (r) =>
              r.issueId === wanted.issueId &&
              r.relatedIssueId === wanted.relatedIssueId &&
              r.relationType === wanted.relationType,
          );
          // Relating again the same way changes nothing; another relation of the pair is replaced.
          for (const row of existing) if (row !== same) await deleteRelation(tx, emit, access, self, other, row);
          if (same) {
            answered.push(presentPosted(other, same));
            continue;
          }
          const [row] = await tx
            .insert(issueRelations)
            .values({
              ...wanted,
              workspaceId: access.workspace.id,
              projectId: wanted.issueId === self.id ? self.project_id : other.project_id,
              createdById: access.user.id,
              updatedById: access.user.id,
            })
            .returning();
          if (!row) throw new Error("relation insert failed");
          await recordRelationChange(tx, emit, access, self, other, row, "created");
          answered.push(presentPosted(other, row));
        }
        return answered;
      });
      return reply.status(201).send(result);
    });

    /** Remove the pair's relation; `relationTypeWanted`, when given, must be the one it has. */
    const removeRelation = async (
      access: IssueAccess,
      origin: EventOrigin,
      relatedId: string,
      relationTypeWanted: RelationType | null,
    ) => {
      if (!isUuid(relatedId)) throw notFound("Relation");
      const other = (await visibleItems(db, access, [relatedId])).get(relatedId);
      if (!other) throw notFound("Relation");
      await transactionWithEvents(db, events, origin, async (tx, emit) => {
        await lockItems(tx, [access.issue.id, relatedId]);
        const self = await selfItem(tx, access);
        const rows = (await pairRows(tx, self.id, relatedId)).filter(
          (row) => relationTypeWanted === null || seenFrom(row, self.id).type === relationTypeWanted,
        );
        if (rows.length === 0) throw notFound("Relation");
        for (const row of rows) await deleteRelation(tx, emit, access, self, other, row);
      });
    };

    app.post<{ Params: ItemParams }>(`${base}/remove-relation/`, async (request, reply) => {
      const access = await itemAccess(db, request, t, request.params, true);
      const body = parse(removeRelationBody, request.body);
      await removeRelation(access, eventOrigin(request), body.related_issue, body.relation_type);
      return reply.status(204).send();
    });

    app.delete<{ Params: ItemParams & { relatedId: string } }>(
      `${base}/issue-relation/:relatedId/`,
      async (request, reply) => {
        const access = await itemAccess(db, request, t, request.params, true);
        await removeRelation(access, eventOrigin(request), request.params.relatedId, null);
        return reply.status(204).send();
      },
    );
  }
}
