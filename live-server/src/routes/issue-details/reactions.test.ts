import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness.ts";
import { commentReactions, issueReactions } from "../../db/schema.ts";
import { isValidReaction } from "./reactions.ts";
import { as, createFixture, createItem, eventsDuring, type Fixture, itemUrl } from "./test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

const itemReactions = (issueId: string) =>
  t.db.select().from(issueReactions).where(eq(issueReactions.issueId, issueId));
const reactionsOfComment = (commentId: string) =>
  t.db.select().from(commentReactions).where(eq(commentReactions.commentId, commentId));

describe("reaction values", () => {
  it("accepts emoji (joined ones too) and short words, and refuses spaces, markup and long text", () => {
    for (const ok of ["👍", "🎉", "👨‍👩‍👧‍👦", "❤️", "128077", "+1", "thumbs_up"])
      expect(isValidReaction(ok), ok).toBe(true);
    for (const bad of ["", " ", "a b", "<b>", "x".repeat(17), "\u202Eevil", "a/b", "50%", "\n"]) {
      expect(isValidReaction(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("work-item reactions", () => {
  it("adds once per actor and reaction, lists with the actor, removes by value or id", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const url = `${itemUrl(f.project, item)}/reactions/`;
    const member = as(t, f.w.member);

    const { result: first, events } = await eventsDuring(t, f, () => member.post(url, { reaction: "👍" }));
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      reaction: "👍",
      actor: f.w.member.id,
      display_name: f.w.member.displayName,
      actor_detail: { id: f.w.member.id },
      issue: item.id,
    });
    expect(events.map((e) => e.type)).toEqual(["reaction.created"]);
    expect(events[0]).toMatchObject({ entity_id: first.json().id, project_id: f.project.id });

    const { result: again, events: none } = await eventsDuring(t, f, () => member.post(url, { reaction: "👍" }));
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    expect(none).toEqual([]);

    await member.post(url, { reaction: "🎉" });
    await as(t, f.w.admin).post(url, { reaction: "👍" });
    const listed = await as(t, f.w.guest).get(url);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().map((r: { reaction: string; actor: string }) => [r.reaction, r.actor])).toEqual([
      ["👍", f.w.member.id],
      ["🎉", f.w.member.id],
      ["👍", f.w.admin.id],
    ]);

    // By value removes the caller's own only.
    const { result: removed, events: deleted } = await eventsDuring(t, f, () =>
      member.delete(`${url}${encodeURIComponent("👍")}/`),
    );
    expect(removed.statusCode).toBe(204);
    expect(deleted.map((e) => e.type)).toEqual(["reaction.deleted"]);
    expect((await itemReactions(item.id)).map((r) => [r.reaction, r.actorId])).toEqual(
      expect.arrayContaining([
        ["🎉", f.w.member.id],
        ["👍", f.w.admin.id],
      ]),
    );
    expect((await member.delete(`${url}${encodeURIComponent("👍")}/`)).statusCode).toBe(404);

    // By id: someone else's is 403, own is 204.
    const adminsId = (await itemReactions(item.id)).find((r) => r.actorId === f.w.admin.id)?.id;
    expect((await member.delete(`${url}${adminsId}/`)).statusCode).toBe(403);
    const ownId = (await itemReactions(item.id)).find((r) => r.actorId === f.w.member.id)?.id;
    expect((await member.delete(`${url}${ownId}/`)).statusCode).toBe(204);
    expect(await itemReactions(item.id)).toHaveLength(1);
  });

  it("refuses bad values (400), guests (403), anonymous (401) and other workspaces (404), storing nothing", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const url = `${itemUrl(f.project, item)}/reactions/`;
    for (const body of [
      {},
      { reaction: "" },
      { reaction: "too long to be a reaction" },
      { reaction: "<i>" },
      { reaction: 1 },
      { reaction: ["👍"] },
    ]) {
      expect((await as(t, f.w.member).post(url, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await as(t).post(url, { reaction: "👍" })).statusCode).toBe(401);
    expect((await as(t).get(url)).statusCode).toBe(401);
    expect((await as(t, f.w.guest).post(url, { reaction: "👍" })).statusCode).toBe(403);
    expect((await as(t, f.w.stranger).post(url, { reaction: "👍" })).statusCode).toBe(404);
    const foreignItem = await createItem(t, f.foreign, f.w.stranger);
    expect((await as(t, f.w.member).get(`${f.project.url}/issues/${foreignItem.id}/reactions/`)).statusCode).toBe(404);
    const hiddenItem = await createItem(t, f.hidden, f.w.admin);
    expect(
      (await as(t, f.w.member).post(`${itemUrl(f.hidden, hiddenItem)}/reactions/`, { reaction: "👍" })).statusCode,
    ).toBe(404);
    expect(await itemReactions(item.id)).toHaveLength(0);
    expect(await itemReactions(hiddenItem.id)).toHaveLength(0);
  });
});

describe("comment reactions", () => {
  it("adds, lists inside the comment, and removes own reactions by id", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const comment = (
      await as(t, f.w.admin).post(`${itemUrl(f.project, item)}/comments/`, { comment_html: "<p>ship it</p>" })
    ).json();
    const url = `${f.project.url}/comments/${comment.id}/reactions/`;

    const { result: added, events } = await eventsDuring(t, f, () => as(t, f.w.member).post(url, { reaction: "🚀" }));
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ reaction: "🚀", actor: f.w.member.id, comment: comment.id });
    expect(events.map((e) => e.type)).toEqual(["reaction.created"]);
    expect(events[0]?.data).toMatchObject({ comment: comment.id, issue: item.id });
    expect((await as(t, f.w.member).post(url, { reaction: "🚀" })).statusCode).toBe(200);
    const adminReaction = (await as(t, f.w.admin).post(url, { reaction: "🚀" })).json();

    expect((await as(t, f.w.guest).get(url)).json()).toHaveLength(2);
    const comments = (await as(t, f.w.guest).get(`${itemUrl(f.project, item)}/comments/`)).json();
    expect(comments[0].comment_reactions.map((r: { actor: string }) => r.actor)).toEqual([f.w.member.id, f.w.admin.id]);

    expect((await as(t, f.w.member).delete(`${url}${adminReaction.id}/`)).statusCode).toBe(403);
    const { result: removed, events: deleted } = await eventsDuring(t, f, () =>
      as(t, f.w.member).delete(`${url}${added.json().id}/`),
    );
    expect(removed.statusCode).toBe(204);
    expect(deleted.map((e) => e.type)).toEqual(["reaction.deleted"]);
    expect((await reactionsOfComment(comment.id)).map((r) => r.actorId)).toEqual([f.w.admin.id]);
    expect((await as(t, f.w.member).delete(`${url}${added.json().id}/`)).statusCode).toBe(404);
  });

  it("answers 400, 401, 403 and 404 as the comment's work item does", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const comment = (
      await as(t, f.w.admin).post(`${itemUrl(f.project, item)}/comments/`, { comment_html: "<p>c</p>" })
    ).json();
    const url = `${f.project.url}/comments/${comment.id}/reactions/`;
    expect((await as(t, f.w.member).post(url, { reaction: "no spaces allowed" })).statusCode).toBe(400);
    expect((await as(t).post(url, { reaction: "👍" })).statusCode).toBe(401);
    expect((await as(t, f.w.guest).post(url, { reaction: "👍" })).statusCode).toBe(403);
    expect((await as(t, f.w.stranger).get(url)).statusCode).toBe(404);
    // Through another project of the same workspace, and from another workspace's URL.
    expect((await as(t, f.w.admin).get(`${f.hidden.url}/comments/${comment.id}/reactions/`)).statusCode).toBe(404);
    expect((await as(t, f.w.stranger).get(`${f.foreign.url}/comments/${comment.id}/reactions/`)).statusCode).toBe(404);
    expect((await as(t, f.w.member).get(`${f.project.url}/comments/not-an-id/reactions/`)).statusCode).toBe(404);
    expect(await reactionsOfComment(comment.id)).toHaveLength(0);

    // A guest who may only see their own items can't reach comments on others' items.
    const strict = await createFixture(t, { guestViewAll: false });
    const theirs = await createItem(t, strict.project, strict.w.admin);
    const c = (
      await as(t, strict.w.admin).post(`${itemUrl(strict.project, theirs)}/comments/`, { comment_html: "<p>c</p>" })
    ).json();
    expect((await as(t, strict.w.guest).get(`${strict.project.url}/comments/${c.id}/reactions/`)).statusCode).toBe(404);
    expect((await as(t, strict.w.member).get(`${strict.project.url}/comments/${c.id}/reactions/`)).statusCode).toBe(
      200,
    );
  });
});
