import { type DomainEvent, ESTIMATE_TIME_UNAVAILABLE, estimateTemplatePoints, ROLE } from "@tideline/shared";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { estimatePoints, estimates, issues, projects } from "../../db/schema.ts";
import { addMember, createProject, createWorld, projectWithTeam, type World } from "../projects/test-support.ts";
import { TOO_FEW_POINTS_MESSAGE, TOO_MANY_POINTS_MESSAGE, TYPE_LOCKED_MESSAGE } from "./service.ts";

type Point = { id: string; key: number; value: string; estimate: string };
type Estimate = {
  id: string;
  name: string;
  type: string;
  is_active: boolean;
  last_used: boolean;
  project: string;
  points: Point[];
};
type Team = Awaited<ReturnType<typeof projectWithTeam>>;

let t: TestApp;
let w: World;
let team: Team;
let foreign: { id: string; url: string; estimateId: string; pointId: string };

const body = (type = "points", values = ["1", "2", "3"], name = "Story points") => ({
  estimate: { name, description: "", type },
  estimate_points: values.map((value, i) => ({ key: i + 1, value })),
});

async function create(url: string, payload: Record<string, unknown> = body()): Promise<Estimate> {
  const res = await client(t.app, w.admin).post(`${url}/estimates/`, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  team = await projectWithTeam(t, w);
  const p = await createProject(t, w.stranger, w.otherSlug);
  const res = await client(t.app, w.stranger).post(
    `/api/workspaces/${w.otherSlug}/projects/${p.id}/estimates/`,
    body(),
  );
  expect(res.statusCode, res.body).toBe(201);
  const e = res.json() as Estimate;
  foreign = {
    id: p.id,
    url: `/api/workspaces/${w.slug}/projects/${p.id}`,
    estimateId: e.id,
    pointId: e.points[0]?.id ?? "",
  };
});
afterAll(() => t.close());

/** Point values carried by an estimate.* event. */
const pointValues = (e: DomainEvent | undefined) => (e?.data as Estimate | undefined)?.points.map((x) => x.value);

async function eventsDuring(work: () => Promise<unknown>): Promise<DomainEvent[]> {
  const seen: DomainEvent[] = [];
  const off = t.app.ctx.events.subscribe((e) => {
    seen.push(e);
  });
  try {
    await work();
  } finally {
    off();
  }
  return seen;
}
async function estimateCount(projectId: string) {
  const [row] = await t.db.select({ n: count() }).from(estimates).where(eq(estimates.projectId, projectId));
  return row?.n ?? 0;
}
async function pointRows(estimateId: string) {
  return t.db
    .select()
    .from(estimatePoints)
    .where(eq(estimatePoints.estimateId, estimateId))
    .orderBy(estimatePoints.key);
}
async function projectEstimate(projectId: string) {
  const [row] = await t.db.select({ estimateId: projects.estimateId }).from(projects).where(eq(projects.id, projectId));
  return row?.estimateId ?? null;
}
let seq = 1;
async function issueOnPoint(projectId: string, pointId: string) {
  const [row] = await t.db
    .insert(issues)
    .values({ workspaceId: w.workspaceId, projectId, sequenceId: seq++, name: "Estimated", estimatePointId: pointId })
    .returning();
  return row?.id ?? "";
}
async function issuePoint(id: string) {
  const [row] = await t.db.select({ p: issues.estimatePointId }).from(issues).where(eq(issues.id, id));
  return row?.p ?? null;
}

describe("POST /projects/:id/estimates/", () => {
  it("creates an estimate with its points, switches estimates on for the project, emits estimate.created", async () => {
    const p = await projectWithTeam(t, w);
    let created: Estimate | undefined;
    const seen = await eventsDuring(async () => {
      created = await create(p.url, {
        estimate: { name: " Fibonacci ", description: "Classic", type: "Points" },
        estimate_points: estimateTemplatePoints("fibonacci"),
      });
    });
    expect(created).toMatchObject({
      name: "Fibonacci",
      description: "Classic",
      type: "points",
      project: p.id,
      workspace: w.workspaceId,
      is_active: true,
      last_used: true,
      created_by: w.admin.id,
    });
    expect(created?.points.map((pt) => [pt.key, pt.value])).toEqual([
      [1, "1"],
      [2, "2"],
      [3, "3"],
      [4, "5"],
      [5, "8"],
      [6, "13"],
    ]);
    expect(created?.points[0]).toMatchObject({ estimate: created?.id, project: p.id, workspace: w.workspaceId });
    expect(await projectEstimate(p.id)).toBe(created?.id);
    expect(seen).toMatchObject([{ type: "estimate.created", entity_id: created?.id, project_id: p.id, data: created }]);
    // The project shows it as its estimate.
    expect((await client(t.app, w.admin).get(`${p.url}/`)).json().estimate).toBe(created?.id);

    // A second one is stored but doesn't replace the active estimate.
    const second = await create(p.url, {
      ...body("categories", ["S", "M", "L"], "Sizes"),
      estimate_points: [{ value: "S" }, { value: "M" }],
    });
    expect(second).toMatchObject({ type: "categories", is_active: false, last_used: false });
    expect(second.points.map((pt) => [pt.key, pt.value])).toEqual([
      [1, "S"],
      [2, "M"],
    ]);
    expect(await projectEstimate(p.id)).toBe(created?.id);
  });

  it("refuses time estimates: enterprise edition", async () => {
    const p = await projectWithTeam(t, w);
    const res = await client(t.app, w.admin).post(`${p.url}/estimates/`, body("time", ["30", "60"]));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: ESTIMATE_TIME_UNAVAILABLE, code: "PAID_FEATURE" });
    expect(await estimateCount(p.id)).toBe(0);
  });

  it("needs 2 to 6 valid, distinct points (400), storing nothing", async () => {
    const p = await projectWithTeam(t, w);
    const bad: [Record<string, unknown>, string][] = [
      [body("points", ["1"]), "estimate_points"],
      [body("points", []), "estimate_points"],
      [body("points", ["1", "2", "3", "4", "5", "6", "7"]), "estimate_points"],
      [body("points", ["1", "two"]), "estimate_points.1.value"],
      [body("points", ["1", "1.0"]), "estimate_points.1.value"],
      [body("categories", ["Small", "small"]), "estimate_points.1.value"],
      [body("categories", ["S", "x".repeat(21)]), "estimate_points.1.value"],
      [
        {
          ...body(),
          estimate_points: [
            { key: 1, value: "1" },
            { key: 1, value: "2" },
          ],
        },
        "estimate_points.1.key",
      ],
      [
        {
          ...body(),
          estimate_points: [
            { key: 0, value: "1" },
            { key: 1, value: "2" },
          ],
        },
        "estimate_points.0.key",
      ],
      [body("hours", ["1", "2"]), "estimate.type"],
      [{ estimate: { name: "", type: "points" }, estimate_points: [{ value: "1" }, { value: "2" }] }, "estimate.name"],
      [{ estimate: { name: "X", type: "points" } }, "estimate_points"],
      [{ ...body(), estimate_points: "1,2" }, "estimate_points"],
    ];
    const seen = await eventsDuring(async () => {
      for (const [payload, field] of bad) {
        const res = await client(t.app, w.admin).post(`${p.url}/estimates/`, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(Object.keys(res.json().fields ?? {}), JSON.stringify(payload)).toContain(field);
      }
    });
    expect(seen).toEqual([]);
    expect(await estimateCount(p.id)).toBe(0);
    expect(await projectEstimate(p.id)).toBeNull();
  });

  it("is admin only: 403 for a member and a guest; 404 across workspaces; 401 anonymous", async () => {
    const p = await projectWithTeam(t, w);
    expect((await client(t.app, w.member).post(`${p.url}/estimates/`, body())).statusCode).toBe(403);
    expect((await client(t.app, w.guest).post(`${p.url}/estimates/`, body())).statusCode).toBe(403);
    expect((await client(t.app, w.stranger).post(`${p.url}/estimates/`, body())).statusCode).toBe(404);
    expect((await client(t.app, w.admin).post(`${foreign.url}/estimates/`, body())).statusCode).toBe(404);
    expect((await client(t.app).post(`${p.url}/estimates/`, body())).statusCode).toBe(401);
    expect(await estimateCount(p.id)).toBe(0);
    expect(await estimateCount(foreign.id)).toBe(1);
  });
});

describe("GET estimates", () => {
  it("lists a project's estimates with points to every project role", async () => {
    const p = await projectWithTeam(t, w);
    const a = await create(p.url);
    const b = await create(p.url, body("categories", ["Easy", "Hard"], "Difficulty"));
    for (const user of [w.admin, w.member, w.guest]) {
      const res = await client(t.app, user).get(`${p.url}/estimates/`);
      expect(res.statusCode).toBe(200);
      const list = res.json() as Estimate[];
      expect(list.map((e) => [e.id, e.is_active, e.points.length])).toEqual([
        [a.id, true, 3],
        [b.id, false, 2],
      ]);
      const one = await client(t.app, user).get(`${p.url}/estimates/${b.id}/`);
      expect(one.statusCode).toBe(200);
      expect(one.json()).toEqual(b);
    }
  });

  it("lists workspace estimates of the caller's projects only", async () => {
    const mine = await createProject(t, w.outsider, w.slug);
    await client(t.app, w.outsider).post(`/api/workspaces/${w.slug}/projects/${mine.id}/estimates/`, body());
    const res = await client(t.app, w.outsider).get(`/api/workspaces/${w.slug}/estimates/`);
    expect(res.statusCode).toBe(200);
    expect((res.json() as Estimate[]).map((e) => e.project)).toEqual([mine.id]);
    expect((res.json() as Estimate[])[0]).toMatchObject({
      is_active: true,
      points: [{ value: "1" }, { value: "2" }, { value: "3" }],
    });
    const guest = (await client(t.app, w.guest).get(`/api/workspaces/${w.slug}/estimates/`)).json() as Estimate[];
    expect(guest.every((e) => e.project !== mine.id && e.project !== foreign.id)).toBe(true);
  });

  it("is 401 anonymous and 404 across workspaces, projects and for bad ids", async () => {
    const e = await create(team.url);
    const other = await projectWithTeam(t, w);
    expect((await client(t.app).get(`${team.url}/estimates/`)).statusCode).toBe(401);
    expect((await client(t.app).get(`${team.url}/estimates/${e.id}/`)).statusCode).toBe(401);
    expect((await client(t.app).get(`/api/workspaces/${w.slug}/estimates/`)).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).get(`${team.url}/estimates/`)).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).get(`/api/workspaces/${w.slug}/estimates/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).get(`${foreign.url}/estimates/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).get(`${team.url}/estimates/${foreign.estimateId}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).get(`${other.url}/estimates/${e.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).get(`${team.url}/estimates/nope/`)).statusCode).toBe(404);
  });
});

describe("PATCH /projects/:id/estimates/:estimateId/ and activation", () => {
  it("renames, and switches the active estimate with is_active, emitting estimate.updated for both", async () => {
    const p = await projectWithTeam(t, w);
    const a = await create(p.url);
    const b = await create(p.url, body("points", ["1", "2"], "Second"));
    const seen = await eventsDuring(async () => {
      const res = await client(t.app, w.admin).patch(`${p.url}/estimates/${b.id}/`, {
        name: "Renamed",
        is_active: true,
        type: "points",
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ name: "Renamed", is_active: true, last_used: true });
    });
    expect(await projectEstimate(p.id)).toBe(b.id);
    expect(seen.map((e) => [e.type, e.entity_id, (e.data as Estimate).is_active]).sort()).toEqual(
      [
        ["estimate.updated", a.id, false],
        ["estimate.updated", b.id, true],
      ].sort(),
    );
    const [aRow] = await t.db.select().from(estimates).where(eq(estimates.id, a.id));
    expect(aRow?.lastUsed).toBe(false);
    // Switching off with is_active false.
    const off = await client(t.app, w.admin).patch(`${p.url}/estimates/${b.id}/`, { is_active: false });
    expect(off.json()).toMatchObject({ is_active: false, last_used: true });
    expect(await projectEstimate(p.id)).toBeNull();
  });

  it("POST .../activate/ switches an estimate on, DELETE switches it off", async () => {
    const p = await projectWithTeam(t, w);
    const a = await create(p.url);
    const b = await create(p.url, body("points", ["1", "2"], "Second"));
    const on = await client(t.app, w.admin).post(`${p.url}/estimates/${b.id}/activate/`);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ id: b.id, is_active: true });
    expect(await projectEstimate(p.id)).toBe(b.id);
    // Switching off an estimate that isn't active changes nothing.
    const noop = await eventsDuring(async () => {
      expect((await client(t.app, w.admin).delete(`${p.url}/estimates/${a.id}/activate/`)).statusCode).toBe(204);
    });
    expect(noop).toEqual([]);
    expect(await projectEstimate(p.id)).toBe(b.id);
    const seen = await eventsDuring(async () => {
      expect((await client(t.app, w.admin).delete(`${p.url}/estimates/${b.id}/activate/`)).statusCode).toBe(204);
    });
    expect(seen).toMatchObject([{ type: "estimate.updated", entity_id: b.id, data: { is_active: false } }]);
    expect(await projectEstimate(p.id)).toBeNull();
  });

  it("refuses a type change and bad input (400), changing nothing", async () => {
    const e = await create(team.url, body("points", ["1", "2"], "Keep"));
    const before = await client(t.app, w.admin).get(`${team.url}/estimates/${e.id}/`);
    const typed = await client(t.app, w.admin).patch(`${team.url}/estimates/${e.id}/`, {
      name: "Changed",
      type: "categories",
    });
    expect(typed.statusCode).toBe(400);
    expect(typed.json()).toMatchObject({ error: TYPE_LOCKED_MESSAGE, code: "ESTIMATE_TYPE_LOCKED" });
    for (const payload of [{ name: "" }, { is_active: "yes" }, { description: 5 }, { type: "time", name: "x" }]) {
      expect(
        (await client(t.app, w.admin).patch(`${team.url}/estimates/${e.id}/`, payload)).statusCode,
        JSON.stringify(payload),
      ).toBe(400);
    }
    expect(
      (await client(t.app, w.admin).post(`${team.url}/estimates/${e.id}/activate/`, [{ force: true }])).statusCode,
    ).toBe(400);
    const after = await client(t.app, w.admin).get(`${team.url}/estimates/${e.id}/`);
    expect(after.json()).toEqual(before.json());
  });

  it("is admin only (403 member, guest), 404 across workspaces, 401 anonymous; nothing changes", async () => {
    const p = await projectWithTeam(t, w);
    const a = await create(p.url);
    const b = await create(p.url, body("points", ["1", "2"], "Second"));
    for (const user of [w.member, w.guest]) {
      expect((await client(t.app, user).patch(`${p.url}/estimates/${a.id}/`, { name: "No" })).statusCode).toBe(403);
      expect((await client(t.app, user).post(`${p.url}/estimates/${b.id}/activate/`)).statusCode).toBe(403);
      expect((await client(t.app, user).delete(`${p.url}/estimates/${a.id}/activate/`)).statusCode).toBe(403);
    }
    expect((await client(t.app, w.stranger).patch(`${p.url}/estimates/${a.id}/`, { name: "No" })).statusCode).toBe(404);
    expect(
      (await client(t.app, w.admin).patch(`${p.url}/estimates/${foreign.estimateId}/`, { name: "No" })).statusCode,
    ).toBe(404);
    expect((await client(t.app, w.admin).post(`${p.url}/estimates/${foreign.estimateId}/activate/`)).statusCode).toBe(
      404,
    );
    expect((await client(t.app).patch(`${p.url}/estimates/${a.id}/`, { name: "No" })).statusCode).toBe(401);
    expect((await client(t.app).post(`${p.url}/estimates/${b.id}/activate/`)).statusCode).toBe(401);
    expect((await client(t.app, w.admin).get(`${p.url}/estimates/${a.id}/`)).json().name).toBe("Story points");
    expect(await projectEstimate(p.id)).toBe(a.id);
    expect(await projectEstimate(foreign.id)).toBe(foreign.estimateId);
  });
});

describe("DELETE /projects/:id/estimates/:estimateId/", () => {
  it("deletes the active estimate: estimates switch off and work items lose their points", async () => {
    const p = await projectWithTeam(t, w);
    const e = await create(p.url);
    const issueId = await issueOnPoint(p.id, e.points[1]?.id ?? "");
    const seen = await eventsDuring(async () => {
      expect((await client(t.app, w.admin).delete(`${p.url}/estimates/${e.id}/`)).statusCode).toBe(204);
    });
    expect(seen).toMatchObject([{ type: "estimate.deleted", entity_id: e.id, data: { id: e.id, is_active: true } }]);
    expect(await estimateCount(p.id)).toBe(0);
    expect(await pointRows(e.id)).toEqual([]);
    expect(await projectEstimate(p.id)).toBeNull();
    expect(await issuePoint(issueId)).toBeNull();
  });

  it("deleting an inactive estimate leaves the active one", async () => {
    const p = await projectWithTeam(t, w);
    const a = await create(p.url);
    const b = await create(p.url, body("points", ["1", "2"], "Second"));
    expect((await client(t.app, w.admin).delete(`${p.url}/estimates/${b.id}/`)).statusCode).toBe(204);
    expect(await projectEstimate(p.id)).toBe(a.id);
  });

  it("is admin only (403), 404 across workspaces, 401 anonymous; nothing deleted", async () => {
    const p = await projectWithTeam(t, w);
    const e = await create(p.url);
    expect((await client(t.app, w.member).delete(`${p.url}/estimates/${e.id}/`)).statusCode).toBe(403);
    expect((await client(t.app, w.guest).delete(`${p.url}/estimates/${e.id}/`)).statusCode).toBe(403);
    expect((await client(t.app, w.stranger).delete(`${p.url}/estimates/${e.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).delete(`${p.url}/estimates/${foreign.estimateId}/`)).statusCode).toBe(404);
    expect((await client(t.app).delete(`${p.url}/estimates/${e.id}/`)).statusCode).toBe(401);
    expect(await estimateCount(p.id)).toBe(1);
    expect(await estimateCount(foreign.id)).toBe(1);
  });
});

describe("estimate points", () => {
  it("POST adds a point after the last one (201) and emits estimate.updated with all points", async () => {
    const p = await projectWithTeam(t, w);
    const e = await create(p.url, body("points", ["1", "2"]));
    let point: Point | undefined;
    const seen = await eventsDuring(async () => {
      const res = await client(t.app, w.admin).post(`${p.url}/estimates/${e.id}/estimate-points/`, { value: " 3 " });
      expect(res.statusCode, res.body).toBe(201);
      point = res.json();
    });
    expect(point).toMatchObject({ key: 3, value: "3", estimate: e.id, project: p.id });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ type: "estimate.updated", entity_id: e.id });
    expect(pointValues(seen[0])).toEqual(["1", "2", "3"]);
    const keyed = await client(t.app, w.admin).post(`${p.url}/estimates/${e.id}/estimate-points/`, {
      key: 10,
      value: "21",
    });
    expect(keyed.json()).toMatchObject({ key: 10, value: "21" });
  });

  it("allows at most 6 points and refuses bad, repeated values or keys; nothing stored", async () => {
    const p = await projectWithTeam(t, w);
    const e = await create(p.url, body("points", ["1", "2", "3", "4", "5"]));
    const url = `${p.url}/estimates/${e.id}/estimate-points/`;
    for (const payload of [
      { value: "x" },
      { value: "3" },
      { value: "3.0" },
      { value: "" },
      { key: 2, value: "9" },
      { key: "one", value: "9" },
      {},
      { value: 9 },
    ]) {
      expect((await client(t.app, w.admin).post(url, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await pointRows(e.id)).toHaveLength(5);
    expect((await client(t.app, w.admin).post(url, { value: "8" })).statusCode).toBe(201);
    const seventh = await client(t.app, w.admin).post(url, { value: "13" });
    expect(seventh.statusCode).toBe(400);
    expect(seventh.json()).toMatchObject({ error: TOO_MANY_POINTS_MESSAGE, code: "ESTIMATE_POINTS_LIMIT" });
    expect(await pointRows(e.id)).toHaveLength(6);
  });

  it("PATCH changes a point's value, key or description and emits estimate.updated", async () => {
    const p = await projectWithTeam(t, w);
    const e = await create(p.url, body("categories", ["S", "M", "L"]));
    const m = e.points[1] as Point;
    const url = `${p.url}/estimates/${e.id}/estimate-points/${m.id}/`;
    const seen = await eventsDuring(async () => {
      const res = await client(t.app, w.admin).patch(url, { value: "Medium", description: "A few days", key: 7 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: m.id, value: "Medium", description: "A few days", key: 7 });
    });
    expect(seen).toMatchObject([{ type: "estimate.updated", entity_id: e.id }]);
    expect(pointValues(seen[0])).toEqual(["S", "L", "Medium"]);
    // Its own value (any case) is fine; another point's is not.
    expect((await client(t.app, w.admin).patch(url, { value: "MEDIUM" })).statusCode).toBe(200);
    const before = await pointRows(e.id);
    for (const payload of [{ value: "s" }, { key: 1 }, { value: "x".repeat(21) }, { key: 0 }, { description: [] }]) {
      expect((await client(t.app, w.admin).patch(url, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await pointRows(e.id)).toEqual(before);
  });

  it("DELETE removes a point, clearing or moving its work items, and never goes below 2 points", async () => {
    const p = await projectWithTeam(t, w);
    const e = await create(p.url, body("points", ["1", "2", "3", "5"]));
    const [one, two, three, five] = e.points as [Point, Point, Point, Point];
    const cleared = await issueOnPoint(p.id, three.id);
    const seen = await eventsDuring(async () => {
      expect(
        (await client(t.app, w.admin).delete(`${p.url}/estimates/${e.id}/estimate-points/${three.id}/`)).statusCode,
      ).toBe(204);
    });
    expect(seen).toMatchObject([{ type: "estimate.updated", entity_id: e.id }]);
    expect(pointValues(seen[0])).toEqual(["1", "2", "5"]);
    expect(await issuePoint(cleared)).toBeNull();

    const moved = await issueOnPoint(p.id, five.id);
    const bad = await client(t.app, w.admin).delete(`${p.url}/estimates/${e.id}/estimate-points/${five.id}/`, {
      new_estimate_point_id: foreign.pointId,
    });
    expect(bad.statusCode).toBe(400);
    expect(await pointRows(e.id)).toHaveLength(3);
    const res = await client(t.app, w.admin).delete(`${p.url}/estimates/${e.id}/estimate-points/${five.id}/`, {
      new_estimate_point_id: two.id,
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(await issuePoint(moved)).toBe(two.id);

    const last = await client(t.app, w.admin).delete(`${p.url}/estimates/${e.id}/estimate-points/${one.id}/`);
    expect(last.statusCode).toBe(400);
    expect(last.json()).toMatchObject({ error: TOO_FEW_POINTS_MESSAGE, code: "ESTIMATE_POINTS_LIMIT" });
    expect((await pointRows(e.id)).map((x) => x.value)).toEqual(["1", "2"]);
  });

  it("point calls are admin only (403), 404 across estimates and workspaces, 401 anonymous; nothing changes", async () => {
    const p = await projectWithTeam(t, w);
    const e = await create(p.url, body("points", ["1", "2", "3"]));
    const other = await create(p.url, body("points", ["1", "2", "3"], "Other"));
    const pt = e.points[0] as Point;
    const base = `${p.url}/estimates/${e.id}/estimate-points/`;
    for (const user of [w.member, w.guest]) {
      expect((await client(t.app, user).post(base, { value: "8" })).statusCode).toBe(403);
      expect((await client(t.app, user).patch(`${base}${pt.id}/`, { value: "8" })).statusCode).toBe(403);
      expect((await client(t.app, user).delete(`${base}${pt.id}/`)).statusCode).toBe(403);
    }
    expect((await client(t.app, w.stranger).post(base, { value: "8" })).statusCode).toBe(404);
    expect(
      (await client(t.app, w.admin).post(`${p.url}/estimates/${foreign.estimateId}/estimate-points/`, { value: "8" }))
        .statusCode,
    ).toBe(404);
    expect((await client(t.app, w.admin).patch(`${base}${foreign.pointId}/`, { value: "8" })).statusCode).toBe(404);
    expect((await client(t.app, w.admin).patch(`${base}${other.points[0]?.id}/`, { value: "8" })).statusCode).toBe(404);
    expect((await client(t.app, w.admin).delete(`${base}${foreign.pointId}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).delete(`${base}not-an-id/`)).statusCode).toBe(404);
    expect((await client(t.app).post(base, { value: "8" })).statusCode).toBe(401);
    expect((await client(t.app).patch(`${base}${pt.id}/`, { value: "8" })).statusCode).toBe(401);
    expect((await client(t.app).delete(`${base}${pt.id}/`)).statusCode).toBe(401);
    expect((await pointRows(e.id)).map((x) => x.value)).toEqual(["1", "2", "3"]);
    expect(await pointRows(foreign.estimateId)).toHaveLength(3);
  });

  it("goes by the project role: a workspace admin who is only a project member gets 403", async () => {
    const p = await createProject(t, w.member, w.slug);
    const url = `/api/workspaces/${w.slug}/projects/${p.id}`;
    await addMember(t, w.member, w.slug, p.id, w.admin, ROLE.member);
    expect((await client(t.app, w.admin).post(`${url}/estimates/`, body())).statusCode).toBe(403);
    expect((await client(t.app, w.member).post(`${url}/estimates/`, body())).statusCode).toBe(201);
  });
});
