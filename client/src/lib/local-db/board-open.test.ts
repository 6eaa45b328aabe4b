/**
 * The work-items store with the local database against the real server (the app on a migrated
 * PGlite database, reached through app.inject in place of the network): a first visit stores
 * the project, a second visit (a fresh page: modules loaded again, same IndexedDB) paints from
 * the copy, catches up with the delta call, and the caught-up state is stored.
 */
import "fake-indexeddb/auto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestServer, type TestServer, type TestUser } from "./server-for-tests";

let server: TestServer;
let admin: TestUser;
let slug: string;
let projectUrl: string;
let projectId: string;

/** A fresh page: the client's modules evaluated again (empty memory), the browser's IndexedDB kept. */
async function openPage() {
  vi.resetModules();
  const [store, localDb, session] = await Promise.all([
    import("../../stores/work-items"),
    import("./work-items"),
    import("../../stores/session"),
  ]);
  session.session.user = { id: admin.id } as never;
  return { store, localDb, status: (await import("./database")).localDb };
}

const names = (items: readonly { name: string }[]) => items.map((i) => i.name).sort();

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.createUser();
  slug = (await server.createWorkspace(admin)).slug;
  const project = await server.client(admin).post(`/api/workspaces/${slug}/projects/`, {
    name: "Local first",
    identifier: "LOCAL",
    network: 2,
  });
  expect(project.statusCode, project.body).toBe(201);
  projectId = project.json().id;
  projectUrl = `/api/workspaces/${slug}/projects/${projectId}`;
  for (const name of ["Alpha", "Beta", "Gamma"]) {
    const res = await server.client(admin).post(`${projectUrl}/issues/`, { name });
    expect(res.statusCode, res.body).toBe(201);
  }
  server.serveFetchAs(admin);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe("opening a board with the local database", () => {
  it("first visit syncs and stores; the next paints from the copy, catches up and stores that", async () => {
    const first = await openPage();
    await first.store.loadProjectWorkItems(slug, projectId);
    expect(names(first.store.getProjectWorkItems(projectId))).toEqual(["Alpha", "Beta", "Gamma"]);
    // The copy is stored behind the painted board.
    await first.localDb.flushLocalWrites();
    const stored = await first.localDb.readStoredProject(projectId);
    expect(stored?.sync.complete).toBe(true);
    expect(stored?.items).toHaveLength(3);

    // Meanwhile, on the server: a rename, a deletion and a new item.
    const byName = new Map(first.store.getProjectWorkItems(projectId).map((i) => [i.name, i.id]));
    const api = server.client(admin);
    expect((await api.patch(`${projectUrl}/issues/${byName.get("Alpha")}/`, { name: "Alpha 2" })).statusCode).toBe(200);
    expect((await api.delete(`${projectUrl}/issues/${byName.get("Beta")}/`)).statusCode).toBe(204);
    expect((await api.post(`${projectUrl}/issues/`, { name: "Delta" })).statusCode).toBe(201);

    const second = await openPage();
    const requests: string[] = [];
    const inner = globalThis.fetch;
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => {
      requests.push(new Request(input, init).url);
      return inner(input, init);
    });
    await second.store.loadProjectWorkItems(slug, projectId);
    // Painted from the copy: the board's status is ready with the stored items, before the delta.
    expect(second.store.workItems.status[projectId]).toBe("ready");
    expect(names(second.store.getProjectWorkItems(projectId))).toEqual(["Alpha", "Beta", "Gamma"]);
    expect(requests.some((url) => url.includes("/v2/issues/") && !url.includes("updated_at__gt"))).toBe(false);

    // The delta call catches up behind it.
    await vi.waitFor(() => expect(second.status.projects[projectId]).toBe("ready"));
    expect(names(second.store.getProjectWorkItems(projectId))).toEqual(["Alpha 2", "Delta", "Gamma"]);
    expect(requests.some((url) => url.includes("/v2/issues/") && url.includes("updated_at__gt"))).toBe(true);
    vi.stubGlobal("fetch", inner);

    // …and what it brought is stored, with the newer mark.
    await second.localDb.flushLocalWrites();
    const after = await second.localDb.readStoredProject(projectId);
    expect(names(after?.items ?? [])).toEqual(["Alpha 2", "Delta", "Gamma"]);
    expect(after?.sync.since).toBe(second.store.workItems.cache.since.get(projectId));
    expect(after?.sync.since && stored?.sync.since && after.sync.since > stored.sync.since).toBe(true);

    // A third visit paints the caught-up copy at once.
    const third = await openPage();
    await third.store.loadProjectWorkItems(slug, projectId);
    expect(names(third.store.getProjectWorkItems(projectId))).toEqual(["Alpha 2", "Delta", "Gamma"]);
  }, 60_000);

  it("a visit that changes nothing leaves the snapshot current: the next open reads it, not the rows", async () => {
    const page = await openPage();
    await page.store.loadProjectWorkItems(slug, projectId);
    await vi.waitFor(() => expect(page.status.projects[projectId]).toBe("ready"));
    await page.localDb.flushLocalWrites();
    await page.localDb.writeSnapshots();
    // The same versions again, as a live catch-up re-reading what the cache holds: not a change.
    page.store.upsertWorkItems(
      projectId,
      page.store.getProjectWorkItems(projectId).map((item) => ({ ...item })),
    );
    await page.localDb.flushLocalWrites();

    performance.clearMarks("tideline:local-db:snapshot-read");
    const next = await openPage();
    const stored = await next.localDb.readStoredProject(projectId);
    expect(names(stored?.items ?? [])).toEqual(["Alpha 2", "Delta", "Gamma"]);
    expect(performance.getEntriesByName("tideline:local-db:snapshot-read")).toHaveLength(1);
  }, 60_000);
});
