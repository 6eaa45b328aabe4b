import { DEFAULT_DISPLAY_FILTERS, DEFAULT_DISPLAY_PROPERTIES } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { projectUserProperties } from "../../db/schema.ts";
import { createFixture, type Fixture } from "./test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

const url = () => `${f.project.url}/user-properties/`;

describe("user-properties/", () => {
  it("starts with the defaults", async () => {
    const res = await client(t.app, f.w.member).get(url());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      user: f.w.member.id,
      project: f.project.id,
      filters: {},
      display_filters: DEFAULT_DISPLAY_FILTERS,
      display_properties: DEFAULT_DISPLAY_PROPERTIES,
    });
  });

  it("merges changes, applies the kanban rules, and keeps them per user", async () => {
    const res = await client(t.app, f.w.member).patch(url(), {
      filters: { priority: ["urgent", "high"], target_date: ["1_weeks;after;fromnow"], labels: null },
      display_filters: { layout: "kanban", group_by: "priority", sub_group_by: "priority", order_by: "-created_at" },
      display_properties: { assignee: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      filters: { priority: ["urgent", "high"], target_date: ["1_weeks;after;fromnow"] },
      display_filters: { layout: "kanban", group_by: "priority", sub_group_by: null, order_by: "-created_at" },
      display_properties: { assignee: false, labels: true },
    });
    const cleared = await client(t.app, f.w.member).patch(url(), {
      filters: { priority: [] },
      display_filters: { group_by: null },
    });
    expect(cleared.json().filters).toEqual({ target_date: ["1_weeks;after;fromnow"] });
    expect(cleared.json().display_filters).toMatchObject({
      layout: "kanban",
      group_by: "state_id",
      sub_group_by: null,
    });
    expect((await client(t.app, f.w.admin).get(url())).json().display_filters).toEqual(DEFAULT_DISPLAY_FILTERS);
    // Guests keep their own settings too.
    expect((await client(t.app, f.w.guest).patch(url(), { display_properties: { key: false } })).statusCode).toBe(200);
  });

  it("refuses unknown keys and values, storing nothing", async () => {
    await client(t.app, f.w.admin).get(url());
    const [before] = await t.db
      .select()
      .from(projectUserProperties)
      .where(eq(projectUserProperties.userId, f.w.admin.id));
    for (const body of [
      { filters: { colour: ["red"] } },
      { filters: { priority: ["critical"] } },
      { display_filters: { group_by: "colour" } },
      { display_filters: { layout: "table" } },
      { display_properties: { colour: true } },
      { display_properties: { assignee: "no" } },
      { filters: "priority" },
    ]) {
      const res = await client(t.app, f.w.admin).patch(url(), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const [after] = await t.db
      .select()
      .from(projectUserProperties)
      .where(eq(projectUserProperties.userId, f.w.admin.id));
    expect(after?.updatedAt.toISOString()).toBe(before?.updatedAt.toISOString());
  });

  it("keeps group_by / sub_group_by / order_by in the words the client saved", async () => {
    const user = f.w.guest;
    // The reference client's vocabulary, stored and answered as sent (not renamed to ours).
    for (const [groupBy, subGroupBy, orderBy] of [
      ["state", "priority", "state__name"],
      ["labels", "assignees", "-priority"],
      ["assignees", "state_detail.group", "-created_at"],
      ["state_detail.group", "labels", "estimate_point"],
      ["project", "created_by", "-issue_cycle__cycle__name"],
      ["cycle", "module", "assignees__first_name"],
      ["target_date", "state", "labels__name"],
      ["created_by", null, "sort_order"],
    ] as const) {
      const res = await client(t.app, user).patch(url(), {
        display_filters: { layout: "kanban", group_by: groupBy, sub_group_by: subGroupBy, order_by: orderBy },
      });
      expect(res.statusCode, res.body).toBe(200);
      const expected = { group_by: groupBy, sub_group_by: subGroupBy, order_by: orderBy };
      expect(res.json().display_filters).toMatchObject(expected);
      expect((await client(t.app, user).get(url())).json().display_filters).toMatchObject(expected);
      const [row] = await t.db.select().from(projectUserProperties).where(eq(projectUserProperties.userId, user.id));
      expect(row?.displayFilters).toMatchObject(expected);
    }
    // Rules still apply by meaning: "state" and "state_id" are the same grouping.
    const same = await client(t.app, user).patch(url(), {
      display_filters: { group_by: "state", sub_group_by: "state_id" },
    });
    expect(same.json().display_filters).toMatchObject({ group_by: "state", sub_group_by: null });
    // Kanban without a grouping groups by state, said in the client's words.
    const cleared = await client(t.app, user).patch(url(), {
      display_filters: { group_by: null },
    });
    expect(cleared.json().display_filters).toMatchObject({ group_by: "state", sub_group_by: null });
    // Our own keys come back as ours.
    const ours = await client(t.app, user).patch(url(), {
      display_filters: { group_by: "labels__id", sub_group_by: "state_id", order_by: "estimate_point__key" },
    });
    expect(ours.json().display_filters).toMatchObject({
      group_by: "labels__id",
      sub_group_by: "state_id",
      order_by: "estimate_point__key",
    });
    // The list query maps the reference's ordering to ours.
    const list = await client(t.app, user).get(`${f.project.url}/issues/?order_by=-estimate_point`);
    expect(list.statusCode, list.body).toBe(200);
    expect((await client(t.app, user).patch(url(), { display_filters: { order_by: "colour" } })).statusCode).toBe(400);
  });

  it("keeps the timeline's scale per user and board, refusing unknown scales with nothing stored", async () => {
    const user = f.w.member;
    const saved = await client(t.app, user).patch(url(), { display_filters: { gantt: { scale: "month" } } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().display_filters.gantt).toEqual({ scale: "month" });
    expect((await client(t.app, user).get(url())).json().display_filters.gantt).toEqual({ scale: "month" });
    // Another member's board keeps the default.
    expect((await client(t.app, f.w.admin).get(url())).json().display_filters.gantt).toEqual({ scale: "week" });
    // Changing something else keeps the scale.
    const other = await client(t.app, user).patch(url(), { display_filters: { layout: "gantt_chart" } });
    expect(other.json().display_filters).toMatchObject({ layout: "gantt_chart", gantt: { scale: "month" } });

    const [before] = await t.db.select().from(projectUserProperties).where(eq(projectUserProperties.userId, user.id));
    for (const gantt of [{ scale: "year" }, { scale: null }, { zoom: 2 }, "month"]) {
      const res = await client(t.app, user).patch(url(), { display_filters: { gantt } });
      expect(res.statusCode, JSON.stringify(gantt)).toBe(400);
      if (typeof gantt === "object" && "scale" in gantt) {
        expect(res.json().fields["gantt.scale"]).toEqual(["Timeline scale must be one of: week, month, quarter."]);
      }
    }
    const [after] = await t.db.select().from(projectUserProperties).where(eq(projectUserProperties.userId, user.id));
    expect(after?.updatedAt.toISOString()).toBe(before?.updatedAt.toISOString());
    expect(after?.displayFilters).toMatchObject({ gantt: { scale: "month" } });

    // Guests keep their own scale too (these are the caller's own settings: no role is too low).
    const guest = await client(t.app, f.w.guest).patch(url(), { display_filters: { gantt: { scale: "quarter" } } });
    expect(guest.json().display_filters.gantt).toEqual({ scale: "quarter" });
    expect(
      (await client(t.app, null).patch(url(), { display_filters: { gantt: { scale: "month" } } })).statusCode,
    ).toBe(401);
    // Another workspace's project is not found, either way round.
    const body = { display_filters: { gantt: { scale: "month" } } };
    expect((await client(t.app, f.w.stranger).patch(url(), body)).statusCode).toBe(404);
    expect((await client(t.app, user).patch(`${f.foreign.url}/user-properties/`, body)).statusCode).toBe(404);
  });

  it("answers 401 and 404 elsewhere", async () => {
    expect((await client(t.app, null).get(url())).statusCode).toBe(401);
    expect((await client(t.app, f.w.stranger).get(url())).statusCode).toBe(404);
    expect((await client(t.app, f.w.outsider).patch(url(), { display_properties: { key: false } })).statusCode).toBe(
      404,
    );
  });
});
