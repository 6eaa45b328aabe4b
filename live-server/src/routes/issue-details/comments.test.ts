import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness.ts";
import { issueComments, issueSubscribers, issues } from "../../db/schema.ts";
import { activityOf, as, createFixture, createItem, eventsDuring, type Fixture, itemUrl } from "./test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

const commentsOf = (issueId: string) => t.db.select().from(issueComments).where(eq(issueComments.issueId, issueId));
const isSubscribed = async (issueId: string, userId: string) =>
  (
    await t.db
      .select()
      .from(issueSubscribers)
      .where(and(eq(issueSubscribers.issueId, issueId), eq(issueSubscribers.subscriberId, userId)))
  ).length === 1;

describe("comments", () => {
  it("posts a sanitised comment, subscribes the commenter, records history and emits after commit", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const url = `${itemUrl(f.project, item)}/comments/`;
    // The listener reads the database: the comment must already be committed when it hears of it.
    const committed: Promise<boolean>[] = [];
    const stop = t.app.ctx.events.subscribe((e) => {
      if (e.type === "comment.created") {
        committed.push(
          t.db
            .select()
            .from(issueComments)
            .where(eq(issueComments.id, e.entity_id))
            .then((rows) => rows.length === 1),
        );
      }
    });
    const { result: res, events } = await eventsDuring(t, f, () =>
      as(t, f.w.member).post(url, {
        comment_html: '<p>Looks <strong>good</strong><script>alert(1)</script><img src=x onerror="alert(2)"></p>',
      }),
    );
    stop();
    expect(res.statusCode, res.body).toBe(201);
    const comment = res.json();
    expect(comment.comment_html).not.toContain("script");
    expect(comment.comment_html).not.toContain("onerror");
    expect(comment).toMatchObject({
      comment_stripped: "Looks good",
      actor: f.w.member.id,
      actor_detail: { id: f.w.member.id, display_name: f.w.member.displayName },
      issue: item.id,
      edited_at: null,
      access: "INTERNAL",
      comment_reactions: [],
    });
    expect(events.map((e) => e.type)).toEqual(["comment.created"]);
    expect(events[0]).toMatchObject({ entity_id: comment.id, project_id: f.project.id, data: { id: comment.id } });
    expect(await Promise.all(committed)).toEqual([true]);
    expect(await isSubscribed(item.id, f.w.member.id)).toBe(true);
    const history = (await activityOf(t, item.id)).filter((a) => a.field === "comment");
    // As the reference: the comment's HTML, the comment named in new_identifier too.
    expect(history).toMatchObject([
      {
        verb: "created",
        commentId: comment.id,
        newValue: comment.comment_html,
        newIdentifier: comment.id,
        comment: "created a comment",
      },
    ]);
  });

  it("lists oldest first, fetches incrementally, and lets guests read", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const url = `${itemUrl(f.project, item)}/comments/`;
    const first = (await as(t, f.w.admin).post(url, { comment_html: "<p>one</p>" })).json();
    const second = (await as(t, f.w.member).post(url, { comment_html: "<p>two</p>" })).json();
    const all = await as(t, f.w.guest).get(url);
    expect(all.statusCode).toBe(200);
    expect(all.json().map((c: { id: string }) => c.id)).toEqual([first.id, second.id]);
    const newer = await as(t, f.w.guest).get(`${url}?created_at__gt=${encodeURIComponent(first.created_at)}`);
    expect(newer.json().map((c: { id: string }) => c.id)).toEqual([second.id]);
    expect((await as(t, f.w.guest).get(`${url}?created_at__gt=yesterday-ish`)).statusCode).toBe(400);
  });

  it("lets only the author edit, marking edited_at, and the author or a project admin delete", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const url = `${itemUrl(f.project, item)}/comments/`;
    const comment = (await as(t, f.w.member).post(url, { comment_html: "<p>draft</p>" })).json();

    const byAdmin = await as(t, f.w.admin).patch(`${url}${comment.id}/`, { comment_html: "<p>hijack</p>" });
    expect(byAdmin.statusCode).toBe(403);
    expect((await commentsOf(item.id))[0]?.commentHtml).toBe("<p>draft</p>");

    const { result: edited, events } = await eventsDuring(t, f, () =>
      as(t, f.w.member).patch(`${url}${comment.id}/`, { comment_html: "<p>final</p>" }),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ comment_html: "<p>final</p>", comment_stripped: "final" });
    expect(edited.json().edited_at).toEqual(expect.any(String));
    expect(events.map((e) => e.type)).toEqual(["comment.updated"]);

    const empty = await as(t, f.w.member).patch(`${url}${comment.id}/`, { comment_html: "<p> </p>" });
    expect(empty.statusCode).toBe(400);
    expect((await commentsOf(item.id))[0]?.commentHtml).toBe("<p>final</p>");

    // Another member may not delete it; the project admin may.
    const other = (await as(t, f.w.admin).post(url, { comment_html: "<p>admin's</p>" })).json();
    expect((await as(t, f.w.member).delete(`${url}${other.id}/`)).statusCode).toBe(403);
    const { result: removed, events: deleted } = await eventsDuring(t, f, () =>
      as(t, f.w.admin).delete(`${url}${comment.id}/`),
    );
    expect(removed.statusCode).toBe(204);
    expect(deleted.map((e) => e.type)).toEqual(["comment.deleted"]);
    expect(deleted[0]?.data).toMatchObject({ id: comment.id, comment_html: "<p>final</p>" });
    expect((await as(t, f.w.admin).delete(`${url}${other.id}/`)).statusCode).toBe(204);
    expect(await commentsOf(item.id)).toHaveLength(0);
    expect((await activityOf(t, item.id)).filter((a) => a.field === "comment").map((a) => a.verb)).toEqual([
      "created",
      "updated",
      "created",
      "deleted",
      "deleted",
    ]);
  });

  it("refuses empty and malformed comments with 400, storing and emitting nothing", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const url = `${itemUrl(f.project, item)}/comments/`;
    const bad = [
      {},
      { comment_html: "" },
      { comment_html: "<p></p>" },
      { comment_html: "<p>   </p><script>x</script>" },
      { comment_html: 5 },
      { comment_html: "<p>x</p>", access: "PUBLIC" },
      { comment_html: ["<p>x</p>"] },
      { comment_html: `<p>${"x".repeat(200_001)}</p>` },
    ];
    const { events } = await eventsDuring(t, f, async () => {
      for (const body of bad) {
        const res = await as(t, f.w.member).post(url, body);
        expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      }
    });
    expect(events).toEqual([]);
    expect(await commentsOf(item.id)).toHaveLength(0);
    expect(await isSubscribed(item.id, f.w.member.id)).toBe(false);
  });

  it("answers 401, 403 for guests writing and 404 across workspaces, hidden projects and items", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const url = `${itemUrl(f.project, item)}/comments/`;
    const comment = (await as(t, f.w.admin).post(url, { comment_html: "<p>hi</p>" })).json();

    expect((await as(t).get(url)).statusCode).toBe(401);
    expect((await as(t).post(url, { comment_html: "<p>x</p>" })).statusCode).toBe(401);
    expect((await as(t).patch(`${url}${comment.id}/`, { comment_html: "<p>x</p>" })).statusCode).toBe(401);

    expect((await as(t, f.w.guest).post(url, { comment_html: "<p>x</p>" })).statusCode).toBe(403);
    expect((await as(t, f.w.guest).delete(`${url}${comment.id}/`)).statusCode).toBe(403);

    const foreignItem = await createItem(t, f.foreign, f.w.stranger);
    expect((await as(t, f.w.member).get(`${itemUrl(f.foreign, foreignItem)}/comments/`)).statusCode).toBe(404);
    expect((await as(t, f.w.member).get(`${f.project.url}/issues/${foreignItem.id}/comments/`)).statusCode).toBe(404);
    expect((await as(t, f.w.stranger).post(url, { comment_html: "<p>x</p>" })).statusCode).toBe(404);
    const hiddenItem = await createItem(t, f.hidden, f.w.admin);
    expect((await as(t, f.w.member).get(`${itemUrl(f.hidden, hiddenItem)}/comments/`)).statusCode).toBe(404);

    // A comment through another item, and a deleted item.
    const other = await createItem(t, f.project, f.w.admin);
    expect(
      (
        await as(t, f.w.admin).patch(`${itemUrl(f.project, other)}/comments/${comment.id}/`, {
          comment_html: "<p>x</p>",
        })
      ).statusCode,
    ).toBe(404);
    await t.db.update(issues).set({ deletedAt: new Date() }).where(eq(issues.id, item.id));
    expect((await as(t, f.w.admin).get(url)).statusCode).toBe(404);
    expect((await commentsOf(item.id)).map((c) => c.commentHtml)).toEqual(["<p>hi</p>"]);
  });
});
