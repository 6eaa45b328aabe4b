/**
 * workspace-views/{screen}/user-properties/: the caller's own filters, display filters and
 * display properties per built-in workspace view and member-profile tab. Defaults, PATCH
 * merging, one screen's settings never touching another's nor another member's, the
 * workspace-views/ props kept beside them, and the refusals (401, 404, 400 with nothing stored).
 */
import { DEFAULT_DISPLAY_PROPERTIES } from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp, type TestUser } from "../../../test/harness.ts";
import { workspaceMembers } from "../../db/schema.ts";
import { createFixture, type Fixture } from "../issues/test-support.ts";
import { WORKSPACE_SCREENS } from "./screen-properties.ts";

let t: TestApp;
let f: Fixture;
let ws: string;

beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
  ws = `/api/workspaces/${f.w.slug}`;
});
afterAll(() => t.close());

const url = (screen: string) => `${ws}/workspace-views/${screen}/user-properties/`;

async function storedViewProps(user: TestUser) {
  const [row] = await t.db
    .select({ viewProps: workspaceMembers.viewProps })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, f.w.workspaceId), eq(workspaceMembers.memberId, user.id)));
  return row?.viewProps;
}

describe("GET workspace-views/{screen}/user-properties/", () => {
  it("answers the workspace defaults for every screen, without writing anything", async () => {
    for (const screen of WORKSPACE_SCREENS) {
      const res = await client(t.app, f.w.outsider).get(url(screen));
      expect(res.statusCode, `${screen}: ${res.body}`).toBe(200);
      expect(res.json()).toEqual({
        workspace: f.w.workspaceId,
        user: f.w.outsider.id,
        screen,
        filters: {},
        display_filters: {
          layout: "spreadsheet",
          group_by: null,
          sub_group_by: null,
          order_by: "-created_at",
          type: null,
          sub_issue: true,
          show_empty_groups: true,
          calendar: { layout: "month", show_weekends: false },
          gantt: { scale: "week" },
        },
        display_properties: DEFAULT_DISPLAY_PROPERTIES,
      });
    }
    expect(await storedViewProps(f.w.outsider)).toEqual({});
  });

  it("is open to guests (their own settings)", async () => {
    const api = client(t.app, f.w.guest);
    expect((await api.get(url("assigned"))).statusCode).toBe(200);
    const saved = await api.patch(url("assigned"), { display_filters: { layout: "list" } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().display_filters.layout).toBe("list");
  });
});

describe("PATCH workspace-views/{screen}/user-properties/", () => {
  it("merges filters key by key, display filters and properties key by key, and keeps them", async () => {
    const api = client(t.app, f.w.member);
    const first = await api.patch(url("all-issues"), {
      filters: { priority: ["urgent", "high"], project: [f.project.id] },
      display_filters: { group_by: "project" },
      display_properties: { labels: false },
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      screen: "all-issues",
      user: f.w.member.id,
      filters: { priority: ["urgent", "high"], project: [f.project.id] },
      display_filters: { layout: "spreadsheet", group_by: "project", order_by: "-created_at" },
      display_properties: { ...DEFAULT_DISPLAY_PROPERTIES, labels: false },
    });

    // A second patch changes only what it names; [] (or null) removes a filter.
    const second = await api.patch(url("all-issues"), {
      filters: { priority: [], state_group: ["started"] },
      display_filters: { order_by: "priority" },
      display_properties: { priority: false },
    });
    expect(second.statusCode, second.body).toBe(200);
    const body = second.json();
    expect(body.filters).toEqual({ project: [f.project.id], state_group: ["started"] });
    expect(body.display_filters).toMatchObject({ layout: "spreadsheet", group_by: "project", order_by: "priority" });
    expect(body.display_properties).toMatchObject({ labels: false, priority: false, assignee: true });

    const again = (await api.get(url("all-issues"))).json();
    expect(again).toEqual(body);
  });

  it("applies the kanban rules on change (kanban groups by state when ungrouped; only kanban sub-groups)", async () => {
    const api = client(t.app, f.w.member);
    const kanban = await api.patch(url("created"), { display_filters: { layout: "kanban" } });
    expect(kanban.statusCode, kanban.body).toBe(200);
    expect(kanban.json().display_filters).toMatchObject({ layout: "kanban", group_by: "state_id" });

    const sub = await api.patch(url("created"), { display_filters: { group_by: "project", sub_group_by: "priority" } });
    expect(sub.json().display_filters).toMatchObject({ group_by: "project", sub_group_by: "priority" });

    const sheet = await api.patch(url("created"), { display_filters: { layout: "spreadsheet" } });
    expect(sheet.json().display_filters).toMatchObject({
      layout: "spreadsheet",
      group_by: "project",
      sub_group_by: null,
    });
  });

  it("keeps each screen's settings apart: assigned's change leaves created's and the profile tabs' alone", async () => {
    const api = client(t.app, f.w.admin);
    const createdBefore = (await api.get(url("created"))).json();
    const profileBefore = (await api.get(url("profile-assigned"))).json();
    const res = await api.patch(url("assigned"), {
      filters: { priority: ["low"] },
      display_filters: { layout: "calendar" },
      display_properties: { key: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await api.get(url("assigned"))).json()).toMatchObject({
      filters: { priority: ["low"] },
      display_filters: { layout: "calendar" },
      display_properties: { key: false },
    });
    expect((await api.get(url("created"))).json()).toEqual(createdBefore);
    expect((await api.get(url("profile-assigned"))).json()).toEqual(profileBefore);

    const profile = await api.patch(url("profile-assigned"), { display_filters: { layout: "gantt_chart" } });
    expect(profile.json().display_filters.layout).toBe("gantt_chart");
    expect((await api.get(url("assigned"))).json().display_filters.layout).toBe("calendar");
  });

  it("keeps each member's settings apart", async () => {
    const mine = await client(t.app, f.w.member).patch(url("subscribed"), { filters: { priority: ["none"] } });
    expect(mine.statusCode, mine.body).toBe(200);
    const theirs = (await client(t.app, f.w.admin).get(url("subscribed"))).json();
    expect(theirs.filters).toEqual({});
    expect(theirs.user).toBe(f.w.admin.id);
  });

  it("lives beside the workspace-views/ props: neither call overwrites the other", async () => {
    const api = client(t.app, f.w.member);
    await api.patch(url("profile-created"), { filters: { priority: ["medium"] } });
    const posted = await api.post(`${ws}/workspace-views/`, { view_props: { filters: { priority: ["urgent"] } } });
    expect(posted.statusCode, posted.body).toBe(200);
    expect((await api.get(url("profile-created"))).json().filters).toEqual({ priority: ["medium"] });

    await api.patch(url("profile-created"), { filters: { priority: ["high"] } });
    const props = (await api.get(`${ws}/workspace-views/`)).json();
    expect(props.view_props.filters).toEqual({ priority: ["urgent"] });
    const stored = await storedViewProps(f.w.member);
    expect(stored).toMatchObject({
      filters: { priority: ["urgent"] },
      screens: { "profile-created": { filters: { priority: ["high"] } } },
    });
  });
});

describe("refusals", () => {
  it("401 anonymous, 404 another workspace's member, 404 an unknown screen", async () => {
    expect((await client(t.app).get(url("assigned"))).statusCode).toBe(401);
    expect((await client(t.app).patch(url("assigned"), { filters: {} })).statusCode).toBe(401);

    const stranger = client(t.app, f.w.stranger);
    expect((await stranger.get(url("assigned"))).statusCode).toBe(404);
    expect((await stranger.patch(url("assigned"), { filters: { priority: ["low"] } })).statusCode).toBe(404);
    // The stranger's own workspace answers them: the 404 above is about membership.
    const own = await stranger.get(`/api/workspaces/${f.w.otherSlug}/workspace-views/assigned/user-properties/`);
    expect(own.statusCode, own.body).toBe(200);

    const api = client(t.app, f.w.member);
    for (const res of [await api.get(url("my-issues")), await api.patch(url("my-issues"), { filters: {} })]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toContain('Unknown screen "my-issues"');
    }
  });

  it("400 on an unknown filter, a bad value, a bad layout or grouping, with nothing stored", async () => {
    const api = client(t.app, f.w.member);
    await api.patch(url("assigned"), { filters: { priority: ["high"] }, display_filters: { group_by: "priority" } });
    const before = await storedViewProps(f.w.member);
    const shown = (await api.get(url("assigned"))).json();

    const bad: Record<string, unknown>[] = [
      { filters: { colour: ["red"] } },
      { filters: { priority: ["burning"] } },
      { filters: { project: ["not-a-uuid"] } },
      { display_filters: { layout: "mosaic" } },
      { display_filters: { group_by: "colour" } },
      { display_filters: { order_by: "shoe_size" } },
      { display_filters: { zoom: 2 } },
      { display_properties: { colour: true } },
      { display_properties: { labels: "no" } },
      // A good part does not get stored when another part is refused.
      { filters: { priority: ["low"] }, display_filters: { layout: "mosaic" } },
      { filters: "priority" },
    ];
    for (const body of bad) {
      const res = await api.patch(url("assigned"), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error, JSON.stringify(body)).toBeTruthy();
    }
    expect(await storedViewProps(f.w.member)).toEqual(before);
    expect((await api.get(url("assigned"))).json()).toEqual(shown);
  });
});
