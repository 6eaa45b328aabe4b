import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { activitiesOf, createFixture, createIssue, eventsOf, type Fixture, issueRow, stateOf } from "./test-support.ts";

let t: TestApp;
let f: Fixture;
let done: string;
let cancelled: string;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
  done = await stateOf(t, f.project.id, "completed");
  cancelled = await stateOf(t, f.project.id, "cancelled");
});
afterAll(() => t.close());

const archiveUrl = (id: string) => `${f.project.url}/issues/${id}/archive/`;

describe("archive and restore", () => {
  it("archives a completed item, hides it from the list, keeps it editable, and restores it", async () => {
    const item = await createIssue(t, f.w.member, f.project.url, { state_id: done });
    const res = await client(t.app, f.w.member, { "x-client-mutation-id": "m-arch" }).post(archiveUrl(item.id));
    expect(res.statusCode, res.body).toBe(200);
    const archivedAt = res.json().archived_at;
    expect(typeof archivedAt).toBe("string");
    expect((await issueRow(t, item.id))?.archivedAt?.toISOString()).toBe(archivedAt);
    expect(eventsOf(f, "issue.archived", item.id)[0]?.client_mutation_id).toBe("m-arch");
    // As the reference: an "updated" row of archived_at, "manual_archive" when a person archived it.
    const archivedRows = (await activitiesOf(t, item.id)).filter((a) => a.field === "archived_at");
    expect(archivedRows.map((a) => [a.verb, a.oldValue, a.newValue, a.comment])).toEqual([
      ["updated", null, "manual_archive", "Actor has archived the issue"],
    ]);

    const list = (await client(t.app, f.w.member).get(`${f.project.url}/issues/`)).json();
    expect(list.results.map((i: { id: string }) => i.id)).not.toContain(item.id);
    const archive = (await client(t.app, f.w.member).get(`${f.project.url}/archived-issues/?group_by=priority`)).json();
    expect(archive.results.none.results.map((i: { id: string }) => i.id)).toContain(item.id);
    const read = await client(t.app, f.w.member).get(archiveUrl(item.id));
    expect(read.statusCode).toBe(200);
    expect(read.json().archived_at).toBe(archivedAt);

    const edit = await client(t.app, f.w.member).patch(`${f.project.url}/issues/${item.id}/`, {
      name: "Still editable",
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().archived_at).toBe(archivedAt);

    const again = await client(t.app, f.w.member).post(archiveUrl(item.id));
    expect(again.statusCode).toBe(400);

    const restore = await client(t.app, f.w.member).delete(archiveUrl(item.id));
    expect(restore.statusCode, restore.body).toBe(200);
    expect(restore.json().archived_at).toBeNull();
    expect(eventsOf(f, "issue.restored", item.id)).toHaveLength(1);
    const restoredRow = (await activitiesOf(t, item.id)).find((a) => a.newValue === "restore");
    expect(restoredRow).toMatchObject({
      field: "archived_at",
      verb: "updated",
      oldValue: "archive",
      comment: "has restored the issue",
    });
    expect((await client(t.app, f.w.member).get(archiveUrl(item.id))).statusCode).toBe(404);
    expect((await client(t.app, f.w.member).delete(archiveUrl(item.id))).statusCode).toBe(400);
  });

  it("refuses to archive an open item, with a clear message, changing nothing", async () => {
    const item = await createIssue(t, f.w.member, f.project.url);
    const res = await client(t.app, f.w.member).post(archiveUrl(item.id));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/completed or cancelled/);
    expect((await issueRow(t, item.id))?.archivedAt).toBeNull();
  });

  it("answers 401, 403 to guests, 404 elsewhere", async () => {
    const item = await createIssue(t, f.w.admin, f.project.url, { state_id: done });
    expect((await client(t.app, null).post(archiveUrl(item.id))).statusCode).toBe(401);
    expect((await client(t.app, f.w.guest).post(archiveUrl(item.id))).statusCode).toBe(403);
    expect((await client(t.app, f.w.stranger).post(archiveUrl(item.id))).statusCode).toBe(404);
    const foreign = await createIssue(t, f.w.stranger, f.foreign.url, {
      state_id: await stateOf(t, f.foreign.id, "completed"),
    });
    expect((await client(t.app, f.w.admin).post(`${f.project.url}/issues/${foreign.id}/archive/`)).statusCode).toBe(
      404,
    );
    expect((await issueRow(t, item.id))?.archivedAt).toBeNull();
    expect((await issueRow(t, foreign.id))?.archivedAt).toBeNull();
  });
});

describe("POST /bulk-archive-issues/", () => {
  it("archives closed items together", async () => {
    const a = await createIssue(t, f.w.member, f.project.url, { state_id: done });
    const b = await createIssue(t, f.w.member, f.project.url, { state_id: cancelled });
    const res = await client(t.app, f.w.member).post(`${f.project.url}/bulk-archive-issues/`, {
      issue_ids: [a.id, b.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await issueRow(t, a.id))?.archivedAt).not.toBeNull();
    expect((await issueRow(t, b.id))?.archivedAt).not.toBeNull();
    expect(eventsOf(f, "issue.archived", a.id)).toHaveLength(1);
    expect(eventsOf(f, "issue.archived", b.id)).toHaveLength(1);
  });

  it("is all or nothing: one open, archived or unknown item refuses the batch", async () => {
    const closed = await createIssue(t, f.w.member, f.project.url, { state_id: done });
    const open = await createIssue(t, f.w.member, f.project.url);
    const foreign = await createIssue(t, f.w.stranger, f.foreign.url);
    for (const issue_ids of [[closed.id, open.id], [closed.id, foreign.id], []]) {
      const res = await client(t.app, f.w.member).post(`${f.project.url}/bulk-archive-issues/`, { issue_ids });
      expect(res.statusCode, JSON.stringify(issue_ids)).toBe(400);
    }
    expect((await issueRow(t, closed.id))?.archivedAt).toBeNull();
    expect(
      (await client(t.app, f.w.guest).post(`${f.project.url}/bulk-archive-issues/`, { issue_ids: [closed.id] }))
        .statusCode,
    ).toBe(403);
    expect(
      (await client(t.app, null).post(`${f.project.url}/bulk-archive-issues/`, { issue_ids: [closed.id] })).statusCode,
    ).toBe(401);
    expect(
      (await client(t.app, f.w.stranger).post(`${f.project.url}/bulk-archive-issues/`, { issue_ids: [closed.id] }))
        .statusCode,
    ).toBe(404);
  });
});
