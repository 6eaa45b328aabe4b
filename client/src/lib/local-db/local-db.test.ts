import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { proxy } from "valtio";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ProjectState } from "../../stores/project-meta";
import { type CurrentUser, session } from "../../stores/session";
import type { WorkItem } from "../../stores/work-items";
import { resetAllStores } from "../store";
import { localDatabase, localDb, resetLocalDatabaseForTests } from "./database";
import { setLocalDbEnabled } from "./flag";
import { forgetProjectLists, loadWithLocalCopy, readProjectLists, storeProjectLists, writeListsThrough } from "./meta";
import { databaseName, LOCAL_DB_VERSION, type ProjectSyncRecord, syncKey } from "./schema";
import {
  bindWorkItemCache,
  flushLocalWrites,
  forgetStoredProject,
  noteWorkItemChange,
  noteWorkItemSettled,
  readStoredProject,
  type SyncSource,
  syncProjectItems,
  writeSnapshots,
} from "./work-items";

const PROJECT = "p1";

/** A sync and the storing that goes on behind it. */
async function syncAndStore(...args: Parameters<typeof syncProjectItems>) {
  try {
    return await syncProjectItems(...args);
  } finally {
    await flushLocalWrites();
  }
}

function item(n: number, overrides: Partial<WorkItem> = {}): WorkItem {
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
  return {
    id: `i${String(n).padStart(5, "0")}`,
    name: `Item ${n}`,
    sequence_id: n,
    project_id: PROJECT,
    workspace_id: "w1",
    state_id: null,
    state__group: null,
    priority: "none",
    parent_id: null,
    estimate_point: null,
    start_date: null,
    target_date: null,
    sort_order: n * 1000,
    completed_at: null,
    archived_at: null,
    is_draft: false,
    is_epic: false,
    type_id: null,
    cycle_id: null,
    module_ids: [],
    assignee_ids: [],
    label_ids: [],
    sub_issues_count: 0,
    link_count: 0,
    attachment_count: 0,
    created_at: at,
    updated_at: at,
    created_by: null,
    updated_by: null,
    ...overrides,
  };
}

/**
 * The v2 sync list over an in-memory project, as the server pages it: oldest change first, 500
 * per page, the cursor naming the last item of the page. `failAt` makes that page's call fail.
 */
function serverOf(
  items: WorkItem[],
  options: { failAt?: number; deleted?: string[]; scope?: (call: number) => string | undefined } = {},
) {
  const calls = { pages: [] as (string | null)[], deletedSince: [] as string[] };
  const source: SyncSource = {
    async page(cursor) {
      calls.pages.push(cursor);
      if (options.failAt === calls.pages.length) throw new Error("network down");
      const sorted = [...items].sort((a, b) => a.updated_at.localeCompare(b.updated_at) || a.id.localeCompare(b.id));
      const start = cursor ? sorted.findIndex((i) => `${i.updated_at}|${i.id}` === cursor) + 1 : 0;
      const results = sorted.slice(start, start + 500);
      const last = results.at(-1);
      const more = start + 500 < sorted.length;
      const scope = options.scope?.(calls.pages.length);
      return {
        results,
        next_cursor: more && last ? `${last.updated_at}|${last.id}` : null,
        next_page_results: more,
        ...(scope !== undefined ? { scope } : {}),
      };
    },
    async deletedSince(since) {
      calls.deletedSince.push(since);
      return options.deleted ?? [];
    },
  };
  return { source, calls };
}

/** The in-memory cache the write-through reads (work-items.ts binds the real one). */
function cacheOf(items: WorkItem[], scope: string | null = "all") {
  const byId = new Map(items.map((i) => [i.id, i]));
  const pending = new Set<string>();
  let since: string | undefined = items
    .map((i) => i.updated_at)
    .sort()
    .at(-1);
  bindWorkItemCache({
    get: (id) => byId.get(id),
    isPending: (id) => pending.has(id),
    since: () => since,
    scope: () => scope,
    items: () => [...byId.values()],
  });
  return {
    byId,
    pending,
    put(next: WorkItem) {
      byId.set(next.id, next);
      if (!since || next.updated_at > since) since = next.updated_at;
      noteWorkItemChange(next.project_id, next.id);
    },
    drop(id: string) {
      byId.delete(id);
      noteWorkItemChange(PROJECT, id);
    },
  };
}

const many = (count: number, from = 1) => Array.from({ length: count }, (_, k) => item(from + k));

async function databaseNames(): Promise<string[]> {
  return (await indexedDB.databases()).map((d) => d.name ?? "");
}

beforeEach(() => {
  // A fresh browser profile for each test.
  globalThis.indexedDB = new IDBFactory();
  resetLocalDatabaseForTests();
  setLocalDbEnabled(true);
  session.user = { id: "u1" } as CurrentUser;
});

afterEach(() => {
  vi.restoreAllMocks();
  resetAllStores();
});

describe("opening the local database", () => {
  it("opens one database per user, and the status goes initializing → ready", async () => {
    expect(localDb.status).toBeUndefined();
    const opening = localDatabase();
    expect(localDb.status).toBe("initializing");
    expect(await opening).not.toBeNull();
    expect(localDb.status).toBe("ready");
    expect(await databaseNames()).toEqual([databaseName("u1")]);
  });

  it("clears every stored row when the stored version is another one", async () => {
    const db = await localDatabase();
    await db?.put("issues", item(1));
    await db?.put("states", { id: "s1", project_id: PROJECT } as never);
    await db?.put("options", { key: "version", value: "1.0" });
    resetLocalDatabaseForTests();

    const reopened = await localDatabase();
    expect(await reopened?.count("issues")).toBe(0);
    expect(await reopened?.count("states")).toBe(0);
    expect((await reopened?.get("options", "version"))?.value).toBe(LOCAL_DB_VERSION);
  });

  it("keeps the rows when the version matches", async () => {
    const db = await localDatabase();
    await db?.put("issues", item(1));
    resetLocalDatabaseForTests();
    expect(await (await localDatabase())?.count("issues")).toBe(1);
  });

  it("a tab of an older build holding the old schema open does not make us wait: the server is used", async () => {
    const old = await new Promise<IDBDatabase>((resolve) => {
      const request = indexedDB.open(databaseName("u1"), 1);
      request.onsuccess = () => resolve(request.result);
    });
    expect(await localDatabase()).toBeNull();
    expect(localDb.status).toBe("error");
    old.close();
  });

  it("a failure to open falls back to the server: null and the status says error", async () => {
    vi.spyOn(globalThis.indexedDB, "open").mockImplementation(() => {
      throw new Error("blocked by the browser");
    });
    expect(await localDatabase()).toBeNull();
    expect(localDb.status).toBe("error");
    expect(await readStoredProject(PROJECT)).toBeNull();
  });
});

describe("the first sync of a project", () => {
  it("stores pages of 500 in transactions of at most 50 puts, then marks the copy complete", async () => {
    const all = many(1234);
    const { source, calls } = serverOf(all);
    const putsPerTransaction = new Map<IDBTransaction, number>();
    const put = IDBObjectStore.prototype.put;
    vi.spyOn(IDBObjectStore.prototype, "put").mockImplementation(function (this: IDBObjectStore, ...args) {
      if (this.name === "issues")
        putsPerTransaction.set(this.transaction, (putsPerTransaction.get(this.transaction) ?? 0) + 1);
      return put.apply(this, args);
    });

    const synced = await syncAndStore(PROJECT, source, null);

    expect(calls.pages).toHaveLength(3);
    expect(synced.items).toHaveLength(1234);
    expect(synced.since).toBe(all.at(-1)?.updated_at);
    // 500 → 10 × 50, 500 → 10 × 50, 234 → 4 × 50 + 34.
    expect([...putsPerTransaction.values()]).toEqual([...Array(24).fill(50), 34]);
    const stored = await readStoredProject(PROJECT);
    expect(stored?.items).toHaveLength(1234);
    expect(stored?.sync).toMatchObject({ complete: true, cursor: null, since: all.at(-1)?.updated_at });
  });

  it("an interrupted sync (page 2 fails) keeps page 1 and resumes from its cursor", async () => {
    const all = many(1200);
    const first = serverOf(all, { failAt: 2 });
    await expect(syncAndStore(PROJECT, first.source, null)).rejects.toThrow("network down");

    const partial = await readStoredProject(PROJECT);
    expect(partial?.items).toHaveLength(500);
    expect(partial?.sync.complete).toBe(false);
    const page1Last = all[499] as WorkItem;
    expect(partial?.sync.cursor).toBe(`${page1Last.updated_at}|${page1Last.id}`);
    expect(partial?.sync.since).toBe(page1Last.updated_at);

    // Meanwhile item 7 (page 1) was deleted on the server.
    const remaining = all.filter((i) => i.id !== "i00007");
    const second = serverOf(remaining, { deleted: ["i00007"] });
    const synced = await syncAndStore(PROJECT, second.source, partial);

    // Page 1 is not fetched again: the first call starts at the stored cursor.
    expect(second.calls.pages[0]).toBe(partial?.sync.cursor);
    expect(second.calls.pages).toHaveLength(2);
    expect(second.calls.deletedSince).toEqual([page1Last.updated_at]);
    expect(synced.items).toHaveLength(1199);
    const stored = await readStoredProject(PROJECT);
    expect(stored?.sync.complete).toBe(true);
    expect(stored?.items.map((i) => i.id).sort()).toEqual(remaining.map((i) => i.id).sort());
  });

  it("a forced sync starts over: rows the server no longer has are gone", async () => {
    await syncAndStore(PROJECT, serverOf(many(3)).source, null);
    await syncAndStore(PROJECT, serverOf(many(2)).source, null);
    expect((await readStoredProject(PROJECT))?.items.map((i) => i.id)).toEqual(["i00001", "i00002"]);
  });

  it("leaves drafts out", async () => {
    const synced = await syncAndStore(PROJECT, serverOf([item(1), item(2, { is_draft: true })]).source, null);
    expect(synced.items.map((i) => i.id)).toEqual(["i00001"]);
    expect((await readStoredProject(PROJECT))?.items).toHaveLength(1);
  });
});

describe("write-through of the cache's changes", () => {
  it("hydrate → delta → persisted: the delta's changes and deletions, and the newer mark, are stored", async () => {
    const all = many(20);
    await syncAndStore(PROJECT, serverOf(all).source, null);
    const hydrated = await readStoredProject(PROJECT);
    expect(hydrated?.sync.complete).toBe(true);
    const cache = cacheOf(hydrated?.items ?? []);

    // The delta call's answer, applied to the cache as refreshProject does.
    const changed = item(3, { name: "Renamed", updated_at: "2026-02-01T00:00:00.000Z" });
    const created = item(21, { updated_at: "2026-02-01T00:00:01.000Z" });
    cache.put(changed);
    cache.put(created);
    cache.drop("i00005");
    await flushLocalWrites();

    const stored = await readStoredProject(PROJECT);
    const byId = new Map(stored?.items.map((i) => [i.id, i]));
    expect(byId.get("i00003")?.name).toBe("Renamed");
    expect(byId.has("i00021")).toBe(true);
    expect(byId.has("i00005")).toBe(false);
    expect(stored?.items).toHaveLength(20);
    expect(stored?.sync.since).toBe("2026-02-01T00:00:01.000Z");
  });

  it("a warm open reads the snapshot; a change makes it stale (rows are read) until it is written again", async () => {
    await syncAndStore(PROJECT, serverOf(many(30)).source, null);
    const getAll = vi.spyOn(IDBIndex.prototype, "getAll");
    expect((await readStoredProject(PROJECT))?.items).toHaveLength(30);
    expect(getAll).not.toHaveBeenCalled();

    const cache = cacheOf(many(30));
    cache.put(item(2, { name: "Changed", updated_at: "2026-02-01T00:00:00.000Z" }));
    await flushLocalWrites();
    const fromRows = await readStoredProject(PROJECT);
    expect(getAll).toHaveBeenCalledTimes(1);
    expect(fromRows?.items.find((i) => i.id === "i00002")?.name).toBe("Changed");

    await writeSnapshots();
    getAll.mockClear();
    const fromSnapshot = await readStoredProject(PROJECT);
    expect(getAll).not.toHaveBeenCalled();
    expect(fromSnapshot?.items.find((i) => i.id === "i00002")?.name).toBe("Changed");
    expect(fromSnapshot?.items).toHaveLength(30);
  });

  it("no snapshot of this tab's cache once another tab has written the rows since", async () => {
    await syncAndStore(PROJECT, serverOf(many(3)).source, null);
    const cache = cacheOf(many(3));
    cache.put(item(1, { name: "Here" }));
    await flushLocalWrites();
    // Another tab writes item 2 meanwhile (its own flush moves the stamp).
    const db = await localDatabase();
    const record = (await db?.get("options", syncKey(PROJECT)))?.value as ProjectSyncRecord;
    await db?.put("issues", item(2, { name: "There" }));
    await db?.put("options", { key: syncKey(PROJECT), value: { ...record, stamp: record.stamp + 1 } });

    await writeSnapshots();
    const stored = await readStoredProject(PROJECT);
    expect(stored?.items.find((i) => i.id === "i00002")?.name).toBe("There");
    expect(stored?.items.find((i) => i.id === "i00001")?.name).toBe("Here");
  });

  it("no snapshot is written while a change is still unwritten", async () => {
    await syncAndStore(PROJECT, serverOf(many(3)).source, null);
    const cache = cacheOf(many(3));
    cache.put(item(1, { name: "Optimistic" }));
    cache.pending.add("i00001");
    await flushLocalWrites();
    cache.put(item(2, { name: "Changed" }));
    await flushLocalWrites();
    await writeSnapshots();
    const getAll = vi.spyOn(IDBIndex.prototype, "getAll");
    const stored = await readStoredProject(PROJECT);
    // Still read from the rows, which hold the server's copy of item 1.
    expect(getAll).toHaveBeenCalledTimes(1);
    expect(stored?.items.find((i) => i.id === "i00001")?.name).toBe("Item 1");
  });

  it("a burst of changes is one transaction", async () => {
    await syncAndStore(PROJECT, serverOf(many(100)).source, null);
    const cache = cacheOf(many(100));
    const transaction = vi.spyOn(IDBDatabase.prototype, "transaction");
    for (let n = 1; n <= 100; n++)
      cache.put(item(n, { name: `Live ${n}`, updated_at: `2026-03-01T00:00:${String(n % 60).padStart(2, "0")}.000Z` }));
    await flushLocalWrites();
    expect(transaction.mock.calls.filter(([, mode]) => mode === "readwrite")).toHaveLength(1);
    expect((await readStoredProject(PROJECT))?.items.every((i) => i.name.startsWith("Live"))).toBe(true);
  });

  it("an item with a request in flight is written only once it settles (the copy holds what the server has)", async () => {
    await syncAndStore(PROJECT, serverOf([item(1)]).source, null);
    const cache = cacheOf([item(1)]);
    cache.put(item(1, { name: "Optimistic" }));
    cache.pending.add("i00001");
    await flushLocalWrites();
    expect((await readStoredProject(PROJECT))?.items[0]?.name).toBe("Item 1");

    cache.pending.delete("i00001");
    cache.byId.set("i00001", item(1, { name: "Confirmed" }));
    noteWorkItemSettled("i00001");
    await flushLocalWrites();
    expect((await readStoredProject(PROJECT))?.items[0]?.name).toBe("Confirmed");
  });

  it("changes of a project without a complete copy are not written", async () => {
    const cache = cacheOf([]);
    cache.put(item(1, { project_id: "elsewhere" }));
    await flushLocalWrites();
    const db = await localDatabase();
    expect(await db?.count("issues")).toBe(0);
  });
});

describe("rights: the copy follows the sync list's scope", () => {
  it("records the pages' scope with the copy; pages of different scopes record it as unknown", async () => {
    await syncAndStore(PROJECT, serverOf(many(3), { scope: () => "own" }).source, null);
    expect((await readStoredProject(PROJECT))?.sync.scope).toBe("own");
    // The rights changed between two pages: the copy's scope is not known.
    await syncAndStore(PROJECT, serverOf(many(700), { scope: (call) => (call === 1 ? "all" : "own") }).source, null);
    const mixed = await readStoredProject(PROJECT);
    expect(mixed?.sync.complete).toBe(true);
    expect(mixed?.sync.scope).toBeNull();
  });

  it("an interrupted copy of another scope is not resumed: it starts over and keeps nothing of the old part", async () => {
    const all = many(1200);
    // Page 2 fails: page 1 (500 items) is stored under scope "all".
    await expect(
      syncAndStore(PROJECT, serverOf(all, { failAt: 2, scope: () => "all" }).source, null),
    ).rejects.toThrow();
    const partial = await readStoredProject(PROJECT);
    expect(partial?.items).toHaveLength(500);
    expect(partial?.sync.scope).toBe("all");
    // Now a restricted guest: the list holds their 2 items only.
    const own = [item(7), item(900)];
    const { source, calls } = serverOf(own, { scope: () => "own" });
    const synced = await syncAndStore(PROJECT, source, partial);
    expect(synced.items.map((i) => i.id).sort()).toEqual(["i00007", "i00900"]);
    expect(calls.pages[0]).toBe(partial?.sync.cursor);
    expect(calls.pages[1]).toBeNull();
    expect(calls.deletedSince).toEqual([]);
    const stored = await readStoredProject(PROJECT);
    expect(stored?.items.map((i) => i.id).sort()).toEqual(["i00007", "i00900"]);
    expect(stored?.sync).toMatchObject({ complete: true, scope: "own" });
  });

  it("the write-through keeps the scope the cache's items were synced under", async () => {
    await syncAndStore(PROJECT, serverOf(many(5), { scope: () => "all" }).source, null);
    const cache = cacheOf(many(5), "own");
    cache.drop("i00002");
    await flushLocalWrites();
    expect((await readStoredProject(PROJECT))?.sync.scope).toBe("own");
  });

  it("forgetting a project drops its items, snapshot, sync record and lists; another project's copy stays", async () => {
    await syncAndStore(PROJECT, serverOf(many(5)).source, null);
    await syncAndStore("p2", serverOf([item(50, { project_id: "p2" })]).source, null);
    await storeProjectLists(PROJECT, { states: [{ id: "s1", name: "Todo" } as ProjectState] });
    const cache = cacheOf(many(5));
    cache.put(item(3, { name: "Changed before the loss", updated_at: "2026-02-01T00:00:00.000Z" }));
    // Queued, not yet written: it must not be written after the project is forgotten.
    await forgetStoredProject(PROJECT);
    await forgetProjectLists(PROJECT);
    await flushLocalWrites();
    await writeSnapshots();
    expect(await readStoredProject(PROJECT)).toBeNull();
    const db = await localDatabase();
    expect(await db?.getAllKeysFromIndex("issues", "project_id", PROJECT)).toEqual([]);
    expect(await db?.get("snapshots", PROJECT)).toBeUndefined();
    expect(await readProjectLists(PROJECT, ["states"])).toBeNull();
    expect(await db?.count("states")).toBe(0);
    expect((await readStoredProject("p2"))?.items).toHaveLength(1);
  });

  it("a sync under way when the project is forgotten stores nothing more of it", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { source } = serverOf(many(1200));
    const slow: SyncSource = {
      page: async (cursor) => {
        if (cursor) await gate;
        return source.page(cursor);
      },
      deletedSince: source.deletedSince,
    };
    const syncing = syncAndStore(PROJECT, slow, null);
    await vi.waitFor(async () => expect((await readStoredProject(PROJECT))?.items.length).toBe(500));
    await forgetStoredProject(PROJECT);
    release();
    await syncing;
    expect(await readStoredProject(PROJECT)).toBeNull();
    expect(await (await localDatabase())?.getAllKeysFromIndex("issues", "project_id", PROJECT)).toEqual([]);
  });
});

describe("project metadata", () => {
  type State = ProjectState;
  const states: State[] = [
    {
      id: "s1",
      project_id: PROJECT,
      name: "Todo",
      description: "",
      color: "#000",
      group: "unstarted",
      default: true,
      sequence: 1,
    },
  ];

  it("paints from the stored lists before the server answers, then stores the server's", async () => {
    const applied: string[][] = [];
    const apply = (lists: { states: { name: string }[] }) => applied.push(lists.states.map((s) => s.name));
    await loadWithLocalCopy(PROJECT, ["states"], Promise.resolve({ states: [...states] }), apply);
    await vi.waitFor(async () => expect(await readProjectLists(PROJECT, ["states"])).not.toBeNull());

    applied.length = 0;
    let answer: (lists: { states: State[] }) => void = () => undefined;
    const server = new Promise<{ states: State[] }>((resolve) => {
      answer = resolve;
    });
    const done = loadWithLocalCopy(PROJECT, ["states"], server, apply);
    await vi.waitFor(() => expect(applied).toEqual([["Todo"]]));
    answer({ states: [{ ...(states[0] as State), name: "To do" }] });
    await done;
    expect(applied).toEqual([["Todo"], ["To do"]]);
  });

  it("a failed server answer after the stored copy painted is not an error; without a copy it is", async () => {
    await expect(
      loadWithLocalCopy(PROJECT, ["states"], Promise.reject(new Error("offline")), () => undefined),
    ).rejects.toThrow("offline");
    await loadWithLocalCopy(PROJECT, ["states"], Promise.resolve({ states: [...states] }), () => undefined);
    await vi.waitFor(async () => expect(await readProjectLists(PROJECT, ["states"])).not.toBeNull());
    await expect(
      loadWithLocalCopy(PROJECT, ["states"], Promise.reject(new Error("offline")), () => undefined),
    ).resolves.toBeUndefined();
  });

  it("hands a stored list back in the order it was stored, not by key", async () => {
    const ordered = ["s9", "s1", "s5"].map((id, i) => ({ ...(states[0] as State), id, name: `State ${i}` }));
    await loadWithLocalCopy(PROJECT, ["states"], Promise.resolve({ states: ordered }), () => undefined);
    await vi.waitFor(async () => expect((await readProjectLists(PROJECT, ["states"]))?.states).toEqual(ordered));
  });

  it("writes a store's lists through after every change in memory, only when they are the server's", async () => {
    const store = proxy({ byProject: {} as Record<string, { status: "loading" | "ready"; list: State[] }> });
    const stop = writeListsThrough(store, "byProject", (projectId) => {
      const entry = store.byProject[projectId];
      return entry?.status === "ready" ? { states: entry.list } : null;
    });
    const storedNames = async () => (await readProjectLists(PROJECT, ["states"]))?.states.map((s) => s.name);
    try {
      store.byProject[PROJECT] = { status: "ready", list: [...states] };
      await vi.waitFor(async () => expect(await storedNames()).toEqual(["Todo"]));
      // A rename (a live event) and a new state (a settings action) reach the copy.
      (store.byProject[PROJECT]?.list[0] as State).name = "Backlog";
      store.byProject[PROJECT]?.list.push({ ...(states[0] as State), id: "s2", name: "Doing", default: false });
      await vi.waitFor(async () => expect(await storedNames()).toEqual(["Backlog", "Doing"]));
      // Lists that are not the server's (loading again) are not written.
      const entry = store.byProject[PROJECT] as { status: "loading" | "ready"; list: State[] };
      entry.status = "loading";
      entry.list.splice(0, entry.list.length);
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await storedNames()).toEqual(["Backlog", "Doing"]);
    } finally {
      stop();
    }
  });
});

describe("the flag and signing out", () => {
  it("flag off: no IndexedDB use at all, the sync only fetches", async () => {
    setLocalDbEnabled(false);
    const open = vi.spyOn(globalThis.indexedDB, "open");
    const synced = await syncAndStore(PROJECT, serverOf(many(600)).source, null);
    expect(synced.items).toHaveLength(600);
    expect(await readStoredProject(PROJECT)).toBeNull();
    expect(await readProjectLists(PROJECT, ["states"])).toBeNull();
    expect(open).not.toHaveBeenCalled();
    expect(localDb.status).toBeUndefined();
  });

  it("signing out (every store reset) deletes the database", async () => {
    await syncAndStore(PROJECT, serverOf(many(10)).source, null);
    expect(await databaseNames()).toEqual([databaseName("u1")]);
    resetAllStores();
    await vi.waitFor(async () => expect(await databaseNames()).toEqual([]));
    expect(localDb.status).toBeUndefined();
  });

  it("another user signing in never sees the previous one's copy, which is deleted", async () => {
    await syncAndStore(PROJECT, serverOf(many(10)).source, null);
    session.user = { id: "u2" } as CurrentUser;
    expect(await readStoredProject(PROJECT)).toBeNull();
    await vi.waitFor(async () => expect(await databaseNames()).toEqual([databaseName("u2")]));
  });
});
