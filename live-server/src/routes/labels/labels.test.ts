import type { DomainEvent } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { issueLabels, issues, labels } from "../../db/schema.ts";
import { createProject, createWorld, projectWithTeam, type World } from "../projects/test-support.ts";
import { LABEL_CYCLE_MESSAGE } from "./service.ts";

type Label = { id: string; name: string; parent: string | null; sort_order: number; color: string };

let t: TestApp;
let w: World;
let team: Awaited<ReturnType<typeof projectWithTeam>>;
let foreign: { id: string; url: string; labelId: string };

let n = 0;
const labelName = () => `Label ${n++}`;

async function post(url: string, body: Record<string, unknown> = {}): Promise<Label> {
  const res = await client(t.app, w.member).post(`${url}/issue-labels/`, { name: labelName(), ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  team = await projectWithTeam(t, w);
  const p = await createProject(t, w.stranger, w.otherSlug);
  const url = `/api/workspaces/${w.otherSlug}/projects/${p.id}`;
  const res = await client(t.app, w.stranger).post(`${url}/issue-labels/`, { name: "Foreign" });
  foreign = { id: p.id, url: `/api/workspaces/${w.slug}/projects/${p.id}`, labelId: res.json().id };
});
afterAll(() => t.close());

async function labelRow(id: string) {
  const [row] = await t.db.select().from(labels).where(eq(labels.id, id));
  return row;
}
async function labelsOf(projectId: string) {
  return t.db.select().from(labels).where(eq(labels.projectId, projectId));
}
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

describe("POST /projects/:id/issue-labels/", () => {
  it("creates labels after their last sibling and emits label.created", async () => {
    const p = await projectWithTeam(t, w);
    let created: Label | undefined;
    const seen = await eventsDuring(async () => {
      created = await post(p.url, { name: " Bug ", color: "#ff0000", description: "Broken things" });
    });
    expect(created).toMatchObject({
      name: "Bug",
      color: "#ff0000",
      description: "Broken things",
      parent: null,
      sort_order: 65535,
      project_id: p.id,
      workspace_id: w.workspaceId,
      created_by: w.member.id,
    });
    expect(seen).toMatchObject([{ type: "label.created", entity_id: created?.id, project_id: p.id, data: created }]);
    const second = await post(p.url);
    expect(second.sort_order).toBe(65535 + 10000);
    expect(second.color).toBe("#60646C");
    const child = await post(p.url, { parent: created?.id });
    expect(child).toMatchObject({ parent: created?.id, sort_order: 65535 });
    const placed = await post(p.url, { sort_order: 5 });
    expect(placed.sort_order).toBe(5);
  });

  it("refuses a duplicate name in the project ignoring case (409), allows it elsewhere", async () => {
    const p = await projectWithTeam(t, w);
    await post(p.url, { name: "Feature" });
    const res = await client(t.app, w.member).post(`${p.url}/issue-labels/`, { name: "FEATURE" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: "LABEL_NAME_TAKEN" });
    await post(team.url, { name: "Feature" });
  });

  it("refuses bad input (400) and stores nothing", async () => {
    const other = await projectWithTeam(t, w);
    const otherLabel = await post(other.url);
    const before = (await labelsOf(team.id)).length;
    const seen = await eventsDuring(async () => {
      for (const body of [
        {},
        { name: "" },
        { name: "X", color: "blue" },
        { name: "X", parent: "nope" },
        { name: "X", parent: otherLabel.id },
        { name: "X", parent: foreign.labelId },
        { name: "X", sort_order: "last" },
        { name: 7 },
      ]) {
        const res = await client(t.app, w.member).post(`${team.url}/issue-labels/`, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
      }
    });
    expect(seen).toEqual([]);
    expect((await labelsOf(team.id)).length).toBe(before);
  });

  it("is 403 for a guest, 404 for another workspace, 401 anonymous; nothing stored", async () => {
    const before = (await labelsOf(team.id)).length;
    expect((await client(t.app, w.guest).post(`${team.url}/issue-labels/`, { name: "Guest" })).statusCode).toBe(403);
    expect((await client(t.app, w.stranger).post(`${team.url}/issue-labels/`, { name: "Stranger" })).statusCode).toBe(
      404,
    );
    expect((await client(t.app, w.admin).post(`${foreign.url}/issue-labels/`, { name: "Across" })).statusCode).toBe(
      404,
    );
    expect((await client(t.app).post(`${team.url}/issue-labels/`, { name: "Anon" })).statusCode).toBe(401);
    expect((await labelsOf(team.id)).length).toBe(before);
    expect((await labelsOf(foreign.id)).length).toBe(1);
  });
});

describe("GET /projects/:id/issue-labels/ and /labels/", () => {
  it("lists the project's labels by sort_order to every project role", async () => {
    const p = await projectWithTeam(t, w);
    const a = await post(p.url, { name: "A", sort_order: 300 });
    const b = await post(p.url, { name: "B", sort_order: 100 });
    const c = await post(p.url, { name: "C", parent: a.id, sort_order: 200 });
    for (const user of [w.admin, w.member, w.guest]) {
      const res = await client(t.app, user).get(`${p.url}/issue-labels/`);
      expect(res.statusCode).toBe(200);
      expect((res.json() as Label[]).map((l) => l.id)).toEqual([b.id, c.id, a.id]);
    }
  });

  it("lists workspace labels of the caller's projects only", async () => {
    const mine = await createProject(t, w.outsider, w.slug);
    const url = `/api/workspaces/${w.slug}/projects/${mine.id}`;
    const res0 = await client(t.app, w.outsider).post(`${url}/issue-labels/`, { name: "Mine" });
    expect(res0.statusCode).toBe(201);
    const res = await client(t.app, w.outsider).get(`/api/workspaces/${w.slug}/labels/`);
    expect(res.statusCode).toBe(200);
    expect((res.json() as Label[]).map((l) => l.name)).toEqual(["Mine"]);
    const guest = (await client(t.app, w.guest).get(`/api/workspaces/${w.slug}/labels/`)).json() as {
      project_id: string;
    }[];
    expect(guest.length).toBeGreaterThan(0);
    expect(guest.every((l) => l.project_id !== mine.id && l.project_id !== foreign.id)).toBe(true);
  });

  it("is 401 anonymous and 404 for another workspace", async () => {
    expect((await client(t.app).get(`${team.url}/issue-labels/`)).statusCode).toBe(401);
    expect((await client(t.app).get(`/api/workspaces/${w.slug}/labels/`)).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).get(`${team.url}/issue-labels/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).get(`${foreign.url}/issue-labels/`)).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).get(`/api/workspaces/${w.slug}/labels/`)).statusCode).toBe(404);
  });
});

describe("GET /projects/:id/issue-labels/:labelId/", () => {
  it("returns a label to any member; 404 across projects and workspaces; 401 anonymous", async () => {
    const l = await post(team.url);
    for (const user of [w.admin, w.member, w.guest]) {
      expect((await client(t.app, user).get(`${team.url}/issue-labels/${l.id}/`)).json()).toMatchObject({ id: l.id });
    }
    const other = await projectWithTeam(t, w);
    expect((await client(t.app, w.admin).get(`${other.url}/issue-labels/${l.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).get(`${team.url}/issue-labels/${foreign.labelId}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).get(`${team.url}/issue-labels/bad/`)).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).get(`${team.url}/issue-labels/${l.id}/`)).statusCode).toBe(404);
    expect((await client(t.app).get(`${team.url}/issue-labels/${l.id}/`)).statusCode).toBe(401);
  });
});

describe("PATCH /projects/:id/issue-labels/:labelId/", () => {
  it("edits fields and reorders with sort_order, emitting label.updated", async () => {
    const l = await post(team.url);
    const seen = await eventsDuring(async () => {
      const res = await client(t.app, w.member).patch(`${team.url}/issue-labels/${l.id}/`, {
        name: "Edited",
        color: "#0000ff",
        description: "New",
        sort_order: 1.5,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        name: "Edited",
        color: "#0000ff",
        description: "New",
        sort_order: 1.5,
        parent: null,
      });
    });
    expect(seen).toMatchObject([{ type: "label.updated", entity_id: l.id, data: { name: "Edited" } }]);
  });

  it("re-nests a label after its new siblings, and moves it back to the top level", async () => {
    const p = await projectWithTeam(t, w);
    const parent = await post(p.url);
    const sibling = await post(p.url, { parent: parent.id, sort_order: 500 });
    const l = await post(p.url);
    const moved = await client(t.app, w.member).patch(`${p.url}/issue-labels/${l.id}/`, { parent: parent.id });
    expect(moved.json()).toMatchObject({ parent: parent.id, sort_order: sibling.sort_order + 10000 });
    const placed = await client(t.app, w.member).patch(`${p.url}/issue-labels/${l.id}/`, {
      parent: parent.id,
      sort_order: 250,
    });
    expect(placed.json()).toMatchObject({ parent: parent.id, sort_order: 250 });
    const top = await client(t.app, w.member).patch(`${p.url}/issue-labels/${l.id}/`, { parent: null });
    expect(top.json()).toMatchObject({ parent: null, sort_order: parent.sort_order + 10000 });
  });

  it("refuses a loop: a label under itself or under its own descendant (400), nothing changed", async () => {
    const p = await projectWithTeam(t, w);
    const a = await post(p.url);
    const b = await post(p.url, { parent: a.id });
    const c = await post(p.url, { parent: b.id });
    for (const parent of [a.id, b.id, c.id]) {
      const res = await client(t.app, w.member).patch(`${p.url}/issue-labels/${a.id}/`, { parent });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: "INVALID_LABEL_PARENT", error: LABEL_CYCLE_MESSAGE });
    }
    expect((await labelRow(a.id))?.parentId).toBeNull();
    // Moving a leaf under another branch is fine.
    const d = await post(p.url);
    expect((await client(t.app, w.member).patch(`${p.url}/issue-labels/${c.id}/`, { parent: d.id })).statusCode).toBe(
      200,
    );
  });

  it("refuses bad input, a parent from elsewhere and a taken name; nothing changes", async () => {
    const l = await post(team.url);
    const taken = await post(team.url);
    const before = await labelRow(l.id);
    for (const body of [
      { name: "" },
      { color: "#xyz" },
      { sort_order: "1" },
      { parent: foreign.labelId },
      { parent: "x" },
      { name: ["X"] },
    ]) {
      expect(
        (await client(t.app, w.member).patch(`${team.url}/issue-labels/${l.id}/`, body)).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    }
    expect(
      (await client(t.app, w.member).patch(`${team.url}/issue-labels/${l.id}/`, { name: taken.name.toUpperCase() }))
        .statusCode,
    ).toBe(409);
    expect(await labelRow(l.id)).toEqual(before);
  });

  it("is 403 for a guest, 404 across workspaces, 401 anonymous; nothing changes", async () => {
    const l = await post(team.url);
    const before = await labelRow(l.id);
    expect((await client(t.app, w.guest).patch(`${team.url}/issue-labels/${l.id}/`, { name: "G" })).statusCode).toBe(
      403,
    );
    expect((await client(t.app, w.stranger).patch(`${team.url}/issue-labels/${l.id}/`, { name: "S" })).statusCode).toBe(
      404,
    );
    expect(
      (await client(t.app, w.admin).patch(`${team.url}/issue-labels/${foreign.labelId}/`, { name: "F" })).statusCode,
    ).toBe(404);
    expect((await client(t.app).patch(`${team.url}/issue-labels/${l.id}/`, { name: "A" })).statusCode).toBe(401);
    expect(await labelRow(l.id)).toEqual(before);
    expect((await labelRow(foreign.labelId))?.name).toBe("Foreign");
  });
});

describe("DELETE /projects/:id/issue-labels/:labelId/", () => {
  it("moves children up to the deleted label's parent, removes it from work items, emits events", async () => {
    const p = await projectWithTeam(t, w);
    const root = await post(p.url);
    const mid = await post(p.url, { parent: root.id });
    const leaf1 = await post(p.url, { parent: mid.id });
    const leaf2 = await post(p.url, { parent: mid.id });
    const [issue] = await t.db
      .insert(issues)
      .values({ workspaceId: w.workspaceId, projectId: p.id, sequenceId: 1, name: "Tagged" })
      .returning();
    await t.db
      .insert(issueLabels)
      .values({ issueId: issue?.id ?? "", labelId: mid.id, workspaceId: w.workspaceId, projectId: p.id });
    const seen = await eventsDuring(async () => {
      expect((await client(t.app, w.member).delete(`${p.url}/issue-labels/${mid.id}/`)).statusCode).toBe(204);
    });
    expect(await labelRow(mid.id)).toBeUndefined();
    expect((await labelRow(leaf1.id))?.parentId).toBe(root.id);
    expect((await labelRow(leaf2.id))?.parentId).toBe(root.id);
    expect(await t.db.select().from(issueLabels).where(eq(issueLabels.labelId, mid.id))).toEqual([]);
    expect(seen.map((e) => e.type).sort()).toEqual(["label.deleted", "label.updated", "label.updated"]);
    expect(seen.find((e) => e.type === "label.deleted")).toMatchObject({ entity_id: mid.id, data: { id: mid.id } });
    // Deleting a top-level parent moves its children to the top level.
    await client(t.app, w.member).delete(`${p.url}/issue-labels/${root.id}/`);
    expect((await labelRow(leaf1.id))?.parentId).toBeNull();
  });

  it("is 403 for a guest, 404 across workspaces and for a bad id, 401 anonymous; nothing deleted", async () => {
    const l = await post(team.url);
    expect((await client(t.app, w.guest).delete(`${team.url}/issue-labels/${l.id}/`)).statusCode).toBe(403);
    expect((await client(t.app, w.stranger).delete(`${team.url}/issue-labels/${l.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).delete(`${team.url}/issue-labels/${foreign.labelId}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).delete(`${team.url}/issue-labels/123/`)).statusCode).toBe(404);
    expect((await client(t.app).delete(`${team.url}/issue-labels/${l.id}/`)).statusCode).toBe(401);
    expect(await labelRow(l.id)).toBeDefined();
    expect(await labelRow(foreign.labelId)).toBeDefined();
  });
});
