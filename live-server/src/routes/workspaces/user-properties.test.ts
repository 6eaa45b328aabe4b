import { ROLE } from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  createTestApp,
  createUser,
  createWorkspace,
  type TestApp,
  type TestUser,
  type TestWorkspace,
} from "../../../test/harness.ts";
import { workspaceUserProperties } from "../../db/schema.ts";

let t: TestApp;
let admin: TestUser;
let guest: TestUser;
let outsider: TestUser;
let ws: TestWorkspace;
let otherWs: TestWorkspace;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db);
  guest = await createUser(t.db);
  outsider = await createUser(t.db);
  ws = await createWorkspace(t.db, admin, [{ user: guest, role: ROLE.guest }]);
  otherWs = await createWorkspace(t.db, outsider, [{ user: admin, role: ROLE.member }]);
});
afterAll(() => t.close());

const url = (slug: string) => `/api/workspaces/${slug}/user-properties/`;

async function storedRows(userId: string) {
  return t.db.select().from(workspaceUserProperties).where(eq(workspaceUserProperties.userId, userId));
}

async function storedRow(workspaceId: string, userId: string) {
  const [row] = await t.db
    .select()
    .from(workspaceUserProperties)
    .where(and(eq(workspaceUserProperties.workspaceId, workspaceId), eq(workspaceUserProperties.userId, userId)));
  return row;
}

describe("GET /api/workspaces/:slug/user-properties/", () => {
  it("creates the caller's row on first read with the reference's defaults, once", async () => {
    const res = await client(t.app, admin).get(url(ws.slug));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      id: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      deleted_at: null,
      filters: {
        priority: null,
        state: null,
        state_group: null,
        assignees: null,
        created_by: null,
        labels: null,
        start_date: null,
        target_date: null,
        subscriber: null,
      },
      display_filters: {
        display_filters: {
          group_by: null,
          order_by: "-created_at",
          type: null,
          sub_issue: true,
          show_empty_groups: true,
          layout: "list",
          calendar_date_range: "",
        },
      },
      display_properties: {
        display_properties: {
          assignee: true,
          attachment_count: true,
          created_on: true,
          due_date: true,
          estimate: true,
          key: true,
          labels: true,
          link: true,
          priority: true,
          start_date: true,
          state: true,
          sub_issue_count: true,
          updated_on: true,
        },
      },
      rich_filters: {},
      navigation_project_limit: 10,
      navigation_control_preference: "ACCORDION",
      created_by: admin.id,
      updated_by: admin.id,
      workspace: ws.id,
      user: admin.id,
    });
    const again = await client(t.app, admin).get(url(ws.slug));
    expect(again.json().id).toBe(body.id);
    expect((await storedRows(admin.id)).filter((r) => r.workspaceId === ws.id)).toHaveLength(1);
  });

  it("keeps one row per user and per workspace; guests have their own", async () => {
    await client(t.app, admin).patch(url(ws.slug), { navigation_project_limit: 3 });
    const guestView = await client(t.app, guest).get(url(ws.slug));
    expect(guestView.statusCode).toBe(200);
    expect(guestView.json()).toMatchObject({ user: guest.id, workspace: ws.id, navigation_project_limit: 10 });
    const elsewhere = await client(t.app, admin).get(url(otherWs.slug));
    expect(elsewhere.json()).toMatchObject({ user: admin.id, workspace: otherWs.id, navigation_project_limit: 10 });
    expect((await client(t.app, admin).get(url(ws.slug))).json().navigation_project_limit).toBe(3);
  });

  it("is 404 for another workspace's outsider and 401 signed out", async () => {
    expect((await client(t.app, outsider).get(url(ws.slug))).statusCode).toBe(404);
    expect((await client(t.app).get(url(ws.slug))).statusCode).toBe(401);
    expect(await storedRow(ws.id, outsider.id)).toBeUndefined();
  });
});

describe("PATCH /api/workspaces/:slug/user-properties/", () => {
  it("sets the fields it names, replaces JSON fields whole and drops unknown keys", async () => {
    const user = await createUser(t.db);
    const mine = await createWorkspace(t.db, user);
    const res = await client(t.app, user).patch(url(mine.slug), {
      navigation_control_preference: "TABBED",
      navigation_project_limit: 0,
      display_filters: { layout: "spreadsheet" },
      rich_filters: { and: [{ priority__in: "urgent" }] },
      not_a_field: 1,
      user: admin.id,
      workspace: ws.id,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      navigation_control_preference: "TABBED",
      navigation_project_limit: 0,
      display_filters: { layout: "spreadsheet" },
      rich_filters: { and: [{ priority__in: "urgent" }] },
      filters: { priority: null },
      user: user.id,
      workspace: mine.id,
    });
    expect(res.json()).not.toHaveProperty("not_a_field");
    const stored = await storedRow(mine.id, user.id);
    expect(stored).toMatchObject({ navigationControlPreference: "TABBED", navigationProjectLimit: 0 });
    expect((await client(t.app, user).get(url(mine.slug))).json().display_filters).toEqual({ layout: "spreadsheet" });
  });

  it("refuses bad input (400 naming the field) and stores nothing", async () => {
    const user = await createUser(t.db);
    const mine = await createWorkspace(t.db, user);
    await client(t.app, user).patch(url(mine.slug), { navigation_project_limit: 5 });
    const before = await storedRow(mine.id, user.id);
    for (const body of [
      { navigation_control_preference: "SIDEWAYS" },
      { navigation_project_limit: -1 },
      { navigation_project_limit: 2.5 },
      { navigation_project_limit: "7" },
      { filters: [] },
      { display_properties: "all" },
      { rich_filters: null },
    ]) {
      const res = await client(t.app, user).patch(url(mine.slug), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const field = Object.keys(body)[0] as string;
      expect(JSON.stringify(res.json()), JSON.stringify(body)).toContain(field);
    }
    expect(await storedRow(mine.id, user.id)).toEqual(before);
  });

  it("is 404 for an outsider and 401 signed out, creating nothing", async () => {
    expect((await client(t.app, outsider).patch(url(ws.slug), { navigation_project_limit: 1 })).statusCode).toBe(404);
    expect((await client(t.app).patch(url(ws.slug), { navigation_project_limit: 1 })).statusCode).toBe(401);
    expect(await storedRow(ws.id, outsider.id)).toBeUndefined();
  });
});
