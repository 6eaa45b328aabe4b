/**
 * The local copy follows rights: the work-items store and its IndexedDB copy against the real
 * server (server-for-tests.ts). A member's copy holds every item; demoted to a restricted guest,
 * the catch-up (refreshProject, as the live channel runs it) drops the others' items from the
 * cache and the copy; a reload paints only what the server allows; promoted back, the items
 * return with the server's values (a priority changed while they could not see the item); a
 * copy made by an older build (no scope) is synced again; a lost project is forgotten whole.
 */
import "fake-indexeddb/auto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ApiClient, startTestServer, type TestServer, type TestUser } from "./server-for-tests";

let server: TestServer;
let admin: TestUser;
let member: TestUser;
let owner: ApiClient;
let slug: string;
let projectId: string;
let projectUrl: string;
let memberRow: string;
const ids: Record<string, string> = {};

/** A fresh page of the member: the client's modules evaluated again (empty memory), IndexedDB kept. */
async function openPage() {
  vi.resetModules();
  const [store, localDb, session, meta] = await Promise.all([
    import("../../stores/work-items"),
    import("./work-items"),
    import("../../stores/session"),
    import("./meta"),
  ]);
  session.session.user = { id: member.id } as never;
  return { store, localDb, meta, status: (await import("./database")).localDb };
}
type Page = Awaited<ReturnType<typeof openPage>>;

const shown = (page: Page) =>
  page.store
    .getProjectWorkItems(projectId)
    .map((i) => i.name)
    .sort();
/** The names the copy holds, once every write is done. */
async function stored(page: Page): Promise<string[] | null> {
  await page.localDb.flushLocalWrites();
  const copy = await page.localDb.readStoredProject(projectId);
  return copy ? copy.items.map((i) => i.name).sort() : null;
}
async function storedScope(page: Page) {
  await page.localDb.flushLocalWrites();
  return (await page.localDb.readStoredProject(projectId))?.sync.scope;
}
async function setRole(role: number) {
  const res = await owner.patch(`${projectUrl}/members/${memberRow}/`, { role });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.createUser();
  member = await server.createUser();
  owner = server.client(admin);
  slug = (await server.createWorkspace(admin, [{ user: member, role: 15 }])).slug;
  const project = await owner.post(`/api/workspaces/${slug}/projects/`, { name: "Rights", identifier: "RGT" });
  expect(project.statusCode, project.body).toBe(201);
  projectId = project.json().id;
  projectUrl = `/api/workspaces/${slug}/projects/${projectId}`;
  const added = await owner.post(`${projectUrl}/members/`, { members: [{ member_id: member.id, role: 15 }] });
  expect(added.statusCode, added.body).toBe(201);
  memberRow = (JSON.parse(added.body) as { id: string }[])[0]?.id ?? "";
  for (const name of ["Plan", "Budget"]) {
    const res = await owner.post(`${projectUrl}/issues/`, { name, priority: "low" });
    ids[name] = res.json().id;
  }
  const mine = await server.client(member).post(`${projectUrl}/issues/`, { name: "Note" });
  ids.Note = mine.json().id;
  server.serveFetchAs(member);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe("the local copy follows rights", () => {
  it("demoted: the catch-up drops the others' items from the cache and the copy; a reload shows only the guest's", async () => {
    const page = await openPage();
    await page.store.loadProjectWorkItems(slug, projectId);
    expect(shown(page)).toEqual(["Budget", "Note", "Plan"]);
    expect(await stored(page)).toEqual(["Budget", "Note", "Plan"]);
    expect(await storedScope(page)).toBe("all");

    await setRole(5);
    await page.store.refreshProject(slug, projectId, { fresh: true });
    expect(shown(page)).toEqual(["Note"]);
    expect(await stored(page)).toEqual(["Note"]);
    expect(await storedScope(page)).toBe("own");

    // While a guest: another's item changes unseen, then the guest's own (seen: the mark moves past it).
    expect((await owner.patch(`${projectUrl}/issues/${ids.Plan}/`, { priority: "urgent" })).statusCode).toBe(200);
    expect((await owner.patch(`${projectUrl}/issues/${ids.Note}/`, { name: "Note 2" })).statusCode).toBe(200);
    await page.store.refreshProject(slug, projectId, { fresh: true });
    expect(shown(page)).toEqual(["Note 2"]);

    // A reload (the page's pending writes go at pagehide).
    await page.localDb.flushLocalWrites();
    const reloaded = await openPage();
    await reloaded.store.loadProjectWorkItems(slug, projectId);
    expect(shown(reloaded)).toEqual(["Note 2"]);
  }, 60_000);

  it("promoted back: the catch-up brings the items back with the server's values, not stale ones", async () => {
    const page = await openPage();
    await page.store.loadProjectWorkItems(slug, projectId);
    expect(shown(page)).toEqual(["Note 2"]);
    await setRole(15);
    await page.store.refreshProject(slug, projectId, { fresh: true });
    expect(shown(page)).toEqual(["Budget", "Note 2", "Plan"]);
    expect(page.store.getWorkItem(ids.Plan as string)?.priority).toBe("urgent");
    expect(await stored(page)).toEqual(["Budget", "Note 2", "Plan"]);
    expect(await storedScope(page)).toBe("all");
    await page.localDb.flushLocalWrites();
    const reloaded = await openPage();
    await reloaded.store.loadProjectWorkItems(slug, projectId);
    expect(reloaded.store.getWorkItem(ids.Plan as string)?.priority).toBe("urgent");
  }, 60_000);

  it("the live channel said the access changed: the project is synced again in full, whatever the delta says", async () => {
    const page = await openPage();
    await page.store.loadProjectWorkItems(slug, projectId);
    const requests: string[] = [];
    const inner = globalThis.fetch;
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => {
      requests.push(new Request(input, init).url);
      return inner(input, init);
    });
    try {
      await page.store.refreshProject(slug, projectId, { full: true, fresh: true });
    } finally {
      vi.stubGlobal("fetch", inner);
    }
    expect(requests.some((url) => url.includes("/v2/issues/") && !url.includes("updated_at__gt"))).toBe(true);
    expect(shown(page)).toEqual(["Budget", "Note 2", "Plan"]);
  }, 60_000);

  it("a copy of an older build (no scope) painted after a demotion is synced again at the first catch-up", async () => {
    const before = await openPage();
    await before.store.loadProjectWorkItems(slug, projectId);
    await before.localDb.flushLocalWrites();
    // As an older build left it: every item, and no scope in the sync record.
    const db = await (await import("./database")).localDatabase();
    const key = `sync:${projectId}`;
    const row = await db?.get("options", key);
    const { scope: _scope, ...record } = (row?.value ?? {}) as Record<string, unknown>;
    await db?.put("options", { key, value: record });
    await setRole(5);

    const page = await openPage();
    await page.store.loadProjectWorkItems(slug, projectId);
    // Painted from the copy (local first)…
    expect(shown(page)).toEqual(["Budget", "Note 2", "Plan"]);
    // …and corrected by the first catch-up.
    await page.store.refreshProject(slug, projectId, { fresh: true });
    await vi.waitFor(() => expect(shown(page)).toEqual(["Note 2"]));
    expect(await stored(page)).toEqual(["Note 2"]);
    expect(await storedScope(page)).toBe("own");
    await setRole(15);
  }, 60_000);

  it("a lost project: the delta answers 404 and forgetting it drops its items, copy and lists", async () => {
    const page = await openPage();
    await page.store.loadProjectWorkItems(slug, projectId);
    await page.meta.storeProjectLists(projectId, { states: [] });
    expect(await page.meta.readProjectLists(projectId, ["states"])).toEqual({ states: [] });
    await vi.waitFor(async () => expect(await stored(page)).toEqual(["Budget", "Note 2", "Plan"]));
    expect((await owner.delete(`${projectUrl}/members/${memberRow}/`)).statusCode).toBeLessThan(300);

    const failed = await page.store.refreshProject(slug, projectId).then(
      () => null,
      (error: { response?: Response }) => error.response?.status,
    );
    expect(failed).toBe(404);
    await page.store.forgetProject(projectId);
    expect(shown(page)).toEqual([]);
    expect(page.store.workItems.status[projectId]).toBeUndefined();
    expect(await stored(page)).toBeNull();
    expect(await page.meta.readProjectLists(projectId, ["states"])).toBeNull();
    // A reload finds nothing to paint: the board goes to the server, which refuses.
    const reloaded = await openPage();
    await expect(reloaded.store.loadProjectWorkItems(slug, projectId)).rejects.toThrow();
    expect(shown(reloaded)).toEqual([]);
  }, 60_000);
});
