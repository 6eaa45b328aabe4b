import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness.ts";
import { issueLinks, projects } from "../../db/schema.ts";
import { activityOf, as, createFixture, createItem, eventsDuring, type Fixture, itemUrl } from "./test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

const linksOf = (issueId: string) => t.db.select().from(issueLinks).where(eq(issueLinks.issueId, issueId));

describe("work-item links", () => {
  it("adds, lists, edits and removes a link, with history and events", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const url = `${itemUrl(f.project, item)}/issue-links/`;
    const member = as(t, f.w.member);

    const { result: created, events } = await eventsDuring(t, f, () =>
      member.post(url, { url: "https://example.com/spec", title: "  Spec  " }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const link = created.json();
    expect(link).toMatchObject({
      url: "https://example.com/spec",
      title: "Spec",
      issue: item.id,
      created_by: f.w.member.id,
      created_by_detail: { id: f.w.member.id, display_name: f.w.member.displayName },
    });
    expect(link.created_by_detail.email).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual(["link.created"]);
    expect(events[0]).toMatchObject({
      project_id: f.project.id,
      entity_id: link.id,
      actor_id: f.w.member.id,
      data: { id: link.id, url: "https://example.com/spec" },
    });

    // Guests read.
    const listed = await as(t, f.w.guest).get(url);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().map((l: { id: string }) => l.id)).toEqual([link.id]);

    const patched = await member.patch(`${url}${link.id}/`, { url: "http://example.org/other", title: null });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ url: "http://example.org/other", title: null, updated_by: f.w.member.id });

    const titleOnly = await member.patch(`${url}${link.id}/`, { title: "Other" });
    expect(titleOnly.json()).toMatchObject({ url: "http://example.org/other", title: "Other" });

    const { result: removed, events: deleteEvents } = await eventsDuring(t, f, () =>
      member.delete(`${url}${link.id}/`),
    );
    expect(removed.statusCode).toBe(204);
    expect(deleteEvents.map((e) => e.type)).toEqual(["link.deleted"]);
    expect(deleteEvents[0]?.data).toMatchObject({ id: link.id, url: "http://example.org/other" });
    expect(await linksOf(item.id)).toHaveLength(0);
    expect((await member.delete(`${url}${link.id}/`)).statusCode).toBe(404);

    const history = (await activityOf(t, item.id)).filter((a) => a.field === "link");
    // As the reference: only a new URL is history (not a new title); a removal keeps the URL, no ids.
    expect(history.map((a) => [a.verb, a.oldValue, a.newValue, a.oldIdentifier, a.newIdentifier, a.comment])).toEqual([
      ["created", null, "https://example.com/spec", null, link.id, "created a link"],
      ["updated", "https://example.com/spec", "http://example.org/other", link.id, link.id, "updated a link"],
      ["deleted", "http://example.org/other", "", null, null, "deleted the link"],
    ]);
  });

  it("refuses a URL the item already has, in any spelling, and keeps other items free to use it", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const other = await createItem(t, f.project, f.w.admin);
    const url = `${itemUrl(f.project, item)}/issue-links/`;
    const admin = as(t, f.w.admin);
    expect((await admin.post(url, { url: "https://example.com" })).statusCode).toBe(201);
    const again = await admin.post(url, { url: "HTTPS://EXAMPLE.com/" });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: "LINK_EXISTS", fields: { url: [expect.any(String)] } });
    expect(await linksOf(item.id)).toHaveLength(1);
    expect(
      (await admin.post(`${itemUrl(f.project, other)}/issue-links/`, { url: "https://example.com" })).statusCode,
    ).toBe(201);

    // Editing a second link onto the first one's URL is refused too.
    const second = (await admin.post(url, { url: "https://example.net" })).json();
    const clash = await admin.patch(`${url}${second.id}/`, { url: "https://example.com/" });
    expect(clash.statusCode).toBe(400);
    expect((await linksOf(item.id)).map((l) => l.url).sort()).toEqual(["https://example.com", "https://example.net"]);
  });

  it("refuses bad input with 400 and stores nothing", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const url = `${itemUrl(f.project, item)}/issue-links/`;
    const admin = as(t, f.w.admin);
    const bad = [
      {},
      { url: "" },
      { url: "example.com" },
      { url: "javascript:alert(1)" },
      { url: "data:text/html,hi" },
      { url: "ftp://example.com/file" },
      { url: `https://example.com/${"a".repeat(2048)}` },
      { url: "https://example.com", title: "x".repeat(256) },
      { url: "https://example.com", title: 7 },
      { url: 42 },
    ];
    for (const body of bad) {
      const res = await admin.post(url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await linksOf(item.id)).toHaveLength(0);
    const link = (await admin.post(url, { url: "https://ok.example" })).json();
    expect((await admin.patch(`${url}${link.id}/`, { url: "mailto:a@b.c" })).statusCode).toBe(400);
    expect((await linksOf(item.id))[0]?.url).toBe("https://ok.example");
  });

  it("answers 401 anonymous, 403 to guests writing, 404 across workspaces and hidden projects", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const url = `${itemUrl(f.project, item)}/issue-links/`;
    const admin = as(t, f.w.admin);
    const link = (await admin.post(url, { url: "https://keep.example" })).json();

    expect((await as(t).get(url)).statusCode).toBe(401);
    expect((await as(t).post(url, { url: "https://x.example" })).statusCode).toBe(401);

    const guest = as(t, f.w.guest);
    expect((await guest.post(url, { url: "https://x.example" })).statusCode).toBe(403);
    expect((await guest.patch(`${url}${link.id}/`, { title: "x" })).statusCode).toBe(403);
    expect((await guest.delete(`${url}${link.id}/`)).statusCode).toBe(403);

    // Another workspace: its own URL and its item through ours.
    const foreignItem = await createItem(t, f.foreign, f.w.stranger);
    expect((await as(t, f.w.member).get(`${itemUrl(f.foreign, foreignItem)}/issue-links/`)).statusCode).toBe(404);
    expect((await as(t, f.w.member).get(`${f.project.url}/issues/${foreignItem.id}/issue-links/`)).statusCode).toBe(
      404,
    );
    expect((await as(t, f.w.stranger).get(url)).statusCode).toBe(404);
    expect((await as(t, f.w.stranger).post(url, { url: "https://x.example" })).statusCode).toBe(404);
    // A private project the member is not in.
    const hiddenItem = await createItem(t, f.hidden, f.w.admin);
    expect((await as(t, f.w.member).get(`${itemUrl(f.hidden, hiddenItem)}/issue-links/`)).statusCode).toBe(404);
    expect(
      (await as(t, f.w.member).post(`${itemUrl(f.hidden, hiddenItem)}/issue-links/`, { url: "https://x.example" }))
        .statusCode,
    ).toBe(404);
    // A link of another item through this one.
    const other = await createItem(t, f.project, f.w.admin);
    expect((await admin.patch(`${itemUrl(f.project, other)}/issue-links/${link.id}/`, { title: "x" })).statusCode).toBe(
      404,
    );
    expect((await admin.delete(`${itemUrl(f.project, other)}/issue-links/${link.id}/`)).statusCode).toBe(404);
    expect((await admin.delete(`${url}not-a-uuid/`)).statusCode).toBe(404);
    expect(await linksOf(item.id)).toHaveLength(1);
  });

  it("hides items of others from a guest when the project does not let guests see everything", async () => {
    const made = await createFixture(t, { guestViewAll: false });
    const theirs = await createItem(t, made.project, made.w.admin);
    const own = await createItem(t, made.project, made.w.guest);
    expect((await as(t, made.w.guest).get(`${itemUrl(made.project, theirs)}/issue-links/`)).statusCode).toBe(404);
    expect((await as(t, made.w.guest).get(`${itemUrl(made.project, own)}/issue-links/`)).statusCode).toBe(200);
  });

  it("serves epics at links/ only when the project has epics on", async () => {
    const epic = await createItem(t, f.project, f.w.admin, { isEpic: true });
    const url = `${itemUrl(f.project, epic, "epics")}/links/`;
    expect((await as(t, f.w.member).get(url)).statusCode).toBe(404);
    await t.db.update(projects).set({ isEpicEnabled: true }).where(eq(projects.id, f.project.id));
    const res = await as(t, f.w.member).post(url, { url: "https://epic.example" });
    expect(res.statusCode, res.body).toBe(201);
    expect((await as(t, f.w.member).get(url)).json()).toHaveLength(1);
    // A plain work item is not an epic.
    const item = await createItem(t, f.project, f.w.admin);
    expect((await as(t, f.w.member).get(`${itemUrl(f.project, item, "epics")}/links/`)).statusCode).toBe(404);
    await t.db.update(projects).set({ isEpicEnabled: false }).where(eq(projects.id, f.project.id));
  });
});
