/**
 * public/preload-local.js, run against a database the app wrote: a board's copy read before the
 * app loads is what the app's first reads get, once, and only for the signed-in user's copy.
 */
import "fake-indexeddb/auto";
import { readFileSync } from "node:fs";
import { runInThisContext } from "node:vm";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProjectState } from "../../stores/project-meta";
import { type CurrentUser, session } from "../../stores/session";
import type { WorkItem } from "../../stores/work-items";
import { installMemoryStorage } from "../memory-storage.test-support";
import { resetAllStores } from "../store";
import { localDatabase, resetLocalDatabaseForTests } from "./database";
import { setLocalDbEnabled } from "./flag";
import { readProjectLists, storeProjectLists } from "./meta";
import { resetPreloadForTests, takePreloadedItems } from "./preload";
import { PRELOAD_GLOBAL, syncKey } from "./schema";
import { readStoredProject } from "./work-items";

const PROJECT = "0b6a3f5e-8c1d-4e2f-9a7b-123456789abc";
const SCRIPT = readFileSync(new URL("../../../public/preload-local.js", import.meta.url), "utf8");

installMemoryStorage();

const item = { id: "i1", name: "From the copy", project_id: PROJECT } as WorkItem;
const state = {
  id: "s1",
  project_id: PROJECT,
  name: "Todo",
  description: "",
  color: "#000",
  group: "unstarted",
  default: true,
  sequence: 1,
} as ProjectState;

/** A complete copy of the project, written by the app's own code. */
async function writeCopy() {
  const db = await localDatabase();
  if (!db) throw new Error("no local database");
  const sync = { complete: true, since: "2026-11-01T00:00:00.000Z", cursor: null, syncedAt: "2026-11-01", stamp: 3 };
  await db.put("options", { key: syncKey(PROJECT), value: sync });
  await db.put("snapshots", { project_id: PROJECT, stamp: 3, chunks: [JSON.stringify([item])] });
  await storeProjectLists(PROJECT, { states: [state], labels: [], members: [], estimates: [] });
  resetLocalDatabaseForTests();
}

/** Load index.html's preload script at `pathname`, as the browser does before the app. */
async function runPreload(pathname: string) {
  (globalThis as Record<string, unknown>).location = { pathname };
  runInThisContext(SCRIPT);
  const preload = (globalThis as Record<string, unknown>)[PRELOAD_GLOBAL] as { copy: Promise<unknown> } | undefined;
  await preload?.copy;
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  resetLocalDatabaseForTests();
  resetPreloadForTests();
  setLocalDbEnabled(true);
  localStorage.clear();
  delete (globalThis as Record<string, unknown>)[PRELOAD_GLOBAL];
  session.user = { id: "u1" } as CurrentUser;
});

afterEach(() => {
  resetAllStores();
  delete (globalThis as Record<string, unknown>).location;
});

describe("the preload", () => {
  it("reads the board's copy before the app; the first reads of items and lists take it, once", async () => {
    await writeCopy();
    await runPreload(`/acme/projects/${PROJECT}/issues/`);
    // The database changes after the preload read: the first read still gets the preloaded copy…
    const db = await localDatabase();
    await db?.delete("snapshots", PROJECT);
    const stored = await readStoredProject(PROJECT);
    expect(stored?.items.map((i) => i.name)).toEqual(["From the copy"]);
    expect(stored?.sync.stamp).toBe(3);
    const lists = await readProjectLists(PROJECT, ["states", "labels", "members", "estimates"]);
    expect(lists?.states.map((s) => s.name)).toEqual(["Todo"]);
    // …and later reads go to the database.
    expect(await takePreloadedItems(PROJECT)).toBeNull();
    expect((await readStoredProject(PROJECT))?.items).toEqual([]);
  });

  it("is not used for another user's copy, another project, or with the local database off", async () => {
    await writeCopy();
    await runPreload(`/acme/projects/${PROJECT}/issues/`);
    session.user = { id: "u2" } as CurrentUser;
    expect(await takePreloadedItems(PROJECT)).toBeNull();

    resetPreloadForTests();
    session.user = { id: "u1" } as CurrentUser;
    expect(await takePreloadedItems("another-project")).toBeNull();
    setLocalDbEnabled(false);
    expect(await takePreloadedItems(PROJECT)).toBeNull();
  });

  it("reads nothing on pages that are not boards, or when the local database is switched off", async () => {
    await writeCopy();
    await runPreload(`/acme/projects/${PROJECT}/settings/`);
    expect((globalThis as Record<string, unknown>)[PRELOAD_GLOBAL]).toBeUndefined();
    localStorage.setItem("tideline:local-db-enabled", "false");
    await runPreload(`/acme/projects/${PROJECT}/issues/`);
    expect((globalThis as Record<string, unknown>)[PRELOAD_GLOBAL]).toBeUndefined();
  });

  it("never creates a database: without a copy it leaves nothing", async () => {
    await runPreload(`/acme/projects/${PROJECT}/issues/`);
    expect(await indexedDB.databases()).toEqual([]);
    expect(await takePreloadedItems(PROJECT)).toBeNull();
  });
});

describe("the board's code", () => {
  /** A document with index.html's meta (as the build writes it) that records the links added. */
  function fakeDocument(modules: Record<string, string[]>) {
    const added: { rel: string; href: string; crossOrigin: string | null }[] = [];
    const document = {
      querySelector: (selector: string) =>
        selector === 'meta[name="tideline-board-modules"]' ? { content: JSON.stringify(modules) } : null,
      createElement: () => ({ rel: "", href: "", crossOrigin: null as string | null }),
      head: { appendChild: (link: (typeof added)[number]) => added.push(link) },
    };
    (globalThis as Record<string, unknown>).document = document;
    return added;
  }

  afterEach(() => {
    delete (globalThis as Record<string, unknown>).document;
  });

  const MODULES = { issues: ["/assets/board-a.js"], cycles: ["/assets/cycle-a.js", "/assets/cycle-b.js"] };

  it("asks for the files of the board's kind at once, as module preloads", async () => {
    const added = fakeDocument(MODULES);
    await runPreload(`/acme/projects/${PROJECT}/cycles/${PROJECT}/`);
    expect(added).toEqual([
      { rel: "modulepreload", href: "/assets/cycle-a.js", crossOrigin: "" },
      { rel: "modulepreload", href: "/assets/cycle-b.js", crossOrigin: "" },
    ]);
  });

  it("asks for nothing on a page that is not a board, and still reads the copy without the meta", async () => {
    const added = fakeDocument(MODULES);
    await runPreload("/acme/projects/");
    expect(added).toEqual([]);
    (globalThis as Record<string, unknown>).document = { querySelector: () => null };
    await writeCopy();
    await runPreload(`/acme/projects/${PROJECT}/issues/`);
    expect((globalThis as Record<string, unknown>)[PRELOAD_GLOBAL]).toBeDefined();
  });
});
