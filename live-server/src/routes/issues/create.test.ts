import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { issueSubscribers, projects } from "../../db/schema.ts";
import {
  activitiesOf,
  anotherProject,
  countIssues,
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

const url = () => `${f.project.url}/issues/`;

describe("POST /issues/", () => {
  it("creates an item in the default state with the next number, appended, subscribed, recorded and announced", async () => {
    const label = await createLabel(t, f.project.id);
    const res = await client(t.app, f.w.member, { "x-client-mutation-id": "m-create-1" }).post(url(), {
      name: "  First item  ",
      description_html: "<p>Hello <script>alert(1)</script><strong>world</strong></p>",
      priority: "high",
      assignee_ids: [f.w.admin.id],
      label_ids: [label],
      start_date: "2026-03-01",
      target_date: "2026-03-05T10:00:00Z",
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    const backlog = await stateOf(t, f.project.id, "backlog");
    expect(body).toMatchObject({
      name: "First item",
      project_id: f.project.id,
      workspace_id: f.w.workspaceId,
      state_id: backlog,
      state__group: "backlog",
      priority: "high",
      parent_id: null,
      estimate_point: null,
      start_date: "2026-03-01",
      target_date: "2026-03-05",
      completed_at: null,
      archived_at: null,
      is_draft: false,
      is_epic: false,
      type_id: null,
      cycle_id: null,
      module_ids: [],
      assignee_ids: [f.w.admin.id],
      label_ids: [label],
      sub_issues_count: 0,
      link_count: 0,
      attachment_count: 0,
      created_by: f.w.member.id,
      updated_by: f.w.member.id,
    });
    expect(body.description_html).toBe("<p>Hello <strong>world</strong></p>");
    expect(body.description_stripped).toBe("Hello world");
    expect(typeof body.sequence_id).toBe("number");
    expect(typeof body.created_at).toBe("string");

    const second = await createIssue(t, f.w.member, f.project.url, { name: "Second" });
    expect(second.sequence_id).toBe(body.sequence_id + 1);
    expect(second.sort_order).toBe(body.sort_order + 10000);

    const subs = await t.db.select().from(issueSubscribers).where(eq(issueSubscribers.issueId, body.id));
    expect(subs.map((s) => s.subscriberId).sort()).toEqual([f.w.admin.id, f.w.member.id].sort());
    // The reference's creation history: the created row, then one "added assignee" row each.
    const history = await activitiesOf(t, body.id);
    expect(history).toHaveLength(2);
    expect(history.find((a) => a.field === null)).toMatchObject({
      verb: "created",
      actorId: f.w.member.id,
      newValue: null,
      comment: "created the issue",
    });
    expect(history.find((a) => a.field === "assignees")).toMatchObject({
      verb: "updated",
      oldValue: "",
      newIdentifier: f.w.admin.id,
    });
    const [event] = eventsOf(f, "issue.created", body.id);
    expect(event).toMatchObject({
      workspace_id: f.w.workspaceId,
      project_id: f.project.id,
      actor_id: f.w.member.id,
      client_mutation_id: "m-create-1",
    });
    expect(event?.data).toMatchObject({ id: body.id, name: "First item" });
  });

  it("honours a given state, sort order and completion", async () => {
    const done = await stateOf(t, f.project.id, "completed");
    const item = await createIssue(t, f.w.admin, f.project.url, { state_id: done, sort_order: 5 });
    expect(item.state_id).toBe(done);
    expect(item.sort_order).toBe(5);
    expect(item.completed_at).not.toBeNull();
  });

  it("accepts a parent and an estimate point of the active estimate", async () => {
    const parent = await createIssue(t, f.w.admin, f.project.url);
    const child = await createIssue(t, f.w.admin, f.project.url, { parent_id: parent.id });
    expect(child.parent_id).toBe(parent.id);
    const read = await client(t.app, f.w.admin).get(`${f.project.url}/issues/${parent.id}/`);
    expect(read.json().sub_issues_count).toBe(1);
  });

  it("keeps numbers unique and gap-free under 20 concurrent creates", async () => {
    const p = await anotherProject(t, f);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client(t.app, f.w.member).post(`${p.url}/issues/`, { name: `Concurrent ${i}` }),
      ),
    );
    for (const r of results) expect(r.statusCode, r.body).toBe(201);
    const numbers = results.map((r) => r.json().sequence_id).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const [row] = await t.db.select().from(projects).where(eq(projects.id, p.id));
    expect(row?.lastSequenceId).toBe(20);
  });

  it("answers 401 without a session", async () => {
    const res = await client(t.app, null).post(url(), { name: "x" });
    expect(res.statusCode).toBe(401);
  });

  it("answers 404 for another workspace's project", async () => {
    const before = await countIssues(t, f.foreign.id);
    const res = await client(t.app, f.w.admin).post(`${f.foreign.url}/issues/`, { name: "x" });
    expect(res.statusCode).toBe(404);
    const viaOwnSlug = await client(t.app, f.w.admin).post(
      `/api/workspaces/${f.w.slug}/projects/${f.foreign.id}/issues/`,
      { name: "x" },
    );
    expect(viaOwnSlug.statusCode).toBe(404);
    expect(await countIssues(t, f.foreign.id)).toBe(before);
  });

  it("answers 403 to a guest", async () => {
    const before = await countIssues(t, f.project.id);
    const res = await client(t.app, f.w.guest).post(url(), { name: "x" });
    expect(res.statusCode).toBe(403);
    expect(await countIssues(t, f.project.id)).toBe(before);
  });

  it("refuses bad input and stores nothing", async () => {
    const other = await anotherProject(t, f);
    const foreignState = await stateOf(t, other.id, "started");
    const foreignLabel = await createLabel(t, other.id);
    const foreignParent = await createIssue(t, f.w.admin, other.url);
    const [before] = await t.db.select().from(projects).where(eq(projects.id, f.project.id));
    const count = await countIssues(t, f.project.id);
    const bad: [Record<string, unknown>, string][] = [
      [{}, "name"],
      [{ name: "   " }, "name"],
      [{ name: "x".repeat(256) }, "name"],
      [{ name: "x", priority: "critical" }, "priority"],
      [{ name: "x", state_id: foreignState }, "state_id"],
      [{ name: "x", state_id: "not-an-id" }, "state_id"],
      [{ name: "x", assignee_ids: [f.w.outsider.id] }, "assignee_ids"],
      [{ name: "x", label_ids: [foreignLabel] }, "label_ids"],
      [{ name: "x", parent_id: foreignParent.id }, "parent_id"],
      [{ name: "x", estimate_point: foreignState }, "estimate_point"],
      [{ name: "x", start_date: "2026-02-02", target_date: "2026-02-01" }, "start_date"],
      [{ name: "x", start_date: "2026-02-30" }, "start_date"],
      [{ name: "x", cycle_id: foreignState }, "cycle_id"],
      [{ name: "x", module_ids: [foreignState] }, "module_ids"],
      [{ name: "x", project_id: other.id }, "project_id"],
      [{ name: "x", sort_order: "first" }, "sort_order"],
      [{ name: "x", parent_id: 7 }, "parent_id"],
    ];
    for (const [body, field] of bad) {
      const res = await client(t.app, f.w.admin).post(url(), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const fields = Object.keys(res.json().fields ?? {});
      if (field !== "body") expect(fields, JSON.stringify(body)).toContain(field);
    }
    expect(await countIssues(t, f.project.id)).toBe(count);
    const [after] = await t.db.select().from(projects).where(eq(projects.id, f.project.id));
    expect(after?.lastSequenceId).toBe(before?.lastSequenceId);
  });

  it("creates epics only where epics are on", async () => {
    const off = await client(t.app, f.w.admin).post(`${f.project.url}/epics/`, { name: "Epic" });
    expect(off.statusCode).toBe(404);
    const p = await anotherProject(t, f);
    await t.db.update(projects).set({ isEpicEnabled: true }).where(eq(projects.id, p.id));
    const epic = await createIssue(t, f.w.admin, p.url, { name: "Epic" }, "epics");
    expect(epic.is_epic).toBe(true);
    const row = await issueRow(t, epic.id);
    expect(row?.isEpic).toBe(true);
    const list = await client(t.app, f.w.admin).get(`${p.url}/issues/`);
    expect(list.json().results.map((i: { id: string }) => i.id)).not.toContain(epic.id);
    const epics = await client(t.app, f.w.admin).get(`${p.url}/epics/`);
    expect(epics.json().results.map((i: { id: string }) => i.id)).toEqual([epic.id]);
    const subs = await t.db
      .select()
      .from(issueSubscribers)
      .where(and(eq(issueSubscribers.issueId, epic.id), eq(issueSubscribers.subscriberId, f.w.admin.id)));
    expect(subs).toHaveLength(1);
  });
});
