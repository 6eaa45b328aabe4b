/**
 * Shared list answers (list-cache.ts): the cache's own rules, then the API — a board asked the
 * same way is answered once until a change, no answer is stale once a change is acknowledged
 * (lists in flight while it commits included), guests and other workspaces keep their own.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { issues } from "../../db/schema.ts";
import { ListCache } from "./list-cache.ts";
import type { PresentedIssue } from "./query.ts";
import { createFixture, createIssue, createLabel, type Fixture } from "./test-support.ts";

/** A promise with its resolver, to hold a computation "while the database works". */
function pending<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("ListCache", () => {
  const sizeOf = (value: string[]) => value.length;

  it("answers a question again from memory until its workspace changes", async () => {
    const cache = new ListCache<string[]>(sizeOf);
    let computed = 0;
    const compute = async () => {
      computed++;
      return ["a", "b"];
    };
    expect(await cache.get("ws", "k", compute)).toEqual(["a", "b"]);
    expect(await cache.get("ws", "k", compute)).toEqual(["a", "b"]);
    expect(computed).toBe(1);
    cache.changed("other workspace");
    await cache.get("ws", "k", compute);
    expect(computed).toBe(1);
    cache.changed("ws");
    expect(cache.size().entries).toBe(0);
    await cache.get("ws", "k", compute);
    expect(computed).toBe(2);
  });

  it("never keeps an answer whose reads began before a change committed", async () => {
    const cache = new ListCache<string[]>(sizeOf);
    const before = pending<string[]>();
    const first = cache.get("ws", "k", () => before.promise);
    // The change commits (its event arrives) while the first answer is still being read.
    cache.changed("ws");
    before.resolve(["old"]);
    expect(await first).toEqual(["old"]);
    expect(cache.size().entries).toBe(0);
    // Asked after the change: read again, never the old answer.
    expect(await cache.get("ws", "k", async () => ["new"])).toEqual(["new"]);
  });

  it("identical questions asked together share one computation; after a change they don't", async () => {
    const cache = new ListCache<string[]>(sizeOf);
    const running = pending<string[]>();
    let computed = 0;
    const compute = () => {
      computed++;
      return running.promise;
    };
    const a = cache.get("ws", "k", compute);
    const b = cache.get("ws", "k", compute);
    cache.changed("ws");
    const c = cache.get("ws", "k", async () => ["after the change"]);
    running.resolve(["before"]);
    expect(await a).toEqual(["before"]);
    expect(await b).toEqual(["before"]);
    expect(await c).toEqual(["after the change"]);
    expect(computed).toBe(1);
    expect(cache.stats.joined).toBe(1);
  });

  it("with no room (LIST_CACHE_ITEMS=0) every question is computed", async () => {
    const cache = new ListCache<string[]>(sizeOf, 0);
    let computed = 0;
    const compute = async () => {
      computed++;
      return ["a"];
    };
    await cache.get("ws", "k", compute);
    await cache.get("ws", "k", compute);
    expect(computed).toBe(2);
  });

  it("a failed computation is not kept", async () => {
    const cache = new ListCache<string[]>(sizeOf);
    await expect(
      cache.get("ws", "k", async () => {
        throw new Error("database gone");
      }),
    ).rejects.toThrow("database gone");
    expect(await cache.get("ws", "k", async () => ["again"])).toEqual(["again"]);
  });

  it("stays within its bounds, dropping the least recently used answer first", async () => {
    const cache = new ListCache<string[]>(sizeOf);
    const big = Array.from({ length: 8_000 }, (_, i) => String(i));
    await cache.get("ws", "a", async () => big);
    await cache.get("ws", "b", async () => big);
    await cache.get("ws", "a", async () => big); // a is now the most recent
    await cache.get("ws", "c", async () => big); // 24,000 items: b goes
    expect(cache.size()).toEqual({ entries: 2, items: 16_000 });
    let recomputed = 0;
    await cache.get("ws", "a", async () => {
      recomputed++;
      return big;
    });
    expect(recomputed).toBe(0);
    await cache.get("ws", "b", async () => {
      recomputed++;
      return big;
    });
    expect(recomputed).toBe(1);
    // An answer larger than the whole bound is served but not kept.
    await cache.get("ws", "huge", async () => [...big, ...big, ...big]);
    expect(cache.size().entries).toBeLessThanOrEqual(2);
  });
});

describe("shared board lists over the API", () => {
  let t: TestApp;
  let f: Fixture;
  let items: PresentedIssue[];
  const board = "issues/?group_by=state_id&order_by=sort_order&per_page=50";

  beforeAll(async () => {
    t = await createTestApp();
    f = await createFixture(t);
    items = [];
    for (const name of ["One", "Two", "Three"]) items.push(await createIssue(t, f.w.admin, f.project.url, { name }));
    // Guests may not create work items here: one is made theirs in the table.
    const own = await createIssue(t, f.w.admin, f.project.url, { name: "The guest's own" });
    await t.db.update(issues).set({ createdById: f.w.guest.id }).where(eq(issues.id, own.id));
  });
  afterAll(() => t.close());

  const listAs = async (user: Fixture["w"]["admin"], query = board) => {
    const res = await client(t.app, user).get(`${f.project.url}/${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { results: Record<string, { results: PresentedIssue[] }>; total_count: number };
  };
  const flat = (page: Awaited<ReturnType<typeof listAs>>) => Object.values(page.results).flatMap((g) => g.results);
  const priorityOf = (page: Awaited<ReturnType<typeof listAs>>, id: string) =>
    flat(page).find((i) => i.id === id)?.priority;

  it("members asking the same way get one computed answer", async () => {
    const stats = t.app.ctx.listCache.stats;
    await listAs(f.w.admin);
    const misses = stats.misses;
    const again = await listAs(f.w.member);
    await listAs(f.w.admin);
    expect(stats.misses).toBe(misses);
    expect(again.total_count).toBe(4);
  });

  it("no list answered after a change is acknowledged is stale, with lists in flight as it commits", async () => {
    const item = items[0] as PresentedIssue;
    for (const priority of ["urgent", "high", "medium", "low", "none", "urgent", "low", "high"]) {
      // Lists asked just before and while the change is written, by several members…
      const inFlight = Promise.all([listAs(f.w.admin), listAs(f.w.member), listAs(f.w.admin)]);
      const patch = await client(t.app, f.w.member).patch(`${f.project.url}/issues/${item.id}/`, { priority });
      expect(patch.statusCode, patch.body).toBe(200);
      // …and every list asked once the change is acknowledged shows it.
      expect(priorityOf(await listAs(f.w.admin), item.id)).toBe(priority);
      expect(priorityOf(await listAs(f.w.member), item.id)).toBe(priority);
      await inFlight;
      expect(priorityOf(await listAs(f.w.admin), item.id)).toBe(priority);
    }
  });

  it("a change elsewhere in the project (a label renamed, an item deleted) retires the answer too", async () => {
    const label = await createLabel(t, f.project.id, "Before");
    const labelled = await client(t.app, f.w.admin).patch(`${f.project.url}/issues/${items[1]?.id}/`, {
      label_ids: [label],
    });
    expect(labelled.statusCode).toBe(200);
    const byLabel = `issues/?group_by=labels&per_page=50`;
    expect(Object.keys((await listAs(f.w.admin, byLabel)).results)).toContain(label);
    const removed = await client(t.app, f.w.admin).delete(`${f.project.url}/issues/${items[2]?.id}/`);
    expect(removed.statusCode).toBe(204);
    const after = await listAs(f.w.member);
    expect(flat(after).map((i) => i.id)).not.toContain(items[2]?.id);
    expect(after.total_count).toBe(3);
  });

  it("a restricted guest never gets a member's answer, nor a member the guest's", async () => {
    await client(t.app, f.w.admin).patch(f.project.url, { guest_view_all_features: false });
    await listAs(f.w.admin);
    const guest = await listAs(f.w.guest);
    expect(flat(guest).map((i) => i.name)).toEqual(["The guest's own"]);
    expect(flat(await listAs(f.w.admin)).length).toBe(3);
  });

  it("another workspace's changes leave this workspace's answers kept", async () => {
    await listAs(f.w.admin);
    const misses = t.app.ctx.listCache.stats.misses;
    const foreign = await client(t.app, f.w.stranger).patch(f.foreign.url, { name: "Elsewhere" });
    expect(foreign.statusCode, foreign.body).toBe(200);
    await listAs(f.w.admin);
    expect(t.app.ctx.listCache.stats.misses).toBe(misses);
  });
});
