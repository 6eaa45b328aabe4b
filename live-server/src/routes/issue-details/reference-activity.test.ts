/**
 * History rows as the reference product writes them (apps/api/plane/bgtasks/
 * issue_activities_task.py), for the kinds not covered beside their routes: comments edited and
 * removed, reactions on an item and on a comment, a deleted item, and the conventions every
 * writer goes through (services/issue-activity.ts). Field changes of the work item itself are in
 * routes/issues/update.test.ts, relations in relations.test.ts, links in links.test.ts,
 * attachments in routes/assets/attachments.test.ts, cycles and modules in
 * notifications/cycles-modules.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness.ts";
import { referenceRow } from "../../services/issue-activity.ts";
import { activityOf, as, createFixture, createItem, type Fixture, itemUrl } from "./test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

type Stored = Awaited<ReturnType<typeof activityOf>>[number];
const shape = (a: Stored) => [a.field, a.verb, a.oldValue, a.newValue, a.oldIdentifier, a.newIdentifier, a.comment];

describe("reference history rows", () => {
  it("comments: the HTML on creation and edit, only the comment's id on removal", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const url = `${itemUrl(f.project, item)}/comments/`;
    const member = as(t, f.w.member);
    const comment = (await member.post(url, { comment_html: "<p>first</p>" })).json();
    expect((await member.patch(`${url}${comment.id}/`, { comment_html: "<p>second</p>" })).statusCode).toBe(200);
    expect((await member.delete(`${url}${comment.id}/`)).statusCode).toBe(204);
    const rows = (await activityOf(t, item.id)).filter((a) => a.field === "comment");
    expect(rows.map(shape)).toEqual([
      ["comment", "created", null, "<p>first</p>", null, comment.id, "created a comment"],
      ["comment", "updated", "<p>first</p>", "<p>second</p>", comment.id, comment.id, "updated a comment"],
      ["comment", "deleted", null, null, null, null, "deleted the comment"],
    ]);
    expect(rows.map((a) => a.commentId)).toEqual([comment.id, comment.id, comment.id]);
  });

  it("reactions: field reaction on the item for its own and its comments' reactions", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const member = as(t, f.w.member);
    const reacted = (await member.post(`${itemUrl(f.project, item)}/reactions/`, { reaction: "👍" })).json();
    expect((await member.delete(`${itemUrl(f.project, item)}/reactions/${encodeURIComponent("👍")}/`)).statusCode).toBe(
      204,
    );
    const comment = (await member.post(`${itemUrl(f.project, item)}/comments/`, { comment_html: "<p>x</p>" })).json();
    const commentUrl = `${f.project.url}/comments/${comment.id}/reactions/`;
    const onComment = (await member.post(commentUrl, { reaction: "🎉" })).json();
    expect((await member.delete(`${commentUrl}${onComment.id}/`)).statusCode).toBe(204);
    const rows = (await activityOf(t, item.id)).filter((a) => a.field !== "comment");
    expect(rows.map(shape)).toEqual([
      ["reaction", "created", null, "👍", null, reacted.id, "added the reaction"],
      ["reaction", "deleted", "👍", null, reacted.id, null, "removed the reaction"],
      ["reaction", "created", null, "🎉", null, onComment.id, "added the reaction"],
      ["reaction", "deleted", "🎉", null, onComment.id, null, "removed the reaction"],
    ]);
    // Reactions are not history.
    const history = (await member.get(`${itemUrl(f.project, item)}/history/?activity_type=issue-property`)).json();
    expect(history.map((r: { field: string }) => r.field)).not.toContain("reaction");
  });

  it("a deleted work item: field issue, verb deleted", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    expect((await as(t, f.w.admin).delete(`${itemUrl(f.project, item)}/`)).statusCode).toBe(204);
    const rows = await activityOf(t, item.id);
    expect(rows.map(shape)).toEqual([["issue", "deleted", null, null, null, null, "deleted the issue"]]);
  });
});

describe("referenceRow (the conventions every writer goes through)", () => {
  const base = { workspaceId: "w", projectId: "p", issueId: "i", actorId: "a" };

  it('writes "" for the empty side of list, date, parent and relation changes, never for state or priority', () => {
    for (const field of ["assignees", "labels", "modules", "parent", "start_date", "target_date", "relates_to"]) {
      const added = referenceRow({ ...base, verb: "updated", field, newValue: "X", newIdentifier: "x" });
      expect([added.oldValue, added.newValue], field).toEqual(["", "X"]);
      const removed = referenceRow({ ...base, verb: "updated", field, oldValue: "X", oldIdentifier: "x" });
      expect([removed.oldValue, removed.newValue], field).toEqual(["X", ""]);
    }
    const state = referenceRow({ ...base, verb: "updated", field: "state", newValue: "Todo", newIdentifier: "s" });
    expect([state.oldValue, state.newValue]).toEqual([null, "Todo"]);
  });

  it("makes joining a cycle or module created, leaving it deleted, moving between cycles updated", () => {
    const verb = (field: string, oldIdentifier: string | null, newIdentifier: string | null) =>
      referenceRow({ ...base, verb: "updated", field, oldIdentifier, newIdentifier }).verb;
    expect(verb("cycles", null, "c")).toBe("created");
    expect(verb("cycles", "c", null)).toBe("deleted");
    expect(verb("cycles", "c", "d")).toBe("updated");
    expect(verb("modules", null, "m")).toBe("created");
    expect(verb("modules", "m", null)).toBe("deleted");
  });

  it("writes the reference's sentence unless the caller gives one", () => {
    const sentence = (entry: Partial<Parameters<typeof referenceRow>[0]>) =>
      referenceRow({ ...base, verb: "updated", ...entry }).comment;
    expect(sentence({ field: "labels", newValue: "bug", newIdentifier: "l" })).toBe("added label ");
    expect(sentence({ field: "labels", oldValue: "bug", oldIdentifier: "l" })).toBe("removed label ");
    expect(sentence({ field: "assignees", newValue: "ada", newIdentifier: "u" })).toBe("added assignee ");
    expect(sentence({ field: "cycles", newValue: "Sprint 1", newIdentifier: "c" })).toBe("added cycle Sprint 1");
    expect(sentence({ field: "cycles", oldValue: "Sprint 1", oldIdentifier: "c" })).toBe(
      "removed this issue from Sprint 1",
    );
    expect(sentence({ field: "modules", newValue: "Auth", newIdentifier: "m" })).toBe("added module Auth");
    expect(sentence({ field: "archived_at", newValue: "manual_archive" })).toBe("Actor has archived the issue");
    expect(sentence({ field: "archived_at", oldValue: "archive", newValue: "restore" })).toBe("has restored the issue");
    expect(sentence({ field: "blocking", newValue: "WEB-2", comment: "added blocking relation" })).toBe(
      "added blocking relation",
    );
    expect(referenceRow({ ...base, verb: "created", field: null }).comment).toBe("created the issue");
  });
});
