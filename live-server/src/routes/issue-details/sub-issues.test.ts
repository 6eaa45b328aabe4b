import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness.ts";
import { issues, projects } from "../../db/schema.ts";
import {
  activityOf,
  as,
  createFixture,
  createItem,
  eventsDuring,
  type Fixture,
  itemUrl,
  stateIn,
} from "./test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

const parentsOf = async (ids: string[]) =>
  Object.fromEntries(
    (await t.db.select({ id: issues.id, parentId: issues.parentId }).from(issues).where(inArray(issues.id, ids))).map(
      (r) => [r.id, r.parentId],
    ),
  );

describe("sub-issues", () => {
  it("adds children, lists them with their state distribution, records history and emits issue.updated", async () => {
    const parent = await createItem(t, f.project, f.w.admin);
    const started = await stateIn(t, f.project.id, "started");
    const a = await createItem(t, f.project, f.w.admin);
    const b = await createItem(t, f.project, f.w.admin, { stateId: started });
    const url = `${itemUrl(f.project, parent)}/sub-issues/`;

    const { result: res, events } = await eventsDuring(t, f, () =>
      as(t, f.w.member).post(url, { sub_issue_ids: [a.id, b.id, a.id] }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.sub_issues.map((i: { id: string }) => i.id).sort()).toEqual([a.id, b.id].sort());
    expect(body.sub_issues[0]).toMatchObject({ parent_id: parent.id, project_id: f.project.id });
    expect(body.state_distribution).toEqual({
      backlog: [a.id],
      unstarted: [],
      started: [b.id],
      completed: [],
      cancelled: [],
    });
    expect(await parentsOf([a.id, b.id])).toEqual({ [a.id]: parent.id, [b.id]: parent.id });

    // Children and the parent (its sub_issues_count changed) are announced after commit.
    const updated = events.filter((e) => e.type === "issue.updated");
    expect(updated.map((e) => e.entity_id).sort()).toEqual([a.id, b.id, parent.id].sort());
    expect(updated.find((e) => e.entity_id === parent.id)?.data).toMatchObject({
      sub_issues_count: 2,
      changed_fields: ["sub_issues_count"],
    });
    expect(updated.find((e) => e.entity_id === a.id)?.data).toMatchObject({
      parent_id: parent.id,
      changed_fields: ["parent_id"],
    });

    const ref = (seq: number) => `${f.project.identifier}-${seq}`;
    expect((await activityOf(t, a.id)).map((x) => [x.field, x.verb, x.oldValue, x.newValue, x.newIdentifier])).toEqual([
      ["parent", "updated", "", ref(parent.sequenceId), parent.id],
    ]);
    expect((await activityOf(t, parent.id)).map((x) => [x.field, x.verb, x.newIdentifier]).sort()).toEqual(
      [
        ["sub_issue", "created", a.id],
        ["sub_issue", "created", b.id],
      ].sort(),
    );

    // Guests read; adding the same children again changes nothing.
    const listed = await as(t, f.w.guest).get(url);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().sub_issues).toHaveLength(2);
    const { events: none } = await eventsDuring(t, f, () => as(t, f.w.member).post(url, { sub_issue_ids: [a.id] }));
    expect(none).toEqual([]);
  });

  it("moves a child from its old parent, naming both in the history", async () => {
    const oldParent = await createItem(t, f.project, f.w.admin);
    const newParent = await createItem(t, f.project, f.w.admin);
    const child = await createItem(t, f.project, f.w.admin, { parentId: oldParent.id });
    const res = await as(t, f.w.member).post(`${itemUrl(f.project, newParent)}/sub-issues/`, {
      sub_issue_ids: [child.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await activityOf(t, child.id)).map((x) => [x.oldIdentifier, x.newIdentifier])).toEqual([
      [oldParent.id, newParent.id],
    ]);
    expect((await activityOf(t, oldParent.id)).map((x) => [x.field, x.verb, x.oldIdentifier])).toEqual([
      ["sub_issue", "deleted", child.id],
    ]);
    expect((await as(t, f.w.member).get(`${itemUrl(f.project, oldParent)}/sub-issues/`)).json().sub_issues).toEqual([]);
  });

  it("prevents loops: not its own sub-issue, not under its own descendant", async () => {
    const top = await createItem(t, f.project, f.w.admin);
    const middle = await createItem(t, f.project, f.w.admin, { parentId: top.id });
    const bottom = await createItem(t, f.project, f.w.admin, { parentId: middle.id });
    const member = as(t, f.w.member);

    const self = await member.post(`${itemUrl(f.project, top)}/sub-issues/`, { sub_issue_ids: [top.id] });
    expect(self.statusCode).toBe(400);
    expect(self.json().code).toBe("SUB_ISSUE_SELF");
    for (const [parent, child] of [
      [bottom, top],
      [bottom, middle],
      [middle, top],
    ] as const) {
      const res = await member.post(`${itemUrl(f.project, parent)}/sub-issues/`, { sub_issue_ids: [child.id] });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: "SUB_ISSUE_LOOP", fields: { sub_issue_ids: [expect.any(String)] } });
    }
    // One bad id among good ones: nothing is applied.
    const free = await createItem(t, f.project, f.w.admin);
    const mixed = await member.post(`${itemUrl(f.project, bottom)}/sub-issues/`, { sub_issue_ids: [free.id, top.id] });
    expect(mixed.statusCode).toBe(400);
    expect(await parentsOf([top.id, middle.id, bottom.id, free.id])).toEqual({
      [top.id]: null,
      [middle.id]: top.id,
      [bottom.id]: middle.id,
      [free.id]: null,
    });
    expect(await activityOf(t, top.id)).toHaveLength(0);
  });

  it("lets only one of two opposite moves at once succeed", async () => {
    const a = await createItem(t, f.project, f.w.admin);
    const b = await createItem(t, f.project, f.w.admin);
    const member = as(t, f.w.member);
    const results = await Promise.all([
      member.post(`${itemUrl(f.project, a)}/sub-issues/`, { sub_issue_ids: [b.id] }),
      member.post(`${itemUrl(f.project, b)}/sub-issues/`, { sub_issue_ids: [a.id] }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const parents = await parentsOf([a.id, b.id]);
    expect([parents[a.id], parents[b.id]].filter(Boolean)).toHaveLength(1);
  });

  it("refuses items of other projects, epics, drafts, unknown ids and bad bodies with 400", async () => {
    const parent = await createItem(t, f.project, f.w.admin);
    const url = `${itemUrl(f.project, parent)}/sub-issues/`;
    const elsewhere = await createItem(t, f.hidden, f.w.admin);
    const foreignItem = await createItem(t, f.foreign, f.w.stranger);
    const epic = await createItem(t, f.project, f.w.admin, { isEpic: true });
    const draft = await createItem(t, f.project, f.w.admin, { isDraft: true });
    const deleted = await createItem(t, f.project, f.w.admin, { deletedAt: new Date() });
    const bodies = [
      { sub_issue_ids: [elsewhere.id] },
      { sub_issue_ids: [foreignItem.id] },
      { sub_issue_ids: [epic.id] },
      { sub_issue_ids: [draft.id] },
      { sub_issue_ids: [deleted.id] },
      { sub_issue_ids: [] },
      { sub_issue_ids: ["x"] },
      { sub_issue_ids: "all" },
      {},
      { sub_issue_ids: [epic.id], parent: parent.id },
    ];
    const { events } = await eventsDuring(t, f, async () => {
      for (const body of bodies) {
        expect((await as(t, f.w.admin).post(url, body)).statusCode, JSON.stringify(body)).toBe(400);
      }
    });
    expect(events).toEqual([]);
    const ids = [elsewhere.id, foreignItem.id, epic.id, draft.id, deleted.id];
    expect(Object.values(await parentsOf(ids))).toEqual(ids.map(() => null));
  });

  it("answers 401, 403 to guests writing, 404 across workspaces and hidden projects", async () => {
    const parent = await createItem(t, f.project, f.w.admin);
    const child = await createItem(t, f.project, f.w.admin);
    const url = `${itemUrl(f.project, parent)}/sub-issues/`;
    expect((await as(t).get(url)).statusCode).toBe(401);
    expect((await as(t).post(url, { sub_issue_ids: [child.id] })).statusCode).toBe(401);
    expect((await as(t, f.w.guest).post(url, { sub_issue_ids: [child.id] })).statusCode).toBe(403);
    expect((await as(t, f.w.stranger).post(url, { sub_issue_ids: [child.id] })).statusCode).toBe(404);
    const foreignItem = await createItem(t, f.foreign, f.w.stranger);
    expect((await as(t, f.w.member).get(`${itemUrl(f.foreign, foreignItem)}/sub-issues/`)).statusCode).toBe(404);
    expect((await as(t, f.w.member).get(`${f.project.url}/issues/${foreignItem.id}/sub-issues/`)).statusCode).toBe(404);
    const hiddenItem = await createItem(t, f.hidden, f.w.admin);
    expect((await as(t, f.w.member).get(`${itemUrl(f.hidden, hiddenItem)}/sub-issues/`)).statusCode).toBe(404);
    expect(await parentsOf([child.id])).toEqual({ [child.id]: null });
  });

  it("shows restricted guests only the children they created, and serves epics through issues/ and epics/", async () => {
    const strict = await createFixture(t, { guestViewAll: false });
    const parent = await createItem(t, strict.project, strict.w.guest);
    const own = await createItem(t, strict.project, strict.w.guest, { parentId: parent.id });
    await createItem(t, strict.project, strict.w.admin, { parentId: parent.id });
    const seen = await as(t, strict.w.guest).get(`${itemUrl(strict.project, parent)}/sub-issues/`);
    expect(seen.json().sub_issues.map((i: { id: string }) => i.id)).toEqual([own.id]);
    expect(
      (await as(t, strict.w.member).get(`${itemUrl(strict.project, parent)}/sub-issues/`)).json().sub_issues,
    ).toHaveLength(2);

    const epic = await createItem(t, f.project, f.w.admin, { isEpic: true });
    const item = await createItem(t, f.project, f.w.admin);
    const viaIssues = await as(t, f.w.member).post(`${itemUrl(f.project, epic)}/sub-issues/`, {
      sub_issue_ids: [item.id],
    });
    expect(viaIssues.statusCode, viaIssues.body).toBe(200);
    expect((await as(t, f.w.member).get(`${itemUrl(f.project, epic, "epics")}/sub-issues/`)).statusCode).toBe(404);
    await t.db.update(projects).set({ isEpicEnabled: true }).where(eq(projects.id, f.project.id));
    const viaEpics = await as(t, f.w.member).get(`${itemUrl(f.project, epic, "epics")}/sub-issues/`);
    expect(viaEpics.json().sub_issues.map((i: { id: string }) => i.id)).toEqual([item.id]);
    await t.db.update(projects).set({ isEpicEnabled: false }).where(eq(projects.id, f.project.id));
  });
});
