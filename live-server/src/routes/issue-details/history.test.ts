import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness.ts";
import { issueActivities, projects } from "../../db/schema.ts";
import { as, createFixture, createItem, type Fixture, itemUrl } from "./test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

type Row = { id: string; created_at: string; field?: string; verb?: string; comment_html?: string };

describe("history", () => {
  it("merges property changes and comments chronologically, filtered by activity_type", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const other = await createItem(t, f.project, f.w.admin);
    const base = itemUrl(f.project, item);
    const member = as(t, f.w.member);
    await member.post(`${base}/issue-links/`, { url: "https://example.com" });
    const comment = (await member.post(`${base}/comments/`, { comment_html: "<p>first</p>" })).json();
    await member.post(`${base}/reactions/`, { reaction: "👍" });
    await member.post(`${base}/issue-relation/`, { relation_type: "relates_to", issues: [other.id] });

    const all = await as(t, f.w.guest).get(`${base}/history/`);
    expect(all.statusCode, all.body).toBe(200);
    const rows = all.json() as Row[];
    // Reactions and comment activity rows are not history; the comment itself is.
    expect(rows.map((r) => r.comment_html ?? `${r.field}:${r.verb}`)).toEqual([
      "link:created",
      "<p>first</p>",
      "relates_to:updated",
    ]);
    expect(rows[0]).toMatchObject({
      field: "link",
      verb: "created",
      new_value: "https://example.com",
      actor: f.w.member.id,
      actor_detail: { id: f.w.member.id, display_name: f.w.member.displayName },
      issue: item.id,
      project: f.project.id,
      workspace: f.w.workspaceId,
      // The reference's serializer: the row's sentence, the details its client builds links from.
      comment: "created a link",
      issue_comment: null,
      attachments: [],
      epoch: expect.any(Number),
      workspace_detail: { id: f.w.workspaceId, slug: f.w.slug },
      project_detail: { id: f.project.id, identifier: f.project.identifier },
      issue_detail: { id: item.id, sequence_id: item.sequenceId },
    });
    expect(rows[1]).toMatchObject({ id: comment.id, actor_detail: { id: f.w.member.id } });

    const properties = (await member.get(`${base}/history/?activity_type=issue-property`)).json() as Row[];
    expect(properties.map((r) => r.field)).toEqual(["link", "relates_to"]);
    const comments = (await member.get(`${base}/history/?activity_type=issue-comment`)).json() as Row[];
    expect(comments.map((r) => r.id)).toEqual([comment.id]);
    const both = (await member.get(`${base}/activities/?activity_type=issue-property,issue-comment`)).json() as Row[];
    expect(both.map((r) => r.id)).toEqual(rows.map((r) => r.id));

    // Incremental: only what is newer than the last row seen.
    const since = rows[1]?.created_at ?? "";
    const newer = (await member.get(`${base}/history/?created_at__gt=${encodeURIComponent(since)}`)).json() as Row[];
    expect(newer.map((r) => r.field)).toEqual(["relates_to"]);
  });

  it("presents system rows without an actor, and serves epics with epic-comment", async () => {
    const epic = await createItem(t, f.project, f.w.admin, { isEpic: true });
    await t.db.insert(issueActivities).values({
      workspaceId: f.w.workspaceId,
      projectId: f.project.id,
      issueId: epic.id,
      actorId: null,
      verb: "created",
    });
    await t.db.update(projects).set({ isEpicEnabled: true }).where(eq(projects.id, f.project.id));
    const base = itemUrl(f.project, epic, "epics");
    await as(t, f.w.member).post(`${base}/comments/`, { comment_html: "<p>epic note</p>" });
    const rows = (await as(t, f.w.member).get(`${base}/history/`)).json();
    expect(rows[0]).toMatchObject({ verb: "created", field: null, actor: null, actor_detail: null });
    const comments = (await as(t, f.w.member).get(`${base}/history/?activity_type=epic-comment`)).json();
    expect(comments.map((c: Row) => c.comment_html)).toEqual(["<p>epic note</p>"]);
    await t.db.update(projects).set({ isEpicEnabled: false }).where(eq(projects.id, f.project.id));
  });

  it("answers 400 to bad filters, 401 anonymous, 404 across workspaces, hidden projects and guests' limits", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const base = itemUrl(f.project, item);
    expect((await as(t, f.w.member).get(`${base}/history/?activity_type=everything`)).statusCode).toBe(400);
    expect((await as(t, f.w.member).get(`${base}/history/?created_at__gt=soon`)).statusCode).toBe(400);
    expect((await as(t).get(`${base}/history/`)).statusCode).toBe(401);
    expect((await as(t, f.w.stranger).get(`${base}/history/`)).statusCode).toBe(404);
    const foreignItem = await createItem(t, f.foreign, f.w.stranger);
    expect((await as(t, f.w.member).get(`${itemUrl(f.foreign, foreignItem)}/history/`)).statusCode).toBe(404);
    expect((await as(t, f.w.member).get(`${f.project.url}/issues/${foreignItem.id}/history/`)).statusCode).toBe(404);
    const hiddenItem = await createItem(t, f.hidden, f.w.admin);
    expect((await as(t, f.w.member).get(`${itemUrl(f.hidden, hiddenItem)}/activities/`)).statusCode).toBe(404);
    const strict = await createFixture(t, { guestViewAll: false });
    const theirs = await createItem(t, strict.project, strict.w.admin);
    expect((await as(t, strict.w.guest).get(`${itemUrl(strict.project, theirs)}/history/`)).statusCode).toBe(404);
  });
});
