/**
 * The API tolerates what real clients send (issue 9, fidelity items): both URL forms (with and
 * without the trailing slash) on every route; unknown body keys ignored, as the reference server
 * does, while a known key of the wrong type stays a 400 with nothing stored; and `""` for an
 * optional work-item reference meaning none (for state_id: the default state on create, no
 * change on update).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../test/harness.ts";
import { userProfiles } from "../db/schema.ts";
import {
  countIssues,
  createFixture,
  createIssue,
  type Fixture,
  issueRow,
  stateOf,
} from "../routes/issues/test-support.ts";

let t: TestApp;
let f: Fixture;

beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});

afterAll(async () => {
  await t?.close();
});

const admin = () => client(t.app, f.w.admin);

async function defaultStateId(): Promise<string> {
  const states = (await admin().get(`${f.project.url}/states/`)).json() as { id: string; default: boolean }[];
  const found = states.find((s) => s.default);
  if (!found) throw new Error("no default state");
  return found.id;
}

/** An active estimate on the fixture's project; its first point's id. */
async function activeEstimatePoint(): Promise<string> {
  const created = await admin().post(`${f.project.url}/estimates/`, {
    estimate: { name: "Points", type: "points" },
    estimate_points: [{ value: "1" }, { value: "2" }, { value: "3" }],
  });
  expect(created.statusCode, created.body).toBe(201);
  const estimate = created.json() as { id: string; is_active: boolean; points: { id: string }[] };
  if (!estimate.is_active) {
    const activated = await admin().post(`${f.project.url}/estimates/${estimate.id}/activate/`, {});
    expect(activated.statusCode, activated.body).toBeLessThan(300);
  }
  const point = estimate.points[0];
  if (!point) throw new Error("no point");
  return point.id;
}

describe("both URL forms", () => {
  it("answers with and without the trailing slash, on reads and writes", async () => {
    for (const url of [
      `/api/workspaces/${f.w.slug}/users/notifications`,
      `/api/workspaces/${f.w.slug}/users/notifications/`,
      "/api/users/me",
      "/api/users/me/",
      `${f.project.url}/issues`,
      `/api/workspaces/${f.w.slug}/project-identifiers?name=ABC`,
      `/api/workspaces/${f.w.slug}/project-identifiers/?name=ABC`,
    ]) {
      const res = await admin().get(url);
      expect(res.statusCode, `${url} ${res.body.slice(0, 80)}`).toBe(200);
    }
    const item = await createIssue(t, f.w.admin, f.project.url);
    const patched = await admin().patch(`${f.project.url}/issues/${item.id}`, { name: "No slash" });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().name).toBe("No slash");
    const created = await admin().post(`${f.project.url}/issue-labels`, { name: "no-slash" });
    expect(created.statusCode, created.body).toBe(201);
    // Unknown paths stay a JSON 404 either way.
    expect((await admin().get("/api/no-such-thing")).statusCode).toBe(404);
    expect((await admin().get("/api/no-such-thing/")).statusCode).toBe(404);
  });
});

describe("unknown keys are ignored; known keys are still checked", () => {
  it("takes a work-item PATCH with skip_activity, applying only the known fields", async () => {
    const item = await createIssue(t, f.w.admin, f.project.url);
    const res = await admin().patch(`${f.project.url}/issues/${item.id}/`, {
      name: "Renamed",
      skip_activity: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: "Renamed" });
    expect(res.json()).not.toHaveProperty("skip_activity");
    expect((await issueRow(t, item.id))?.name).toBe("Renamed");
  });

  it("refuses a known key of the wrong type (400) even beside unknown ones, storing nothing", async () => {
    const item = await createIssue(t, f.w.admin, f.project.url, { name: "Kept" });
    const res = await admin().patch(`${f.project.url}/issues/${item.id}/`, { name: 5, skip_activity: true });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "VALIDATION_ERROR", fields: { name: [expect.any(String)] } });
    const before = await countIssues(t, f.project.id);
    const bad = await admin().post(`${f.project.url}/issues/`, { name: "x", priority: 3, tempId: "t-1" });
    expect(bad.statusCode).toBe(400);
    expect(await countIssues(t, f.project.id)).toBe(before);
    expect((await issueRow(t, item.id))?.name).toBe("Kept");
  });

  it("takes the quick-add create as the reference client sends it (id, tempId, counts)", async () => {
    const stateId = await stateOf(t, f.project.id, "started");
    const sentId = crypto.randomUUID();
    const res = await admin().post(`${f.project.url}/issues/`, {
      id: sentId,
      tempId: "temp-123",
      name: "Quick one",
      project_id: f.project.id,
      state_id: stateId,
      priority: "none",
      sub_issues_count: 0,
      attachment_count: 0,
      link_count: 0,
      sort_order: 65535,
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({ name: "Quick one", state_id: stateId, sub_issues_count: 0 });
    // The server names its objects: the client's id and tempId are not taken.
    expect(created.id).not.toBe(sentId);
    expect(created).not.toHaveProperty("tempId");
  });

  it("takes has_marketing_email_consent on the profile without storing it (not a field here)", async () => {
    const res = await admin().patch("/api/users/me/profile/", {
      use_case: "Planning",
      has_marketing_email_consent: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ use_case: "Planning" });
    expect(res.json()).not.toHaveProperty("has_marketing_email_consent");
    const [row] = await t.db.select().from(userProfiles).where(eq(userProfiles.userId, f.w.admin.id));
    expect(row?.useCase).toBe("Planning");
    expect(JSON.stringify(row)).not.toContain("marketing");
  });
});

describe("one choice for every route", () => {
  it("no request schema refuses unknown keys (.strict() / z.strictObject)", () => {
    const root = fileURLToPath(new URL("../routes", import.meta.url));
    const offenders = readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
      .filter((file) => /\.strict\(\)|z\.strictObject\(/.test(readFileSync(path.join(root, file), "utf8")));
    expect(offenders).toEqual([]);
  });
});

describe('"" for an optional reference means none', () => {
  it("creates with state_id, parent_id and estimate_point empty: the default state, no parent, no estimate", async () => {
    const res = await admin().post(`${f.project.url}/issues/`, {
      name: "Empty refs",
      state_id: "",
      parent_id: "",
      estimate_point: "",
      cycle_id: "",
      type_id: "",
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ state_id: await defaultStateId(), parent_id: null, estimate_point: null });
  });

  it("on PATCH clears the parent and the estimate, and leaves the state as it is", async () => {
    const point = await activeEstimatePoint();
    const parent = await createIssue(t, f.w.admin, f.project.url, { name: "Parent" });
    const stateId = await stateOf(t, f.project.id, "started");
    const item = await createIssue(t, f.w.admin, f.project.url, {
      parent_id: parent.id,
      estimate_point: point,
      state_id: stateId,
    });
    expect(item).toMatchObject({ parent_id: parent.id, estimate_point: point });
    const res = await admin().patch(`${f.project.url}/issues/${item.id}/`, {
      state_id: "",
      parent_id: "",
      estimate_point: "",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ state_id: stateId, parent_id: null, estimate_point: null });
    expect(await issueRow(t, item.id)).toMatchObject({ stateId, parentId: null, estimatePointId: null });
    // null for the state is still refused: a work item always has one.
    expect((await admin().patch(`${f.project.url}/issues/${item.id}/`, { state_id: null })).statusCode).toBe(400);
  });

  it("works the same in bulk operations, drafts and workspace drafts", async () => {
    const item = await createIssue(t, f.w.admin, f.project.url, { priority: "low" });
    const bulk = await admin().post(`${f.project.url}/bulk-operation-issues/`, {
      issue_ids: [item.id],
      properties: { state_id: "", estimate_point: "", priority: "high" },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(await issueRow(t, item.id)).toMatchObject({
      priority: "high",
      stateId: item.state_id,
      estimatePointId: null,
    });

    const draft = await admin().post(`${f.project.url}/issue-drafts/`, {
      name: "Draft",
      state_id: "",
      parent_id: "",
      estimate_point: "",
    });
    expect(draft.statusCode, draft.body).toBe(201);
    expect(draft.json()).toMatchObject({ state_id: await defaultStateId(), parent_id: null });
    const draftPatch = await admin().patch(`${f.project.url}/issue-drafts/${draft.json().id}/`, { parent_id: "" });
    expect(draftPatch.statusCode, draftPatch.body).toBe(200);

    const wsDraft = await admin().post(`/api/workspaces/${f.w.slug}/draft-issues/`, {
      name: "Workspace draft",
      project_id: f.project.id,
      state_id: "",
      parent_id: "",
      estimate_point: "",
    });
    expect(wsDraft.statusCode, wsDraft.body).toBe(201);
    expect(wsDraft.json()).toMatchObject({ state_id: await defaultStateId(), parent_id: null });
  });

  it("still refuses a malformed reference (400), storing nothing", async () => {
    const before = await countIssues(t, f.project.id);
    const res = await admin().post(`${f.project.url}/issues/`, { name: "x", parent_id: " " });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toHaveProperty("parent_id");
    expect(await countIssues(t, f.project.id)).toBe(before);
  });
});
