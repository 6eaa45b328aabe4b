/**
 * Ordering the work-item list by cycle name and by module name (the reference's
 * issue_cycle__cycle__name / issue_module__module__name): by the item's cycle, or the first of
 * its modules by name (the last when descending), case-insensitive; items without one last in
 * both directions; ties by sequence_id in the same direction. The board's local pipeline sorts
 * the same way (client/src/screens/work-items/pipeline.test.ts).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { cycles } from "../../db/schema.ts";
import type { PresentedIssue } from "./query.ts";
import { anotherProject, createFixture, createIssue, type Fixture } from "./test-support.ts";

let t: TestApp;
let f: Fixture;
let p: { id: string; url: string };
const cycle: Record<string, string> = {};
const mod: Record<string, string> = {};

async function created(url: string, body: Record<string, unknown>): Promise<string> {
  const res = await client(t.app, f.w.admin).post(url, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
  p = await anotherProject(t, f);
  // Draft cycles (no dates) take work items; "alpha" is lower case to show the order ignores case.
  cycle.beta = await created(`${p.url}/cycles/`, { name: "Beta sprint" });
  cycle.alpha = await created(`${p.url}/cycles/`, { name: "alpha sprint" });
  cycle.gone = await created(`${p.url}/cycles/`, { name: "Aardvark" });
  mod.zed = await created(`${p.url}/modules/`, { name: "Zed" });
  mod.alpha = await created(`${p.url}/modules/`, { name: "alpha" });
  mod.middle = await created(`${p.url}/modules/`, { name: "Middle" });
  // Created one after another, so sequence ids follow this order.
  for (const body of [
    { name: "One", cycle_id: cycle.beta, module_ids: [mod.zed] },
    { name: "Two", module_ids: [mod.alpha, mod.zed] },
    { name: "Three", cycle_id: cycle.alpha },
    { name: "Four", cycle_id: cycle.beta, module_ids: [mod.middle] },
    { name: "Five" },
    { name: "Six", cycle_id: cycle.gone },
  ])
    await createIssue(t, f.w.admin, p.url, body);
  // An archived cycle is not on the board's list of cycles: its items order as without a cycle.
  await t.db
    .update(cycles)
    .set({ archivedAt: new Date() })
    .where(eq(cycles.id, cycle.gone as string));
});
afterAll(() => t.close());

const names = (results: PresentedIssue[]) => results.map((i) => i.name);
async function ordered(path: string, orderBy: string, extra = ""): Promise<string[]> {
  const res = await client(t.app, f.w.admin).get(`${p.url}/${path}?order_by=${orderBy}${extra}`);
  expect(res.statusCode, res.body).toBe(200);
  return names(res.json().results);
}

describe("GET /issues/?order_by=issue_cycle__cycle__name", () => {
  it("orders by the cycle's name, items without a cycle last, ties by sequence", async () => {
    expect(await ordered("issues/", "issue_cycle__cycle__name")).toEqual([
      "Three",
      "One",
      "Four",
      "Two",
      "Five",
      "Six",
    ]);
  });

  it("descending keeps items without a cycle last", async () => {
    expect(await ordered("issues/", "-issue_cycle__cycle__name")).toEqual([
      "Four",
      "One",
      "Three",
      "Six",
      "Five",
      "Two",
    ]);
  });

  it("pages without overlap", async () => {
    const first = await ordered("issues/", "issue_cycle__cycle__name", "&per_page=4");
    const second = await ordered("issues/", "issue_cycle__cycle__name", "&per_page=4&cursor=4:1:0");
    expect([...first, ...second]).toEqual(["Three", "One", "Four", "Two", "Five", "Six"]);
  });

  it("orders inside each group of a grouped list", async () => {
    const res = await client(t.app, f.w.admin).get(
      `${p.url}/issues/?group_by=module_id&order_by=-issue_cycle__cycle__name`,
    );
    const results = res.json().results as Record<string, { results: PresentedIssue[] }>;
    expect(Object.keys(results)).toEqual([mod.alpha, mod.middle, mod.zed, "None"]);
    expect(names(results[mod.zed as string]?.results ?? [])).toEqual(["One", "Two"]);
    expect(names(results.None?.results ?? [])).toEqual(["Three", "Six", "Five"]);
  });
});

describe("GET /issues/?order_by=issue_module__module__name", () => {
  it("orders by the first module's name, items without a module last", async () => {
    expect(await ordered("issues/", "issue_module__module__name")).toEqual([
      "Two",
      "Four",
      "One",
      "Three",
      "Five",
      "Six",
    ]);
  });

  it("descending reads the last module's name and keeps items without a module last", async () => {
    // Two (alpha, Zed) and One (Zed) both read "zed": the tie goes by sequence, descending.
    expect(await ordered("issues/", "-issue_module__module__name")).toEqual([
      "Two",
      "One",
      "Four",
      "Six",
      "Five",
      "Three",
    ]);
  });
});

describe("the cycle's and the module's own lists", () => {
  it("cycle-issues/ orders by module name", async () => {
    expect(await ordered(`cycles/${cycle.beta}/cycle-issues/`, "-issue_module__module__name")).toEqual(["One", "Four"]);
  });

  it("modules/{id}/issues/ orders by cycle name", async () => {
    expect(await ordered(`modules/${mod.zed}/issues/`, "issue_cycle__cycle__name")).toEqual(["One", "Two"]);
    expect(await ordered(`modules/${mod.zed}/issues/`, "-issue_cycle__cycle__name")).toEqual(["One", "Two"]);
  });

  it("an unknown ordering is still refused", async () => {
    const res = await client(t.app, f.w.admin).get(`${p.url}/issues/?order_by=issue_cycle__cycle__start_date`);
    expect(res.statusCode).toBe(400);
  });
});
