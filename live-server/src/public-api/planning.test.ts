import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { cycleIssues, cycles, intakeIssues, moduleIssues, modules, projects } from "../db/schema.ts";
import { createWorld, projectWithTeam, type World } from "../routes/projects/test-support.ts";
import { eventsDuring, tokenFor, v1 } from "./test-support.ts";

let t: TestApp;
let w: World;
let team: Awaited<ReturnType<typeof projectWithTeam>>;
let keys: { admin: string; member: string; guest: string; stranger: string };
let base: string;
const items: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ API_KEY_RATE_LIMIT: "1000/minute" });
  w = await createWorld(t);
  team = await projectWithTeam(t, w);
  await t.db
    .update(projects)
    .set({ cycleView: true, moduleView: true, inboxView: true })
    .where(eq(projects.id, team.id));
  keys = {
    admin: (await tokenFor(t, w.admin, w.workspaceId)).key,
    member: (await tokenFor(t, w.member, w.workspaceId)).key,
    guest: (await tokenFor(t, w.guest, w.workspaceId)).key,
    stranger: (await tokenFor(t, w.stranger, w.otherWorkspaceId)).key,
  };
  base = `/api/v1/workspaces/${w.slug}/projects/${team.id}`;
  for (const name of ["One", "Two", "Three"]) {
    const res = await v1(t.app, keys.admin).post(`${base}/issues/`, { name });
    items.push(res.json().id);
  }
});
afterAll(() => t.close());

const rows = async (table: typeof cycles | typeof modules | typeof intakeIssues) =>
  (await t.db.select({ n: count() }).from(table))[0]?.n ?? 0;

describe("public API cycles", () => {
  it("creates a cycle, adds and removes work items, with events", async () => {
    let cycleId = "";
    const seen = await eventsDuring(t, async () => {
      const made = await v1(t.app, keys.member).post(`${base}/cycles/`, {
        name: "Sprint 1",
        start_date: "2030-01-01",
        end_date: "2030-01-14",
      });
      expect(made.statusCode, made.body).toBe(201);
      expect(made.json()).toMatchObject({ name: "Sprint 1", project: team.id, start_date: expect.any(String) });
      cycleId = made.json().id;
      const added = await v1(t.app, keys.member).post(`${base}/cycles/${cycleId}/cycle-issues/`, {
        issues: [items[0], items[1]],
      });
      expect(added.statusCode, added.body).toBe(200);
      expect(
        added
          .json()
          .map((i: { id: string }) => i.id)
          .sort(),
      ).toEqual([items[0], items[1]].sort());
      const listed = await v1(t.app, keys.guest).get(`${base}/cycles/${cycleId}/cycle-issues/?per_page=1`);
      expect(listed.statusCode).toBe(200);
      const removed = await v1(t.app, keys.member).delete(`${base}/cycles/${cycleId}/cycle-issues/${items[0]}/`);
      expect(removed.statusCode).toBe(204);
      const patched = await v1(t.app, keys.member).patch(`${base}/cycles/${cycleId}/`, { name: "Sprint one" });
      expect(patched.json().name).toBe("Sprint one");
    });
    expect(seen.map((e) => e.type)).toEqual(
      expect.arrayContaining(["cycle.created", "cycle.updated", "issue.updated"]),
    );
    const inCycle = await t.db.select().from(cycleIssues).where(eq(cycleIssues.cycleId, cycleId));
    expect(inCycle.map((r) => r.issueId)).toEqual([items[1]]);
    const list = await v1(t.app, keys.admin).get(`${base}/cycles/?cycle_view=upcoming`);
    expect(list.json().results.map((c: { id: string }) => c.id)).toContain(cycleId);
    expect((await v1(t.app, keys.admin).delete(`${base}/cycles/${cycleId}/`)).statusCode).toBe(204);
  });

  it("refuses guests, other workspaces and bad input, storing nothing", async () => {
    const before = await rows(cycles);
    expect((await v1(t.app, keys.guest).post(`${base}/cycles/`, { name: "G" })).statusCode).toBe(403);
    expect((await v1(t.app, keys.stranger).post(`${base}/cycles/`, { name: "S" })).statusCode).toBe(404);
    for (const body of [
      {},
      { name: "" },
      { name: "x", start_date: "2030-02-10", end_date: "2030-02-01" },
      { name: 1 },
    ]) {
      expect((await v1(t.app, keys.admin).post(`${base}/cycles/`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await rows(cycles)).toBe(before);
    const c = (await v1(t.app, keys.admin).post(`${base}/cycles/`, { name: "Empty" })).json();
    const bad = await v1(t.app, keys.admin).post(`${base}/cycles/${c.id}/cycle-issues/`, { issues: ["nope"] });
    expect(bad.statusCode).toBe(400);
    expect(await t.db.select().from(cycleIssues).where(eq(cycleIssues.cycleId, c.id))).toEqual([]);
  });
});

describe("public API modules", () => {
  it("creates a module, adds and removes work items, with events", async () => {
    let moduleId = "";
    const seen = await eventsDuring(t, async () => {
      const made = await v1(t.app, keys.member).post(`${base}/modules/`, { name: "Billing" });
      expect(made.statusCode, made.body).toBe(201);
      expect(made.json()).toMatchObject({ name: "Billing", project: team.id, members: [] });
      moduleId = made.json().id;
      const added = await v1(t.app, keys.member).post(`${base}/modules/${moduleId}/module-issues/`, {
        issues: [items[1], items[2]],
      });
      expect(added.statusCode, added.body).toBe(200);
      const listed = await v1(t.app, keys.admin).get(`${base}/modules/${moduleId}/module-issues/`);
      expect(listed.json().total_results).toBe(2);
      expect(
        (await v1(t.app, keys.member).delete(`${base}/modules/${moduleId}/module-issues/${items[2]}/`)).statusCode,
      ).toBe(204);
      expect(
        (await v1(t.app, keys.member).delete(`${base}/modules/${moduleId}/module-issues/${items[2]}/`)).statusCode,
      ).toBe(404);
      const patched = await v1(t.app, keys.member).patch(`${base}/modules/${moduleId}/`, { status: "in-progress" });
      expect(patched.statusCode, patched.body).toBe(200);
    });
    expect(seen.map((e) => e.type)).toEqual(expect.arrayContaining(["module.created", "issue.updated"]));
    const inModule = await t.db.select().from(moduleIssues).where(eq(moduleIssues.moduleId, moduleId));
    expect(inModule.map((r) => r.issueId)).toEqual([items[1]]);
    expect((await v1(t.app, keys.admin).get(`${base}/modules/`)).json().results.length).toBeGreaterThan(0);
    expect((await v1(t.app, keys.guest).delete(`${base}/modules/${moduleId}/`)).statusCode).toBe(403);
    expect((await v1(t.app, keys.admin).delete(`${base}/modules/${moduleId}/`)).statusCode).toBe(204);
  });

  it("refuses bad input, storing nothing", async () => {
    const before = await rows(modules);
    for (const body of [{}, { name: "" }, { name: "x", status: "nope" }]) {
      expect((await v1(t.app, keys.admin).post(`${base}/modules/`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await rows(modules)).toBe(before);
  });
});

describe("public API intake", () => {
  it("submits, reads, accepts and deletes requests, with intake events", async () => {
    let requestId = "";
    const seen = await eventsDuring(t, async () => {
      const made = await v1(t.app, keys.guest).post(`${base}/intake-issues/`, {
        issue: { name: "Please fix", priority: "high" },
      });
      expect(made.statusCode, made.body).toBe(201);
      expect(made.json()).toMatchObject({ status: -2, project: team.id, issue_detail: { name: "Please fix" } });
      requestId = made.json().id;
      const list = await v1(t.app, keys.admin).get(`${base}/intake-issues/`);
      expect(list.statusCode).toBe(200);
      expect(list.json().results.map((r: { id: string }) => r.id)).toContain(requestId);
      expect((await v1(t.app, keys.admin).get(`${base}/intake-issues/${requestId}/`)).json().id).toBe(requestId);
      const accepted = await v1(t.app, keys.admin).patch(`${base}/intake-issues/${requestId}/`, { status: 1 });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json().status).toBe(1);
    });
    expect(seen.map((e) => e.type)).toEqual(expect.arrayContaining(["intake.created", "intake.updated"]));
    const second = (await v1(t.app, keys.admin).post(`${base}/intake-issues/`, { issue: { name: "Dup" } })).json();
    expect((await v1(t.app, keys.guest).delete(`${base}/intake-issues/${second.id}/`)).statusCode).toBe(403);
    expect((await v1(t.app, keys.admin).delete(`${base}/intake-issues/${second.id}/`)).statusCode).toBe(204);
  });

  it("refuses bad input and other workspaces, storing nothing", async () => {
    const before = await rows(intakeIssues);
    for (const body of [{}, { issue: {} }, { issue: { name: "" } }, { issue: { name: "x", priority: "asap" } }]) {
      expect((await v1(t.app, keys.admin).post(`${base}/intake-issues/`, body)).statusCode, JSON.stringify(body)).toBe(
        400,
      );
    }
    expect((await v1(t.app, keys.stranger).post(`${base}/intake-issues/`, { issue: { name: "x" } })).statusCode).toBe(
      404,
    );
    expect(await rows(intakeIssues)).toBe(before);
  });
});
