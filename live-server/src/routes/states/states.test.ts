import { DEFAULT_STATES, type DomainEvent, NETWORK, STATE_GROUPS } from "@tideline/shared";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { issues, states } from "../../db/schema.ts";
import { createProject, createWorld, projectWithTeam, type World } from "../projects/test-support.ts";
import { DEFAULT_STATE_DELETE_MESSAGE } from "./service.ts";

let t: TestApp;
let w: World;
let team: Awaited<ReturnType<typeof projectWithTeam>>;
/** A project of another workspace (its states must stay out of reach). */
let foreign: { id: string; url: string; stateId: string };

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  team = await projectWithTeam(t, w);
  const p = await createProject(t, w.stranger, w.otherSlug);
  const [s] = await t.db.select().from(states).where(eq(states.projectId, p.id)).limit(1);
  foreign = { id: p.id, url: `/api/workspaces/${w.slug}/projects/${p.id}`, stateId: s?.id ?? "" };
});
afterAll(() => t.close());

const hex = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;
let n = 0;
const stateName = () => `State ${n++}`;

async function statesOf(projectId: string) {
  return t.db.select().from(states).where(eq(states.projectId, projectId));
}
async function stateRow(id: string) {
  const [row] = await t.db.select().from(states).where(eq(states.id, id));
  return row;
}
async function newState(body: Record<string, unknown> = {}) {
  const res = await client(t.app, w.member).post(`${team.url}/states/`, {
    name: stateName(),
    color: hex(),
    group: "started",
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string; group: string; sequence: number; default: boolean };
}
/** Collect events published while `work` runs. */
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
let sequenceCounter = 100000;
async function insertIssue(projectId: string, stateId: string, extra: Partial<typeof issues.$inferInsert> = {}) {
  await t.db.insert(issues).values({
    workspaceId: w.workspaceId,
    projectId,
    sequenceId: sequenceCounter++,
    name: "Work item",
    stateId,
    ...extra,
  });
}

describe("GET /projects/:id/states/", () => {
  it("lists the project's states by group order then sequence, to every project role", async () => {
    for (const user of [w.admin, w.member, w.guest]) {
      const res = await client(t.app, user).get(`${team.url}/states/`);
      expect(res.statusCode).toBe(200);
      const list = res.json() as { name: string; group: string; default: boolean; project_id: string }[];
      expect(list.map((s) => s.name)).toEqual(DEFAULT_STATES.map((s) => s.name));
      expect(list[0]).toMatchObject({
        group: "backlog",
        default: true,
        project_id: team.id,
        workspace_id: w.workspaceId,
      });
    }
  });

  it("orders a new state within its group, not at the end of the list", async () => {
    const p = await projectWithTeam(t, w);
    await client(t.app, w.member).post(`${p.url}/states/`, { name: "Icebox", color: "#123456", group: "backlog" });
    const list = (await client(t.app, w.member).get(`${p.url}/states/`)).json() as { name: string; group: string }[];
    expect(list.map((s) => s.name)).toEqual(["Backlog", "Icebox", "Todo", "In Progress", "Done", "Cancelled"]);
    expect(list.map((s) => s.group)).toEqual([...STATE_GROUPS.slice(0, 1), ...STATE_GROUPS]);
  });

  it("is 401 anonymous, 404 for another workspace's project and for a non-member of a private project", async () => {
    expect((await client(t.app).get(`${team.url}/states/`)).statusCode).toBe(401);
    expect((await client(t.app, w.admin).get(`${foreign.url}/states/`)).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).get(`${team.url}/states/`)).statusCode).toBe(404);
    const secret = await createProject(t, w.admin, w.slug, { network: NETWORK.private });
    const url = `/api/workspaces/${w.slug}/projects/${secret.id}/states/`;
    expect((await client(t.app, w.outsider).get(url)).statusCode).toBe(404);
  });
});

describe("GET /states/ (workspace)", () => {
  it("lists the states of the projects the caller is a member of", async () => {
    const mine = await createProject(t, w.outsider, w.slug);
    const res = await client(t.app, w.outsider).get(`/api/workspaces/${w.slug}/states/`);
    expect(res.statusCode).toBe(200);
    const list = res.json() as { project_id: string }[];
    expect(new Set(list.map((s) => s.project_id))).toEqual(new Set([mine.id]));
    expect(list).toHaveLength(DEFAULT_STATES.length);
    const guestList = (await client(t.app, w.guest).get(`/api/workspaces/${w.slug}/states/`)).json() as {
      project_id: string;
    }[];
    expect(guestList.some((s) => s.project_id === team.id)).toBe(true);
    expect(guestList.some((s) => s.project_id === mine.id)).toBe(false);
  });

  it("is 401 anonymous and 404 for a workspace the caller is not in", async () => {
    expect((await client(t.app).get(`/api/workspaces/${w.slug}/states/`)).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).get(`/api/workspaces/${w.slug}/states/`)).statusCode).toBe(404);
  });
});

describe("POST /projects/:id/states/", () => {
  it("creates a state at the end of its group and emits state.created after commit", async () => {
    const before = await statesOf(team.id);
    const lastStarted = Math.max(...before.filter((s) => s.group === "started").map((s) => s.sequence));
    let foundAtPublish: boolean | undefined;
    const seen: DomainEvent[] = [];
    const off = t.app.ctx.events.subscribe(async (e) => {
      seen.push(e);
      foundAtPublish = Boolean(await stateRow(e.entity_id));
    });
    const res = await client(t.app, w.member).post(`${team.url}/states/`, {
      name: "  In Review ",
      color: "#AbCdEf",
      group: "started",
      description: "Waiting for a reviewer",
    });
    off();
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      name: "In Review",
      color: "#AbCdEf",
      group: "started",
      description: "Waiting for a reviewer",
      default: false,
      sequence: lastStarted + 65535,
      project_id: team.id,
      workspace_id: w.workspaceId,
      created_by: w.member.id,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      type: "state.created",
      entity_id: body.id,
      project_id: team.id,
      workspace_id: w.workspaceId,
      actor_id: w.member.id,
      data: body,
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(foundAtPublish).toBe(true);
  });

  it("takes a given sequence and puts the first state of an empty group at 65535", async () => {
    const p = await projectWithTeam(t, w);
    await t.db.delete(states).where(and(eq(states.projectId, p.id), eq(states.group, "cancelled")));
    const a = (
      await client(t.app, w.member).post(`${p.url}/states/`, { name: "Dropped", color: "#000", group: "cancelled" })
    ).json();
    expect(a.sequence).toBe(65535);
    const b = (
      await client(t.app, w.member).post(`${p.url}/states/`, {
        name: "Won't do",
        color: "#000",
        group: "cancelled",
        sequence: 12.5,
      })
    ).json();
    expect(b.sequence).toBe(12.5);
  });

  it("refuses a name already used in the project, ignoring case (409), but allows it in another project", async () => {
    const res = await client(t.app, w.member).post(`${team.url}/states/`, {
      name: "todo",
      color: "#111111",
      group: "unstarted",
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: "STATE_NAME_TAKEN", fields: { name: ["This name is already taken."] } });
    const other = await projectWithTeam(t, w);
    const ok = await client(t.app, w.member).post(`${other.url}/states/`, {
      name: "Brand new",
      color: "#111111",
      group: "unstarted",
    });
    expect(ok.statusCode).toBe(201);
    const again = await client(t.app, w.member).post(`${team.url}/states/`, {
      name: "Brand new",
      color: "#111111",
      group: "unstarted",
    });
    expect(again.statusCode).toBe(201);
  });

  it("refuses bad input with 400 and stores nothing", async () => {
    const before = (await statesOf(team.id)).length;
    const bad: Record<string, unknown>[] = [
      { color: "#111111", group: "started" },
      { name: "   ", color: "#111111", group: "started" },
      { name: "X", color: "red", group: "started" },
      { name: "X", color: "#111111", group: "doing" },
      { name: "X", color: "#111111", group: "started", sequence: "first" },
      { name: ["X"], color: "#111111", group: "started" },
      { name: "x".repeat(256), color: "#111111", group: "started" },
    ];
    const seen = await eventsDuring(async () => {
      for (const body of bad) {
        const res = await client(t.app, w.member).post(`${team.url}/states/`, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().code).toBe("VALIDATION_ERROR");
      }
      const infinite = await client(t.app, w.member).post(
        `${team.url}/states/`,
        '{"name":"Far","color":"#111111","group":"started","sequence":1e400}',
        { "content-type": "application/json" },
      );
      expect(infinite.statusCode).toBe(400);
      expect(infinite.json().fields).toHaveProperty("sequence");
    });
    expect(seen).toEqual([]);
    expect((await statesOf(team.id)).length).toBe(before);
  });

  it("is 403 for a guest, 404 for another workspace's project, 401 anonymous; nothing stored", async () => {
    const before = (await statesOf(team.id)).length;
    const body = { name: "Nope", color: "#111111", group: "started" };
    const guest = await client(t.app, w.guest).post(`${team.url}/states/`, body);
    expect(guest.statusCode).toBe(403);
    expect((await client(t.app, w.admin).post(`${foreign.url}/states/`, body)).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).post(`${team.url}/states/`, body)).statusCode).toBe(404);
    expect((await client(t.app).post(`${team.url}/states/`, body)).statusCode).toBe(401);
    expect((await statesOf(team.id)).length).toBe(before);
    expect((await statesOf(foreign.id)).length).toBe(DEFAULT_STATES.length);
  });
});

describe("GET /projects/:id/states/:stateId/", () => {
  it("returns one state to any project member", async () => {
    const s = await newState();
    for (const user of [w.admin, w.member, w.guest]) {
      const res = await client(t.app, user).get(`${team.url}/states/${s.id}/`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: s.id, name: s.name });
    }
  });

  it("is 404 for a state of another project or workspace and a bad id; 401 anonymous", async () => {
    const other = await projectWithTeam(t, w);
    const [otherState] = await statesOf(other.id);
    expect((await client(t.app, w.admin).get(`${team.url}/states/${otherState?.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).get(`${team.url}/states/${foreign.stateId}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).get(`${foreign.url}/states/${foreign.stateId}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).get(`${team.url}/states/not-a-uuid/`)).statusCode).toBe(404);
    const s = await newState();
    expect((await client(t.app).get(`${team.url}/states/${s.id}/`)).statusCode).toBe(401);
  });
});

describe("PATCH and PUT /projects/:id/states/:stateId/", () => {
  it("renames, recolours and reorders (sequence) and emits state.updated", async () => {
    const s = await newState();
    const seen = await eventsDuring(async () => {
      const res = await client(t.app, w.member).patch(`${team.url}/states/${s.id}/`, {
        name: "Renamed",
        color: "#00ff00",
        sequence: -42.25,
        description: "Changed",
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        name: "Renamed",
        color: "#00ff00",
        sequence: -42.25,
        description: "Changed",
        updated_by: w.member.id,
      });
    });
    expect(seen.map((e) => [e.type, e.entity_id])).toEqual([["state.updated", s.id]]);
    expect(seen[0]?.data).toMatchObject({ name: "Renamed", sequence: -42.25 });
    // It now lists first in its group.
    const list = (await client(t.app, w.member).get(`${team.url}/states/`)).json() as { id: string; group: string }[];
    expect(list.find((x) => x.group === "started")?.id).toBe(s.id);
  });

  it("moves a state to the end of its new group when the group changes without a sequence", async () => {
    const s = await newState({ group: "started" });
    const rows = await statesOf(team.id);
    const lastCompleted = Math.max(...rows.filter((r) => r.group === "completed").map((r) => r.sequence));
    const res = await client(t.app, w.member).patch(`${team.url}/states/${s.id}/`, { group: "completed" });
    expect(res.json()).toMatchObject({ group: "completed", sequence: lastCompleted + 65535 });
  });

  it("keeps a case-only rename of the same state, refuses another state's name (409)", async () => {
    const s = await newState({ name: "casey" });
    expect((await client(t.app, w.member).patch(`${team.url}/states/${s.id}/`, { name: "Casey" })).json().name).toBe(
      "Casey",
    );
    const res = await client(t.app, w.member).patch(`${team.url}/states/${s.id}/`, { name: "DONE" });
    expect(res.statusCode).toBe(409);
    expect((await stateRow(s.id))?.name).toBe("Casey");
  });

  it("PUT replaces the editable fields and needs name, colour and group", async () => {
    const s = await newState();
    const ok = await client(t.app, w.member).put(`${team.url}/states/${s.id}/`, {
      name: "Put",
      color: "#abc",
      group: "unstarted",
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ name: "Put", color: "#abc", group: "unstarted" });
    const missing = await client(t.app, w.member).put(`${team.url}/states/${s.id}/`, { name: "Half" });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().fields)).toEqual(expect.arrayContaining(["color", "group"]));
    expect((await stateRow(s.id))?.name).toBe("Put");
  });

  it("refuses bad input (400) and changes nothing", async () => {
    const s = await newState();
    const before = await stateRow(s.id);
    for (const body of [
      { sequence: "top" },
      { sequence: null },
      { color: "#12" },
      { group: "done" },
      { name: "" },
      { name: 5 },
    ]) {
      const res = await client(t.app, w.member).patch(`${team.url}/states/${s.id}/`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await stateRow(s.id)).toEqual(before);
  });

  it("is 403 for a guest, 404 across workspaces, 401 anonymous; nothing changes", async () => {
    const s = await newState();
    const before = await stateRow(s.id);
    expect((await client(t.app, w.guest).patch(`${team.url}/states/${s.id}/`, { name: "Guest" })).statusCode).toBe(403);
    expect(
      (await client(t.app, w.guest).put(`${team.url}/states/${s.id}/`, { name: "G", color: "#000", group: "backlog" }))
        .statusCode,
    ).toBe(403);
    expect(
      (await client(t.app, w.stranger).patch(`${team.url}/states/${s.id}/`, { name: "Stranger" })).statusCode,
    ).toBe(404);
    expect(
      (await client(t.app, w.admin).patch(`${team.url}/states/${foreign.stateId}/`, { name: "Across" })).statusCode,
    ).toBe(404);
    expect((await client(t.app).patch(`${team.url}/states/${s.id}/`, { name: "Anon" })).statusCode).toBe(401);
    expect(await stateRow(s.id)).toEqual(before);
  });
});

describe("DELETE /projects/:id/states/:stateId/", () => {
  it("deletes an unused state and emits state.deleted with the state as it was", async () => {
    const s = await newState();
    const seen = await eventsDuring(async () => {
      const res = await client(t.app, w.member).delete(`${team.url}/states/${s.id}/`);
      expect(res.statusCode).toBe(204);
    });
    expect(await stateRow(s.id)).toBeUndefined();
    expect(seen).toMatchObject([{ type: "state.deleted", entity_id: s.id, data: { id: s.id, name: s.name } }]);
  });

  it("refuses a state that still has work items, counting archived and drafts but not deleted ones", async () => {
    const s = await newState();
    await insertIssue(team.id, s.id);
    await insertIssue(team.id, s.id, { archivedAt: new Date() });
    await insertIssue(team.id, s.id, { deletedAt: new Date() });
    const res = await client(t.app, w.admin).delete(`${team.url}/states/${s.id}/`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: "STATE_HAS_WORK_ITEMS",
      error: "Move the 2 work items in this state to another state first.",
    });
    expect(await stateRow(s.id)).toBeDefined();

    const one = await newState();
    await insertIssue(team.id, one.id);
    expect((await client(t.app, w.admin).delete(`${team.url}/states/${one.id}/`)).json().error).toBe(
      "Move the 1 work item in this state to another state first.",
    );
  });

  it("refuses the default state", async () => {
    const [def] = (await statesOf(team.id)).filter((s) => s.isDefault);
    const res = await client(t.app, w.admin).delete(`${team.url}/states/${def?.id}/`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "STATE_IS_DEFAULT", error: DEFAULT_STATE_DELETE_MESSAGE });
    expect(await stateRow(def?.id ?? "")).toBeDefined();
  });

  it("is 403 for a guest, 404 across workspaces and projects, 401 anonymous; nothing deleted", async () => {
    const s = await newState();
    expect((await client(t.app, w.guest).delete(`${team.url}/states/${s.id}/`)).statusCode).toBe(403);
    expect((await client(t.app, w.stranger).delete(`${team.url}/states/${s.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).delete(`${team.url}/states/${foreign.stateId}/`)).statusCode).toBe(404);
    expect((await client(t.app).delete(`${team.url}/states/${s.id}/`)).statusCode).toBe(401);
    expect(await stateRow(s.id)).toBeDefined();
    expect(await stateRow(foreign.stateId)).toBeDefined();
  });
});

describe("POST /projects/:id/states/:stateId/mark-default/", () => {
  async function defaults(projectId: string) {
    const [row] = await t.db
      .select({ n: count() })
      .from(states)
      .where(and(eq(states.projectId, projectId), eq(states.isDefault, true)));
    return row?.n ?? 0;
  }

  it("makes the state the only default and emits state.updated for the old and new default", async () => {
    const p = await projectWithTeam(t, w);
    const rows = await statesOf(p.id);
    const oldDefault = rows.find((s) => s.isDefault);
    const todo = rows.find((s) => s.name === "Todo");
    const seen = await eventsDuring(async () => {
      const res = await client(t.app, w.member).post(`${p.url}/states/${todo?.id}/mark-default/`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: todo?.id, default: true });
    });
    expect(await defaults(p.id)).toBe(1);
    expect((await stateRow(todo?.id ?? ""))?.isDefault).toBe(true);
    expect((await stateRow(oldDefault?.id ?? ""))?.isDefault).toBe(false);
    expect(seen.map((e) => [e.type, e.entity_id, (e.data as { default: boolean }).default])).toEqual([
      ["state.updated", oldDefault?.id, false],
      ["state.updated", todo?.id, true],
    ]);
    // Marking it again changes nothing and emits nothing.
    const again = await eventsDuring(() => client(t.app, w.member).post(`${p.url}/states/${todo?.id}/mark-default/`));
    expect(again).toEqual([]);
    expect(await defaults(p.id)).toBe(1);
  });

  it("keeps exactly one default when two marks race", async () => {
    const p = await projectWithTeam(t, w);
    const rows = await statesOf(p.id);
    const [a, b] = rows.filter((s) => !s.isDefault);
    const results = await Promise.all([
      client(t.app, w.member).post(`${p.url}/states/${a?.id}/mark-default/`),
      client(t.app, w.admin).post(`${p.url}/states/${b?.id}/mark-default/`),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(await defaults(p.id)).toBe(1);
  });

  it("refuses a body (400), a guest (403), another workspace (404) and anonymous (401); default unchanged", async () => {
    const p = await projectWithTeam(t, w);
    const rows = await statesOf(p.id);
    const def = rows.find((s) => s.isDefault);
    const other = rows.find((s) => !s.isDefault);
    const url = `${p.url}/states/${other?.id}/mark-default/`;
    expect((await client(t.app, w.member).post(url, [{ default: true }])).statusCode).toBe(400);
    expect((await client(t.app, w.guest).post(url)).statusCode).toBe(403);
    expect((await client(t.app, w.stranger).post(url)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).post(`${p.url}/states/${foreign.stateId}/mark-default/`)).statusCode).toBe(
      404,
    );
    expect((await client(t.app).post(url)).statusCode).toBe(401);
    expect((await stateRow(def?.id ?? ""))?.isDefault).toBe(true);
    expect(await defaults(p.id)).toBe(1);
    expect(await defaults(foreign.id)).toBe(1);
  });
});
