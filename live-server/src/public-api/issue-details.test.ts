import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { issueComments, issueLinks, projects } from "../db/schema.ts";
import { createWorld, projectWithTeam, type World } from "../routes/projects/test-support.ts";
import { eventsDuring, tokenFor, v1 } from "./test-support.ts";

let t: TestApp;
let w: World;
let keys: { admin: string; member: string; guest: string; stranger: string };
let item: string;

beforeAll(async () => {
  t = await createTestApp({ API_KEY_RATE_LIMIT: "1000/minute" });
  w = await createWorld(t);
  const team = await projectWithTeam(t, w);
  // Guests of this project see every item (so they may read comments, not write them).
  await t.db.update(projects).set({ guestViewAllFeatures: true }).where(eq(projects.id, team.id));
  keys = {
    admin: (await tokenFor(t, w.admin, w.workspaceId)).key,
    member: (await tokenFor(t, w.member, w.workspaceId)).key,
    guest: (await tokenFor(t, w.guest, w.workspaceId)).key,
    stranger: (await tokenFor(t, w.stranger, w.otherWorkspaceId)).key,
  };
  const base = `/api/v1/workspaces/${w.slug}/projects/${team.id}/issues`;
  const made = await v1(t.app, keys.admin).post(`${base}/`, { name: "Talked about" });
  item = `${base}/${made.json().id}`;
});
afterAll(() => t.close());

const commentCount = async () => (await t.db.select({ n: count() }).from(issueComments))[0]?.n ?? 0;
const linkCount = async () => (await t.db.select({ n: count() }).from(issueLinks))[0]?.n ?? 0;

describe("public API comments", () => {
  it("adds, lists, edits and deletes, with comment.* events", async () => {
    let id = "";
    const seen = await eventsDuring(t, async () => {
      const made = await v1(t.app, keys.member).post(`${item}/comments/`, { comment_html: "<p>From CI</p>" });
      expect(made.statusCode, made.body).toBe(201);
      expect(made.json()).toMatchObject({ comment_html: "<p>From CI</p>", actor: w.member.id, access: "INTERNAL" });
      id = made.json().id;
      const list = await v1(t.app, keys.guest).get(`${item}/comments/`);
      expect(list.statusCode).toBe(200);
      expect(list.json()).toMatchObject({ count: 1, total_results: 1 });
      expect((await v1(t.app, keys.admin).get(`${item}/comments/${id}/`)).json().id).toBe(id);
      // Only the author edits.
      expect(
        (await v1(t.app, keys.admin).patch(`${item}/comments/${id}/`, { comment_html: "<p>x</p>" })).statusCode,
      ).toBe(403);
      const edited = await v1(t.app, keys.member).patch(`${item}/comments/${id}/`, { comment_html: "<p>Edited</p>" });
      expect(edited.json().comment_html).toBe("<p>Edited</p>");
      expect(edited.json().edited_at).toBeTruthy();
      // The author or a project admin deletes.
      expect((await v1(t.app, keys.admin).delete(`${item}/comments/${id}/`)).statusCode).toBe(204);
    });
    expect(seen.map((e) => e.type)).toEqual(
      expect.arrayContaining(["comment.created", "comment.updated", "comment.deleted"]),
    );
    expect((await v1(t.app, keys.admin).get(`${item}/comments/${id}/`)).statusCode).toBe(404);
  });

  it("refuses guests, other workspaces and bad input, storing nothing", async () => {
    const before = await commentCount();
    expect((await v1(t.app, keys.guest).post(`${item}/comments/`, { comment_html: "<p>g</p>" })).statusCode).toBe(403);
    expect((await v1(t.app, keys.stranger).post(`${item}/comments/`, { comment_html: "<p>s</p>" })).statusCode).toBe(
      404,
    );
    for (const body of [
      {},
      { comment_html: "" },
      { comment_html: "<p></p>" },
      { comment_html: 3 },
      { comment_html: "<p>x</p>", access: "PUBLIC" },
    ]) {
      const res = await v1(t.app, keys.admin).post(`${item}/comments/`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await commentCount()).toBe(before);
  });
});

describe("public API links", () => {
  it("adds, lists, edits and deletes, with link.* events", async () => {
    const seen = await eventsDuring(t, async () => {
      const made = await v1(t.app, keys.member).post(`${item}/links/`, {
        url: "https://example.com/spec",
        title: "Spec",
      });
      expect(made.statusCode, made.body).toBe(201);
      expect(made.json()).toMatchObject({ url: "https://example.com/spec", title: "Spec", issue: expect.any(String) });
      const id = made.json().id;
      const list = await v1(t.app, keys.admin).get(`${item}/links/`);
      expect(list.json().results.map((l: { id: string }) => l.id)).toContain(id);
      const patched = await v1(t.app, keys.member).patch(`${item}/links/${id}/`, { title: "Renamed" });
      expect(patched.json().title).toBe("Renamed");
      expect((await v1(t.app, keys.member).delete(`${item}/links/${id}/`)).statusCode).toBe(204);
    });
    expect(seen.map((e) => e.type)).toEqual(expect.arrayContaining(["link.created", "link.updated", "link.deleted"]));
  });

  it("refuses bad URLs, duplicates, guests and other workspaces, storing nothing", async () => {
    await v1(t.app, keys.admin).post(`${item}/links/`, { url: "https://example.com/once" });
    const before = await linkCount();
    for (const body of [
      {},
      { url: "javascript:alert(1)" },
      { url: "not a url" },
      { url: "https://example.com/once" },
    ]) {
      const res = await v1(t.app, keys.admin).post(`${item}/links/`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(typeof res.json().error).toBe("string");
    }
    expect((await v1(t.app, keys.guest).post(`${item}/links/`, { url: "https://example.com/g" })).statusCode).toBe(403);
    expect((await v1(t.app, keys.stranger).get(`${item}/links/`)).statusCode).toBe(404);
    expect(await linkCount()).toBe(before);
  });
});

describe("public API activity", () => {
  it("lists what changed on the work item, oldest first, and one by id", async () => {
    await v1(t.app, keys.admin).patch(`${item}/`, { priority: "urgent" });
    const list = await v1(t.app, keys.guest).get(`${item}/activities/`);
    expect(list.statusCode).toBe(200);
    const results = list.json().results as {
      id: string;
      field: string | null;
      verb: string;
      new_value: string | null;
    }[];
    expect(results[0]?.verb).toBe("created");
    expect(results.find((r) => r.field === "priority")?.new_value).toBe("urgent");
    const one = await v1(t.app, keys.admin).get(`${item}/activities/${results[0]?.id}/`);
    expect(one.json().id).toBe(results[0]?.id);
    expect(
      (await v1(t.app, keys.admin).get(`${item}/activities/00000000-0000-4000-8000-000000000000/`)).statusCode,
    ).toBe(404);
    expect((await v1(t.app, keys.stranger).get(`${item}/activities/`)).statusCode).toBe(404);
  });
});
