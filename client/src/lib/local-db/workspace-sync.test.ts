/**
 * The workspace sync: every member project's lists stored from the workspace-wide answers (empty
 * ones too), lists a page holds in memory left to their write-through, and the 5-second lock
 * shared by the tabs.
 */
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Cycle } from "../../stores/cycles";
import type { Module } from "../../stores/modules";
import type { ProjectLabel, ProjectState } from "../../stores/project-meta";
import { type CurrentUser, session } from "../../stores/session";
import { installMemoryStorage } from "../memory-storage.test-support";
import { resetAllStores } from "../store";
import { resetLocalDatabaseForTests } from "./database";
import { setLocalDbEnabled } from "./flag";
import { readProjectLists } from "./meta";
import {
  syncWorkspaceLists,
  takeWorkspaceSyncLock,
  WORKSPACE_SYNC_LOCK_MS,
  type WorkspaceLists,
  type WorkspaceSyncInput,
} from "./workspace-sync";

const state = (id: string, projectId: string, name: string) =>
  ({
    id,
    project_id: projectId,
    name,
    description: "",
    color: "#000",
    group: "backlog",
    default: false,
    sequence: 1,
  }) as ProjectState;
const label = (id: string, projectId: string, name: string) =>
  ({ id, project_id: projectId, name, color: "#111", description: "", parent: null, sort_order: 1 }) as ProjectLabel;

function answers(): WorkspaceLists {
  return {
    states: [state("s1", "p1", "Backlog"), state("s2", "p2", "Todo"), state("s9", "gone", "Elsewhere")],
    labels: [label("l1", "p1", "bug")],
    estimates: [],
    cycles: [{ id: "c1", project_id: "p2", name: "Sprint 1" } as Cycle],
    modules: [{ id: "m1", project_id: "p1", name: "Auth" } as Module],
  };
}

function input(overrides: Partial<WorkspaceSyncInput> = {}): WorkspaceSyncInput {
  return {
    workspaceId: "w1",
    projectIds: ["p1", "p2", "p3"],
    fetchLists: async () => answers(),
    heldInMemory: () => false,
    ...overrides,
  };
}

const names = (rows: { name: string }[] | undefined) => rows?.map((r) => r.name);

installMemoryStorage();

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  resetLocalDatabaseForTests();
  setLocalDbEnabled(true);
  session.user = { id: "u1" } as CurrentUser;
  localStorage.clear();
});

afterEach(() => {
  vi.useRealTimers();
  resetAllStores();
});

describe("workspace sync", () => {
  it("stores every member project's lists, empty lists included, and nothing of other projects", async () => {
    expect(await syncWorkspaceLists(input())).toBe("synced");
    const p1 = await readProjectLists("p1", ["states", "labels", "estimates", "cycles", "modules"]);
    expect(names(p1?.states)).toEqual(["Backlog"]);
    expect(names(p1?.labels)).toEqual(["bug"]);
    expect(names(p1?.modules)).toEqual(["Auth"]);
    expect(p1?.cycles).toEqual([]);
    const p2 = await readProjectLists("p2", ["states", "cycles", "modules"]);
    expect(names(p2?.states)).toEqual(["Todo"]);
    expect(names(p2?.cycles)).toEqual(["Sprint 1"]);
    // A member project with nothing yet is stored as empty, so it paints as empty, not "loading".
    expect(await readProjectLists("p3", ["states", "cycles"])).toEqual({ states: [], cycles: [] });
    expect(await readProjectLists("gone", ["states"])).toBeNull();
  });

  it("leaves the lists this page holds in memory to their own write-through", async () => {
    await syncWorkspaceLists(input({ heldInMemory: (projectId, list) => projectId === "p1" && list === "states" }));
    expect(await readProjectLists("p1", ["states"])).toBeNull();
    expect(names((await readProjectLists("p1", ["labels"]))?.labels)).toEqual(["bug"]);
  });

  it("is skipped within 5 seconds of another sync of the workspace, in any tab", async () => {
    vi.useFakeTimers({ now: new Date("2026-11-28T12:00:00Z"), toFake: ["Date"] });
    const fetchLists = vi.fn(async () => answers());
    expect(await syncWorkspaceLists(input({ fetchLists }))).toBe("synced");
    vi.setSystemTime(Date.now() + WORKSPACE_SYNC_LOCK_MS - 1);
    expect(await syncWorkspaceLists(input({ fetchLists }))).toBe("skipped");
    // Another workspace has a lock of its own.
    expect(await syncWorkspaceLists(input({ workspaceId: "w2", fetchLists }))).toBe("synced");
    vi.setSystemTime(Date.now() + 1);
    expect(await syncWorkspaceLists(input({ fetchLists }))).toBe("synced");
    expect(fetchLists).toHaveBeenCalledTimes(3);
  });

  it("the lock is localStorage's, so another tab's recent sync counts; a stamp in the future does not hold it", () => {
    const now = Date.now();
    localStorage.setItem("tideline:local-db:workspace-sync:w1", String(now - 1_000));
    expect(takeWorkspaceSyncLock("w1", now)).toBe(false);
    localStorage.setItem("tideline:local-db:workspace-sync:w1", String(now + 60_000));
    expect(takeWorkspaceSyncLock("w1", now)).toBe(true);
  });

  it("is skipped while one runs in this page, and a failed call stores nothing", async () => {
    let answer: (lists: WorkspaceLists) => void = () => undefined;
    const first = syncWorkspaceLists(
      input({
        fetchLists: () =>
          new Promise((resolve) => {
            answer = resolve;
          }),
      }),
    );
    await vi.waitFor(() => expect(localStorage.getItem("tideline:local-db:workspace-sync:w1")).not.toBeNull());
    localStorage.clear();
    expect(await syncWorkspaceLists(input())).toBe("skipped");
    answer(answers());
    expect(await first).toBe("synced");

    localStorage.clear();
    globalThis.indexedDB = new IDBFactory();
    resetLocalDatabaseForTests();
    await expect(
      syncWorkspaceLists(input({ fetchLists: async () => Promise.reject(new Error("offline")) })),
    ).rejects.toThrow("offline");
    expect(await readProjectLists("p1", ["states"])).toBeNull();
  });
});
