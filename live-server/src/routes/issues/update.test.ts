import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { estimatePoints, estimates, issueLinks, issueSubscribers, labels, projects } from "../../db/schema.ts";
import { settle } from "../../notifications/test-support.ts";
import {
  activitiesOf,
  anotherProject,
  createFixture,
  createIssue,
  createLabel,
  eventsOf,
  type Fixture,
  issueRow,
  stateOf,
} from "./test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

const itemUrl = (id: string) => `${f.project.url}/issues/${id}/`;

async function withEstimate(projectId: string) {
  const [project] = await t.db.select().from(projects).where(eq(projects.id, projectId));
  if (!project) throw new Error("no project");
  const [estimate] = await t.db
    .insert(estimates)
    .values({ workspaceId: project.workspaceId, projectId, name: "Points", type: "points" })
    .returning();
  if (!estimate) throw new Error("no estimate");
  const points = await t.db
    .insert(estimatePoints)
    .values(
      [1, 2, 3].map((key) => ({
        workspaceId: project.workspaceId,
        projectId,
        estimateId: estimate.id,
        key,
        value: String(key * 2),
      })),
    )
    .returning();
  await t.db.update(projects).set({ estimateId: estimate.id }).where(eq(projects.id, projectId));
  return points.map((p) => p.id);
}

describe("PATCH /issues/:id/", () => {
  it("changes every default-form field, one history row per change, and announces the changed fields", async () => {
    const item = await createIssue(t, f.w.admin, f.project.url, { assignee_ids: [f.w.admin.id] });
    const parent = await createIssue(t, f.w.admin, f.project.url, { name: "Parent" });
    const label = await createLabel(t, f.project.id);
    const points = await withEstimate(f.project.id);
    const started = await stateOf(t, f.project.id, "started");
    const backlog = item.state_id;
    const before = new Set((await activitiesOf(t, item.id)).map((a) => a.id));
    const res = await client(t.app, f.w.member, { "x-client-mutation-id": "m-upd" }).patch(itemUrl(item.id), {
      name: "Renamed",
      description_html: "<p>New text</p>",
      state_id: started,
      priority: "urgent",
      assignee_ids: [f.w.member.id],
      label_ids: [label],
      parent_id: parent.id,
      estimate_point: points[1],
      start_date: "2026-01-01",
      target_date: "2026-01-31",
      sort_order: 123,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: "Renamed",
      description_html: "<p>New text</p>",
      state_id: started,
      state__group: "started",
      priority: "urgent",
      assignee_ids: [f.w.member.id],
      label_ids: [label],
      parent_id: parent.id,
      estimate_point: points[1],
      start_date: "2026-01-01",
      target_date: "2026-01-31",
      sort_order: 123,
      updated_by: f.w.member.id,
    });
    // Field by field, what the reference's issue_activities task writes for the same change.
    const history = (await activitiesOf(t, item.id)).filter((a) => !before.has(a.id));
    const row = (a: (typeof history)[number]) => [
      a.field,
      a.verb,
      a.oldValue,
      a.newValue,
      a.oldIdentifier,
      a.newIdentifier,
      a.comment,
    ];
    const key = `${f.project.identifier}-${parent.sequence_id}`;
    const adminName = f.w.admin.displayName;
    const memberName = f.w.member.displayName;
    const labelName = (await t.db.select().from(labels).where(eq(labels.id, label)))[0]?.name;
    expect(history.map(row).sort()).toEqual(
      [
        ["name", "updated", "A work item", "Renamed", null, null, "updated the name to"],
        ["description", "updated", "<p></p>", "<p>New text</p>", null, null, "updated the description to"],
        ["state", "updated", "Backlog", "In Progress", backlog, started, "updated the state to"],
        ["priority", "updated", "none", "urgent", null, null, "updated the priority to"],
        ["parent", "updated", "", key, null, parent.id, "updated the parent issue to"],
        ["estimate_points", "updated", null, "4", null, points[1], "updated the estimate point to "],
        ["start_date", "updated", "", "2026-01-01", null, null, "updated the start date to "],
        ["target_date", "updated", "", "2026-01-31", null, null, "updated the target date to"],
        // A list addition has "" on its empty side (the reference's client reads old_value === ""
        // as "added"), a removal "" on the other.
        ["assignees", "updated", "", memberName, null, f.w.member.id, "added assignee "],
        ["assignees", "updated", adminName, "", f.w.admin.id, null, "removed assignee "],
        ["labels", "updated", "", labelName, null, label, "added label "],
      ].sort(),
    );

    const [event] = eventsOf(f, "issue.updated", item.id);
    expect(event?.client_mutation_id).toBe("m-upd");
    expect([...((event?.data.changed_fields as string[]) ?? [])].sort()).toEqual(
      [
        "name",
        "description_html",
        "state_id",
        "priority",
        "assignee_ids",
        "label_ids",
        "parent_id",
        "estimate_point",
        "start_date",
        "target_date",
        "sort_order",
      ].sort(),
    );
    const subs = await t.db.select().from(issueSubscribers).where(eq(issueSubscribers.issueId, item.id));
    expect(subs.map((s) => s.subscriberId)).toContain(f.w.member.id);
  });

  it('records removals and cleared fields as the reference does (the emptied side is "")', async () => {
    const parent = await createIssue(t, f.w.admin, f.project.url, { name: "Parent" });
    const label = await createLabel(t, f.project.id);
    const points = await withEstimate(f.project.id);
    const item = await createIssue(t, f.w.admin, f.project.url, {
      assignee_ids: [f.w.admin.id, f.w.member.id],
      label_ids: [label],
      parent_id: parent.id,
      start_date: "2026-02-01",
      target_date: "2026-02-10",
    });
    await client(t.app, f.w.admin).patch(itemUrl(item.id), { estimate_point: points[0] });
    const before = new Set((await activitiesOf(t, item.id)).map((a) => a.id));
    const res = await client(t.app, f.w.admin).patch(itemUrl(item.id), {
      assignee_ids: [],
      label_ids: [],
      parent_id: null,
      estimate_point: null,
      start_date: null,
      target_date: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    const history = (await activitiesOf(t, item.id)).filter((a) => !before.has(a.id));
    const labelName = (await t.db.select().from(labels).where(eq(labels.id, label)))[0]?.name;
    const key = `${f.project.identifier}-${parent.sequence_id}`;
    expect(
      history.map((a) => [a.field, a.verb, a.oldValue, a.newValue, a.oldIdentifier, a.newIdentifier, a.comment]).sort(),
    ).toEqual(
      [
        ["assignees", "updated", f.w.admin.displayName, "", f.w.admin.id, null, "removed assignee "],
        ["assignees", "updated", f.w.member.displayName, "", f.w.member.id, null, "removed assignee "],
        ["labels", "updated", labelName, "", label, null, "removed label "],
        ["parent", "updated", key, "", parent.id, null, "updated the parent issue to"],
        // Clearing an estimate is "removed", the field named after the estimate's type.
        ["estimate_points", "removed", "2", null, points[0], null, "updated the estimate point to "],
        ["start_date", "updated", "2026-02-01", "", null, null, "updated the start date to "],
        ["target_date", "updated", "2026-02-10", "", null, null, "updated the target date to"],
      ].sort(),
    );
  });

  it("records a creation as the reference does: a created row, then one added-assignee row each", async () => {
    const item = await createIssue(t, f.w.admin, f.project.url, { name: "Fresh", assignee_ids: [f.w.member.id] });
    const rows = await activitiesOf(t, item.id);
    expect(
      rows.map((a) => [a.field, a.verb, a.oldValue, a.newValue, a.oldIdentifier, a.newIdentifier, a.comment]),
    ).toEqual([
      [null, "created", null, null, null, null, "created the issue"],
      ["assignees", "updated", "", f.w.member.displayName, null, f.w.member.id, "added assignee "],
    ]);
  });

  it("sets completed_at on entering a completed state and clears it on leaving", async () => {
    const item = await createIssue(t, f.w.admin, f.project.url);
    const done = await stateOf(t, f.project.id, "completed");
    const todo = await stateOf(t, f.project.id, "unstarted");
    const a = await client(t.app, f.w.admin).patch(itemUrl(item.id), { state_id: done });
    expect(a.json().completed_at).not.toBeNull();
    const b = await client(t.app, f.w.admin).patch(itemUrl(item.id), { state_id: todo });
    expect(b.json().completed_at).toBeNull();
  });

  it("records nothing and announces nothing when nothing changes", async () => {
    const item = await createIssue(t, f.w.admin, f.project.url, { priority: "low" });
    // The notifications of earlier changes are background work and may still be announced.
    await settle(t);
    const before = f.events.length;
    const res = await client(t.app, f.w.admin).patch(itemUrl(item.id), { priority: "low", name: "A work item" });
    expect(res.statusCode).toBe(200);
    await settle(t);
    expect(f.events.length).toBe(before);
    expect((await activitiesOf(t, item.id)).filter((a) => a.verb === "updated")).toHaveLength(0);
  });

  it("refuses loops, a missing state, bad dates against stored ones, and changes nothing", async () => {
    const top = await createIssue(t, f.w.admin, f.project.url, { target_date: "2026-05-01" });
    const child = await createIssue(t, f.w.admin, f.project.url, { parent_id: top.id });
    const grandchild = await createIssue(t, f.w.admin, f.project.url, { parent_id: child.id });
    const cases: [Record<string, unknown>, string][] = [
      [{ parent_id: grandchild.id }, "parent_id"],
      [{ parent_id: top.id }, "parent_id"],
      [{ state_id: null }, "state_id"],
      [{ start_date: "2026-06-01" }, "start_date"],
      [{ name: "" }, "name"],
      [{ priority: 3 }, "priority"],
    ];
    for (const [body, field] of cases) {
      const res = await client(t.app, f.w.admin).patch(itemUrl(top.id), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      if (field !== "body") expect(Object.keys(res.json().fields)).toContain(field);
    }
    const row = await issueRow(t, top.id);
    expect(row).toMatchObject({ parentId: null, startDate: null, targetDate: "2026-05-01", name: "A work item" });
  });

  it("answers 401, 403 to a guest, 404 for another workspace's item", async () => {
    const item = await createIssue(t, f.w.admin, f.project.url);
    expect((await client(t.app, null).patch(itemUrl(item.id), { name: "x" })).statusCode).toBe(401);
    expect((await client(t.app, f.w.guest).patch(itemUrl(item.id), { name: "x" })).statusCode).toBe(403);
    const foreign = await createIssue(t, f.w.stranger, f.foreign.url);
    const res = await client(t.app, f.w.admin).patch(`${f.project.url}/issues/${foreign.id}/`, { name: "x" });
    expect(res.statusCode).toBe(404);
    expect((await issueRow(t, foreign.id))?.name).toBe("A work item");
    expect((await issueRow(t, item.id))?.name).toBe("A work item");
  });
});

describe("GET /issues/:id/", () => {
  it("returns the item with its description, subscription and expansions", async () => {
    const label = await createLabel(t, f.project.id);
    const parent = await createIssue(t, f.w.admin, f.project.url);
    const item = await createIssue(t, f.w.admin, f.project.url, {
      parent_id: parent.id,
      label_ids: [label],
      assignee_ids: [f.w.member.id],
      description_html: "<p>Body</p>",
    });
    await t.db.insert(issueLinks).values({
      workspaceId: f.w.workspaceId,
      projectId: f.project.id,
      issueId: item.id,
      url: "https://example.com",
      title: "Example",
    });
    const res = await client(t.app, f.w.admin).get(
      `${itemUrl(item.id)}?expand=assignees,labels,state,parent,issue_relation,reactions,links,attachments,cycle`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: item.id, description_html: "<p>Body</p>", is_subscribed: true, link_count: 1 });
    expect(body.assignees.map((u: { id: string }) => u.id)).toEqual([f.w.member.id]);
    expect(body.labels.map((l: { id: string }) => l.id)).toEqual([label]);
    expect(body.state.group).toBe("backlog");
    expect(body.parent.id).toBe(parent.id);
    expect(body.issue_relation).toEqual([]);
    expect(body.reactions).toEqual([]);
    expect(body.links[0].url).toBe("https://example.com");
    expect(body.attachments).toEqual([]);
    expect(body.cycle).toBeUndefined();

    const guestView = await client(t.app, f.w.member).get(itemUrl(item.id));
    expect(guestView.json().is_subscribed).toBe(true);
  });

  it("applies the guest rule: a guest sees only items they created unless the project allows all", async () => {
    const p = await anotherProject(t, f);
    const item = await createIssue(t, f.w.admin, p.url);
    expect((await client(t.app, f.w.guest).get(`${p.url}/issues/${item.id}/`)).statusCode).toBe(404);
    await t.db.update(projects).set({ guestViewAllFeatures: true }).where(eq(projects.id, p.id));
    expect((await client(t.app, f.w.guest).get(`${p.url}/issues/${item.id}/`)).statusCode).toBe(200);
  });

  it("answers 401 and 404 (other workspace, unknown, malformed id)", async () => {
    const item = await createIssue(t, f.w.admin, f.project.url);
    expect((await client(t.app, null).get(itemUrl(item.id))).statusCode).toBe(401);
    expect((await client(t.app, f.w.stranger).get(itemUrl(item.id))).statusCode).toBe(404);
    expect((await client(t.app, f.w.admin).get(itemUrl("nope"))).statusCode).toBe(404);
    const foreign = await createIssue(t, f.w.stranger, f.foreign.url);
    expect((await client(t.app, f.w.admin).get(`${f.project.url}/issues/${foreign.id}/`)).statusCode).toBe(404);
  });
});

describe("GET /issues/list/ and /work-items/KEY/", () => {
  it("returns the visible items of the given ids", async () => {
    const a = await createIssue(t, f.w.admin, f.project.url);
    const b = await createIssue(t, f.w.admin, f.project.url);
    const foreign = await createIssue(t, f.w.stranger, f.foreign.url);
    const res = await client(t.app, f.w.member).get(
      `${f.project.url}/issues/list/?issues=${b.id},${a.id},${foreign.id}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().map((i: { id: string }) => i.id)).toEqual([b.id, a.id]);
    expect((await client(t.app, f.w.member).get(`${f.project.url}/issues/list/?issues=bad`)).statusCode).toBe(400);
    expect((await client(t.app, null).get(`${f.project.url}/issues/list/?issues=${a.id}`)).statusCode).toBe(401);
  });

  it("finds an item by its key", async () => {
    const item = await createIssue(t, f.w.admin, f.project.url);
    const key = `${f.project.identifier.toLowerCase()}-${item.sequence_id}`;
    const res = await client(t.app, f.w.member).get(`/api/workspaces/${f.w.slug}/work-items/${key}/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: item.id, project__identifier: f.project.identifier });
    expect(
      (await client(t.app, f.w.member).get(`/api/workspaces/${f.w.slug}/work-items/${f.project.identifier}-99999/`))
        .statusCode,
    ).toBe(404);
    expect((await client(t.app, f.w.stranger).get(`/api/workspaces/${f.w.slug}/work-items/${key}/`)).statusCode).toBe(
      404,
    );
    expect((await client(t.app, f.w.outsider).get(`/api/workspaces/${f.w.slug}/work-items/${key}/`)).statusCode).toBe(
      404,
    );
    expect((await client(t.app, null).get(`/api/workspaces/${f.w.slug}/work-items/${key}/`)).statusCode).toBe(401);
  });
});

describe("DELETE /issues/:id/", () => {
  it("soft-deletes, detaches sub-issues, records, announces and lists the id as deleted", async () => {
    const since = new Date().toISOString();
    const item = await createIssue(t, f.w.member, f.project.url);
    const child = await createIssue(t, f.w.member, f.project.url, { parent_id: item.id });
    const res = await client(t.app, f.w.member, { "x-client-mutation-id": "m-del" }).delete(itemUrl(item.id));
    expect(res.statusCode, res.body).toBe(204);
    expect((await issueRow(t, item.id))?.deletedAt).not.toBeNull();
    expect((await issueRow(t, child.id))?.parentId).toBeNull();
    expect((await client(t.app, f.w.member).get(itemUrl(item.id))).statusCode).toBe(404);
    const [event] = eventsOf(f, "issue.deleted", item.id);
    expect(event?.client_mutation_id).toBe("m-del");
    expect(event?.data.id).toBe(item.id);
    expect(eventsOf(f, "issue.updated", child.id)).toHaveLength(1);
    expect((await activitiesOf(t, item.id)).some((a) => a.verb === "deleted")).toBe(true);
    const deleted = await client(t.app, f.w.member).get(
      `${f.project.url}/deleted-issues/?updated_at__gt=${encodeURIComponent(since)}`,
    );
    expect(deleted.json()).toEqual([item.id]);
    const later = await client(t.app, f.w.member).get(
      `${f.project.url}/deleted-issues/?updated_at__gt=${encodeURIComponent(new Date().toISOString())}`,
    );
    expect(later.json()).toEqual([]);
    expect((await client(t.app, f.w.member).get(`${f.project.url}/deleted-issues/?updated_at__gt=x`)).statusCode).toBe(
      400,
    );
  });

  it("lets only the creator or a project admin delete; guests and strangers are refused", async () => {
    const byAdmin = await createIssue(t, f.w.admin, f.project.url);
    expect((await client(t.app, f.w.member).delete(itemUrl(byAdmin.id))).statusCode).toBe(403);
    expect((await client(t.app, f.w.guest).delete(itemUrl(byAdmin.id))).statusCode).toBe(403);
    expect((await client(t.app, null).delete(itemUrl(byAdmin.id))).statusCode).toBe(401);
    expect((await client(t.app, f.w.stranger).delete(itemUrl(byAdmin.id))).statusCode).toBe(404);
    expect((await issueRow(t, byAdmin.id))?.deletedAt).toBeNull();
    const byMember = await createIssue(t, f.w.member, f.project.url);
    expect((await client(t.app, f.w.admin).delete(itemUrl(byMember.id))).statusCode).toBe(204);
  });
});
