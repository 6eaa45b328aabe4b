import { ROLE } from "@tideline/shared";
import { eq, or } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness.ts";
import { issueRelations } from "../../db/schema.ts";
import { addMember, createProject } from "../projects/test-support.ts";
import {
  activityOf,
  as,
  createFixture,
  createItem,
  eventsDuring,
  type Fixture,
  type ItemRow,
  itemUrl,
  type TestProject,
} from "./test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

const relationRows = (id: string) =>
  t.db
    .select()
    .from(issueRelations)
    .where(or(eq(issueRelations.issueId, id), eq(issueRelations.relatedIssueId, id)));

type Group = { id: string; relation_type: string }[];
const groupsOf = async (project: TestProject, item: ItemRow, user = f.w.member) => {
  const res = await as(t, user).get(`${itemUrl(project, item)}/issue-relation/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Record<string, Group>;
};
const idsIn = (groups: Record<string, Group>) =>
  Object.fromEntries(
    Object.entries(groups)
      .filter(([, list]) => list.length > 0)
      .map(([type, list]) => [type, list.map((i) => i.id)]),
  );

describe("relations", () => {
  it("stores blocking once and reads it from both sides", async () => {
    const a = await createItem(t, f.project, f.w.admin);
    const b = await createItem(t, f.project, f.w.admin);
    const { result: res, events } = await eventsDuring(t, f, () =>
      as(t, f.w.member).post(`${itemUrl(f.project, a)}/issue-relation/`, { relation_type: "blocking", issues: [b.id] }),
    );
    expect(res.statusCode, res.body).toBe(201);
    // The reference answers the related work items (relation_type as stored: blocking is kept as
    // the other item's blocked_by), not the relation map.
    const rows = await relationRows(a.id);
    expect(res.json()).toEqual([
      expect.objectContaining({
        id: b.id,
        name: b.name,
        sequence_id: b.sequenceId,
        project_id: f.project.id,
        project_identifier: f.project.identifier,
        state_id: b.stateId,
        priority: "none",
        relation_type: "blocked_by",
        relation_id: rows[0]?.id,
        created_by: f.w.member.id,
        updated_by: f.w.member.id,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      }),
    ]);
    expect(idsIn(await groupsOf(f.project, a))).toEqual({ blocking: [b.id] });

    // One row: b blocked_by a.
    expect(rows.map((r) => [r.issueId, r.relatedIssueId, r.relationType])).toEqual([[b.id, a.id, "blocked_by"]]);
    expect(idsIn(await groupsOf(f.project, b))).toEqual({ blocked_by: [a.id] });
    expect(idsIn(await groupsOf(f.project, a, f.w.guest))).toEqual({ blocking: [b.id] });

    // As the reference writes an added relation: "updated", "" → the other's key, the other in old_identifier.
    const ref = (i: ItemRow) => `${f.project.identifier}-${i.sequenceId}`;
    const shape = (x: Awaited<ReturnType<typeof activityOf>>[number]) => [
      x.field,
      x.verb,
      x.oldValue,
      x.newValue,
      x.oldIdentifier,
      x.newIdentifier,
      x.comment,
    ];
    expect((await activityOf(t, a.id)).map(shape)).toEqual([
      ["blocking", "updated", "", ref(b), b.id, null, "added blocking relation"],
    ]);
    expect((await activityOf(t, b.id)).map(shape)).toEqual([
      ["blocked_by", "updated", "", ref(a), a.id, null, "added blocked_by relation"],
    ]);
    expect(events.map((e) => e.type)).toEqual(["relation.created"]);
    expect(events[0]).toMatchObject({
      project_id: f.project.id,
      entity_id: rows[0]?.id,
      data: { issue_id: a.id, related_issue_id: b.id, relation_type: "blocking", inverse_relation_type: "blocked_by" },
    });
  });

  it("keeps relates_to and duplicate symmetric and the timeline pairs inverse", async () => {
    const [a, b, c, d, e] = await Promise.all([1, 2, 3, 4, 5].map(() => createItem(t, f.project, f.w.admin)));
    if (!a || !b || !c || !d || !e) throw new Error("items");
    const member = as(t, f.w.member);
    await member.post(`${itemUrl(f.project, a)}/issue-relation/`, { relation_type: "relates_to", issues: [b.id] });
    await member.post(`${itemUrl(f.project, a)}/issue-relation/`, { relation_type: "duplicate", issues: [c.id] });
    await member.post(`${itemUrl(f.project, a)}/issue-relation/`, { relation_type: "start_after", issues: [d.id] });
    await member.post(`${itemUrl(f.project, a)}/issue-relation/`, { relation_type: "blocked_by", issues: [e.id] });
    expect(idsIn(await groupsOf(f.project, a))).toEqual({
      relates_to: [b.id],
      duplicate: [c.id],
      start_after: [d.id],
      blocked_by: [e.id],
    });
    expect(idsIn(await groupsOf(f.project, b))).toEqual({ relates_to: [a.id] });
    expect(idsIn(await groupsOf(f.project, c))).toEqual({ duplicate: [a.id] });
    expect(idsIn(await groupsOf(f.project, d))).toEqual({ start_before: [a.id] });
    expect(idsIn(await groupsOf(f.project, e))).toEqual({ blocking: [a.id] });
    // Every group is present, empty ones too.
    expect(Object.keys(await groupsOf(f.project, b)).sort()).toEqual([
      "blocked_by",
      "blocking",
      "duplicate",
      "finish_after",
      "finish_before",
      "relates_to",
      "start_after",
      "start_before",
    ]);
  });

  it("gives a pair one relation only: relating again replaces it, from either side", async () => {
    const a = await createItem(t, f.project, f.w.admin);
    const b = await createItem(t, f.project, f.w.admin);
    const member = as(t, f.w.member);
    await member.post(`${itemUrl(f.project, a)}/issue-relation/`, { relation_type: "blocking", issues: [b.id] });
    // Same relation again: nothing changes, no event.
    const { events: none } = await eventsDuring(t, f, () =>
      member.post(`${itemUrl(f.project, b)}/issue-relation/`, { relation_type: "blocked_by", issues: [a.id] }),
    );
    expect(none).toEqual([]);
    expect(await relationRows(a.id)).toHaveLength(1);

    const { events } = await eventsDuring(t, f, () =>
      member.post(`${itemUrl(f.project, b)}/issue-relation/`, { relation_type: "relates_to", issues: [a.id] }),
    );
    expect(events.map((e) => e.type)).toEqual(["relation.deleted", "relation.created"]);
    const rows = await relationRows(a.id);
    expect(rows.map((r) => [r.issueId, r.relatedIssueId, r.relationType])).toEqual([[b.id, a.id, "relates_to"]]);
    expect(idsIn(await groupsOf(f.project, a))).toEqual({ relates_to: [b.id] });
    // The replacement's two rows share one transaction time on PostgreSQL: compare as a set.
    expect((await activityOf(t, a.id)).map((x) => `${x.field}:${x.verb}`).sort()).toEqual([
      "blocking:deleted",
      "blocking:updated",
      "relates_to:updated",
    ]);
  });

  it("removes a relation by type (remove-relation) or whatever it is (DELETE)", async () => {
    const a = await createItem(t, f.project, f.w.admin);
    const b = await createItem(t, f.project, f.w.admin);
    const c = await createItem(t, f.project, f.w.admin);
    const member = as(t, f.w.member);
    await member.post(`${itemUrl(f.project, a)}/issue-relation/`, { relation_type: "blocking", issues: [b.id, c.id] });

    const wrongType = await member.post(`${itemUrl(f.project, a)}/remove-relation/`, {
      relation_type: "blocked_by",
      related_issue: b.id,
    });
    expect(wrongType.statusCode).toBe(404);
    const { result: removed, events } = await eventsDuring(t, f, () =>
      member.post(`${itemUrl(f.project, b)}/remove-relation/`, { relation_type: "blocked_by", related_issue: a.id }),
    );
    expect(removed.statusCode, removed.body).toBe(204);
    expect(events.map((e) => e.type)).toEqual(["relation.deleted"]);
    expect(idsIn(await groupsOf(f.project, a))).toEqual({ blocking: [c.id] });
    const key = (i: ItemRow) => `${f.project.identifier}-${i.sequenceId}`;
    expect((await activityOf(t, b.id)).map((x) => [x.field, x.verb, x.oldValue, x.newValue, x.oldIdentifier])).toEqual([
      ["blocked_by", "updated", "", key(a), a.id],
      ["blocked_by", "deleted", key(a), "", a.id],
    ]);
    expect((await activityOf(t, a.id)).filter((x) => x.verb === "deleted").map((x) => [x.field, x.comment])).toEqual([
      ["blocking", "deleted blocked_by relation"],
    ]);

    expect((await member.delete(`${itemUrl(f.project, c)}/issue-relation/${a.id}/`)).statusCode).toBe(204);
    expect(await relationRows(a.id)).toHaveLength(0);
    expect((await member.delete(`${itemUrl(f.project, c)}/issue-relation/${a.id}/`)).statusCode).toBe(404);
  });

  it("relates items across projects the caller is in, and hides those they can't see", async () => {
    const second = await createProject(t, f.w.admin, f.w.slug);
    await addMember(t, f.w.admin, f.w.slug, second.id, f.w.member, ROLE.member);
    const other: TestProject = { ...second, slug: f.w.slug, url: `/api/workspaces/${f.w.slug}/projects/${second.id}` };
    const a = await createItem(t, f.project, f.w.admin);
    const x = await createItem(t, other, f.w.admin);
    const { result: res, events } = await eventsDuring(t, f, () =>
      as(t, f.w.member).post(`${itemUrl(f.project, a)}/issue-relation/`, {
        relation_type: "duplicate",
        issues: [x.id],
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    // One event per project, each from its own item's side.
    expect(events.map((e) => [e.project_id, (e.data as { issue_id: string }).issue_id])).toEqual([
      [f.project.id, a.id],
      [other.id, x.id],
    ]);
    expect(res.json()).toEqual([expect.objectContaining({ id: x.id, project_identifier: second.identifier })]);
    expect(idsIn(await groupsOf(other, x))).toEqual({ duplicate: [a.id] });
    expect((await activityOf(t, x.id)).map((r) => [r.projectId, r.field])).toEqual([[other.id, "duplicate"]]);
    // The guest is not in the second project: the relation is invisible to them.
    expect(idsIn(await groupsOf(f.project, a, f.w.guest))).toEqual({});
    expect(idsIn(await groupsOf(f.project, a, f.w.admin))).toEqual({ duplicate: [x.id] });
  });

  it("refuses self-relations, unknown, foreign and invisible items and bad bodies with 400, storing nothing", async () => {
    const a = await createItem(t, f.project, f.w.admin);
    const b = await createItem(t, f.project, f.w.admin);
    const foreignItem = await createItem(t, f.foreign, f.w.stranger);
    const hiddenItem = await createItem(t, f.hidden, f.w.admin);
    const url = `${itemUrl(f.project, a)}/issue-relation/`;
    const member = as(t, f.w.member);
    const self = await member.post(url, { relation_type: "relates_to", issues: [a.id] });
    expect(self.statusCode).toBe(400);
    expect(self.json().code).toBe("RELATION_SELF");
    const bad = [
      { relation_type: "relates_to", issues: [b.id, foreignItem.id] },
      { relation_type: "relates_to", issues: [hiddenItem.id] },
      { relation_type: "relates_to", issues: ["00000000-0000-4000-8000-000000000000"] },
      { relation_type: "parent_of", issues: [b.id] },
      { relation_type: "relates_to", issues: [] },
      { relation_type: "relates_to", issues: ["nope"] },
      { relation_type: "relates_to" },
      { relation_type: "relates_to", issues: b.id },
    ];
    const { events } = await eventsDuring(t, f, async () => {
      for (const body of bad) expect((await member.post(url, body)).statusCode, JSON.stringify(body)).toBe(400);
      const remove = `${itemUrl(f.project, a)}/remove-relation/`;
      expect((await member.post(remove, { relation_type: "relates_to" })).statusCode).toBe(400);
      expect((await member.post(remove, { relation_type: "x", related_issue: b.id })).statusCode).toBe(400);
    });
    expect(events).toEqual([]);
    expect(await relationRows(a.id)).toHaveLength(0);
    expect(await activityOf(t, a.id)).toHaveLength(0);
  });

  it("answers 401, 403 to guests writing, and 404 across workspaces and hidden projects", async () => {
    const a = await createItem(t, f.project, f.w.admin);
    const b = await createItem(t, f.project, f.w.admin);
    const url = `${itemUrl(f.project, a)}/issue-relation/`;
    const body = { relation_type: "relates_to", issues: [b.id] };
    expect((await as(t).get(url)).statusCode).toBe(401);
    expect((await as(t).post(url, body)).statusCode).toBe(401);
    expect((await as(t, f.w.guest).post(url, body)).statusCode).toBe(403);
    expect(
      (
        await as(t, f.w.guest).post(`${itemUrl(f.project, a)}/remove-relation/`, {
          relation_type: "relates_to",
          related_issue: b.id,
        })
      ).statusCode,
    ).toBe(403);
    expect((await as(t, f.w.stranger).post(url, body)).statusCode).toBe(404);
    const foreignItem = await createItem(t, f.foreign, f.w.stranger);
    expect((await as(t, f.w.member).get(`${itemUrl(f.foreign, foreignItem)}/issue-relation/`)).statusCode).toBe(404);
    expect((await as(t, f.w.member).get(`${f.project.url}/issues/${foreignItem.id}/issue-relation/`)).statusCode).toBe(
      404,
    );
    const hiddenItem = await createItem(t, f.hidden, f.w.admin);
    expect((await as(t, f.w.member).get(`${itemUrl(f.hidden, hiddenItem)}/issue-relation/`)).statusCode).toBe(404);
    expect(await relationRows(a.id)).toHaveLength(0);
  });
});
