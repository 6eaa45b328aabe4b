/**
 * The sync list's `scope` (GET v2/{type}/): a delta (`updated_at__gt`) answers only what changed,
 * so when the caller's rights change — demoted to a restricted guest, promoted back, the project's
 * guest setting toggled — nothing in it says that items left (or entered) their view. The scope
 * does: `all`, or `own` for a restricted guest, on every page, so a client whose copy was made
 * under another scope syncs again in full (client/src/lib/local-db).
 */
import { ROLE } from "@tideline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp, type TestUser } from "../../../test/harness.ts";
import { membershipOf } from "../projects/test-support.ts";
import type { PresentedIssue } from "./query.ts";
import { anotherProject, createFixture, createIssue, type Fixture, issueRow } from "./test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

type SyncPage = {
  results: PresentedIssue[];
  count: number;
  next_cursor: string | null;
  next_page_results: boolean;
  scope: string;
};
type Project = { id: string; url: string };

async function sync(user: TestUser, project: Project, query: Record<string, string> = {}, type = "issues") {
  const res = await client(t.app, user).get(`${project.url}/v2/${type}/?${new URLSearchParams(query)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SyncPage;
}

const names = (page: SyncPage) => page.results.map((i) => i.name).sort();
const newest = (page: SyncPage) =>
  page.results
    .map((i) => i.updated_at)
    .sort()
    .at(-1) as string;

/** Set `user`'s role in the project through the API, as its admin. */
async function setRole(project: Project, user: TestUser, role: number) {
  const row = await membershipOf(t, project.id, user.id);
  const res = await client(t.app, f.w.admin).patch(`${project.url}/members/${row?.id}/`, { role });
  expect(res.statusCode, res.body).toBe(200);
}

describe("GET v2/issues/ scope", () => {
  it("says whose items the list holds: all for members, own for a restricted guest, all with guest_view_all_features", async () => {
    const q = await anotherProject(t, f);
    await createIssue(t, f.w.admin, q.url, { name: "Admin's" });
    expect((await sync(f.w.admin, q)).scope).toBe("all");
    expect((await sync(f.w.member, q)).scope).toBe("all");
    const guest = await sync(f.w.guest, q);
    expect(guest.scope).toBe("own");
    expect(guest.results).toEqual([]);
    const open = await client(t.app, f.w.admin).patch(`${q.url}/`, { guest_view_all_features: true });
    expect(open.statusCode, open.body).toBe(200);
    const opened = await sync(f.w.guest, q);
    expect(opened.scope).toBe("all");
    expect(names(opened)).toEqual(["Admin's"]);
  });

  it("keeps the reference's shape and adds scope to every page, and to epics", async () => {
    const q = await anotherProject(t, f);
    const epicsOn = await client(t.app, f.w.admin).patch(`${q.url}/`, { is_epic_enabled: true });
    expect(epicsOn.statusCode, epicsOn.body).toBe(200);
    for (const name of ["One", "Two", "Three"]) await createIssue(t, f.w.member, q.url, { name });
    await createIssue(t, f.w.member, q.url, { name: "Epic" }, "epics");
    let cursor: string | null = null;
    const pages: SyncPage[] = [];
    do {
      const page = await sync(f.w.member, q, cursor ? { per_page: "2", cursor } : { per_page: "2" });
      pages.push(page);
      cursor = page.next_cursor;
    } while (cursor);
    expect(pages).toHaveLength(2);
    for (const page of pages) {
      expect(Object.keys(page).sort()).toEqual(["count", "next_cursor", "next_page_results", "results", "scope"]);
      expect(page.scope).toBe("all");
    }
    const epics = await sync(f.w.member, q, {}, "epics");
    expect(epics.scope).toBe("all");
    expect(names(epics)).toEqual(["Epic"]);
  });

  it("tells a client catching up that items left its view when demoted, and came back when promoted", async () => {
    const q = await anotherProject(t, f);
    const mine = await createIssue(t, f.w.member, q.url, { name: "Mine" });
    const theirs = await createIssue(t, f.w.admin, q.url, { name: "Theirs", priority: "low" });
    await createIssue(t, f.w.admin, q.url, { name: "Also theirs" });
    const first = await sync(f.w.member, q);
    expect(first.scope).toBe("all");
    expect(names(first)).toEqual(["Also theirs", "Mine", "Theirs"]);
    let since = newest(first);

    // Demoted to guest (guest_view_all_features off): nothing changed, so the delta holds nothing…
    await setRole(q, f.w.member, ROLE.guest);
    const demoted = await sync(f.w.member, q, { updated_at__gt: since });
    expect(demoted.results).toEqual([]);
    // …nothing was deleted either…
    const deleted = await client(t.app, f.w.member).get(
      `${q.url}/deleted-issues/?updated_at__gt=${encodeURIComponent(since)}`,
    );
    expect(deleted.json()).toEqual([]);
    // …but the scope changed: the client syncs again in full and keeps only its own item.
    expect(demoted.scope).toBe("own");
    const full = await sync(f.w.member, q);
    expect(full.scope).toBe("own");
    expect(names(full)).toEqual(["Mine"]);
    since = newest(full);

    // While a guest: another's item changes (unseen), then the guest's own (seen, moving the mark past it).
    await client(t.app, f.w.admin).patch(`${q.url}/issues/${theirs.id}/`, { priority: "urgent" });
    await client(t.app, f.w.admin).patch(`${q.url}/issues/${mine.id}/`, { name: "Mine, renamed" });
    const asGuest = await sync(f.w.member, q, { updated_at__gt: since });
    expect(names(asGuest)).toEqual(["Mine, renamed"]);
    expect(asGuest.scope).toBe("own");
    since = newest(asGuest);

    // Promoted back: the delta from that mark misses the other item's change; the scope says to sync again.
    await setRole(q, f.w.member, ROLE.member);
    const promoted = await sync(f.w.member, q, { updated_at__gt: since });
    expect(promoted.results).toEqual([]);
    expect(promoted.scope).toBe("all");
    const again = await sync(f.w.member, q);
    expect(names(again)).toEqual(["Also theirs", "Mine, renamed", "Theirs"]);
    expect(again.results.find((i) => i.id === theirs.id)?.priority).toBe("urgent");
  });

  it("answers 404 once the project is lost, 401 signed out, and 400 for a bad mark or cursor, changing nothing", async () => {
    const q = await anotherProject(t, f);
    const item = await createIssue(t, f.w.member, q.url, { name: "Kept" });
    const before = await issueRow(t, item.id);
    for (const query of ["updated_at__gt=yesterday", "cursor=bogus", "per_page=0"]) {
      const res = await client(t.app, f.w.member).get(`${q.url}/v2/issues/?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ error: expect.any(String), code: "VALIDATION_ERROR" });
    }
    expect(await issueRow(t, item.id)).toEqual(before);
    expect((await client(t.app, null).get(`${q.url}/v2/issues/`)).statusCode).toBe(401);
    const row = await membershipOf(t, q.id, f.w.member.id);
    const removed = await client(t.app, f.w.admin).delete(`${q.url}/members/${row?.id}/`);
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    const lost = await client(t.app, f.w.member).get(
      `${q.url}/v2/issues/?updated_at__gt=${encodeURIComponent(item.updated_at)}`,
    );
    expect(lost.statusCode).toBe(404);
    expect((await client(t.app, f.w.member).get(`${q.url}/deleted-issues/`)).statusCode).toBe(404);
  });
});
