/**
 * Cycle and module moves notify like any other field change: the item's followers (subscribers
 * and assignees), never the actor, under property_change — whichever route made the move.
 */
import { addDays, calendarDate } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../test/harness.ts";
import { cycles } from "../db/schema.ts";
import { createModule } from "../routes/modules/test-support.ts";
import {
  apiCreate,
  apiPatch,
  createNotifyFixture,
  type NotifyFixture,
  rowsAbout,
  setPreferences,
  settle,
} from "./test-support.ts";

let t: TestApp;
let f: NotifyFixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createNotifyFixture(t);
});
afterAll(() => t.close());

const ALL_ON = { property_change: true, state_change: true, comment: true, mention: true, issue_completed: true };
beforeEach(async () => {
  for (const user of [f.w.admin, f.w.member, f.member2, f.w.guest]) await setPreferences(t, user, ALL_ON);
});

let cycleCount = 0;
async function createCycle(name = `Sprint ${++cycleCount}`) {
  const res = await client(t.app, f.w.admin).post(`${f.project.url}/cycles/`, { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string };
}
const cycleUrl = (id: string) => `${f.project.url}/cycles/${id}/`;

async function newModule(name: string) {
  return (await createModule(t, f.w.admin, f.project.url, { name })) as { id: string; name: string };
}

/** An item created by the admin with the member assigned: both follow it (the creator is subscribed). */
async function followedItem() {
  return apiCreate(t, f, f.w.admin, { name: "Followed", assignee_ids: [f.w.member.id] });
}

type Row = Awaited<ReturnType<typeof rowsAbout>>[number];
type Activity = {
  field: string;
  verb: string;
  old_value: string | null;
  new_value: string | null;
  old_identifier: string | null;
  new_identifier: string | null;
  actor: string | null;
};
const activityOf = (r: Row) => (r.data as { issue_activity: Activity }).issue_activity;

/** Notifications about `itemId` made after the first `before`, as [receiver, sender, title]. */
async function newRows(itemId: string, before: number) {
  return (await rowsAbout(t, itemId)).slice(before);
}
const summary = (rows: Row[]) => rows.map((r) => [r.receiverId, r.sender, r.title]).sort();
const PROPERTY = "in_app:issue_activities:property_change";

async function post(url: string, body: Record<string, unknown>, by = f.member2) {
  const res = await client(t.app, by).post(url, body);
  expect(res.statusCode, res.body).toBeLessThan(300);
  await settle(t);
  return res;
}
async function del(url: string, by = f.member2) {
  const res = await client(t.app, by).delete(url);
  expect(res.statusCode, res.body).toBe(204);
  await settle(t);
}

describe("cycles", () => {
  it("PATCH cycle_id: added, moved, removed — each follower told, with the history row's names and ids", async () => {
    const item = await followedItem();
    const [a, b] = [await createCycle("Sprint A"), await createCycle("Sprint B")];
    const key = f.key(item.sequence_id);
    const by = f.member2.displayName;
    let before = (await rowsAbout(t, item.id)).length;

    await apiPatch(t, f, f.member2, item.id, { cycle_id: a.id });
    let rows = await newRows(item.id, before);
    expect(summary(rows)).toEqual(
      [
        [f.w.admin.id, PROPERTY, `${by} added ${key} to the cycle Sprint A`],
        [f.w.member.id, PROPERTY, `${by} added ${key} to the cycle Sprint A`],
      ].sort(),
    );
    for (const r of rows) {
      // As the reference writes it: joining a cycle is "created", its empty side "".
      expect(activityOf(r)).toMatchObject({
        field: "cycles",
        verb: "created",
        old_value: "",
        new_value: "Sprint A",
        old_identifier: null,
        new_identifier: a.id,
        actor: f.member2.id,
      });
      expect(r.triggeredById).toBe(f.member2.id);
    }
    before += rows.length;

    await apiPatch(t, f, f.member2, item.id, { cycle_id: b.id });
    rows = await newRows(item.id, before);
    expect(summary(rows)).toEqual(
      [
        [f.w.admin.id, PROPERTY, `${by} moved ${key} to the cycle Sprint B`],
        [f.w.member.id, PROPERTY, `${by} moved ${key} to the cycle Sprint B`],
      ].sort(),
    );
    expect(activityOf(rows[0] as Row)).toMatchObject({
      old_value: "Sprint A",
      new_value: "Sprint B",
      old_identifier: a.id,
      new_identifier: b.id,
    });
    before += rows.length;

    await apiPatch(t, f, f.member2, item.id, { cycle_id: null });
    rows = await newRows(item.id, before);
    expect(summary(rows)).toEqual(
      [
        [f.w.admin.id, PROPERTY, `${by} removed ${key} from the cycle Sprint B`],
        [f.w.member.id, PROPERTY, `${by} removed ${key} from the cycle Sprint B`],
      ].sort(),
    );
    expect(activityOf(rows[0] as Row)).toMatchObject({
      verb: "deleted",
      old_identifier: b.id,
      new_identifier: null,
      new_value: "",
    });
    before += rows.length;

    // Setting the cycle it is already out of changes nothing and tells no one.
    await apiPatch(t, f, f.member2, item.id, { cycle_id: null });
    expect(await newRows(item.id, before)).toEqual([]);
  });

  it("the actor is never told, even as a follower; a cycle move alongside other fields makes one notification each", async () => {
    const item = await followedItem();
    const c = await createCycle();
    const before = (await rowsAbout(t, item.id)).length;
    await apiPatch(t, f, f.w.admin, item.id, { cycle_id: c.id, priority: "high" });
    const rows = await newRows(item.id, before);
    const key = f.key(item.sequence_id);
    expect(summary(rows)).toEqual(
      [
        [f.w.member.id, PROPERTY, `${f.w.admin.displayName} added ${key} to the cycle ${c.name}`],
        [f.w.member.id, PROPERTY, `${f.w.admin.displayName} changed the priority of ${key}`],
      ].sort(),
    );
  });

  it("cycle-issues/: adding several items, moving one over from another cycle, and removing it", async () => {
    const x = await followedItem();
    const y = await apiCreate(t, f, f.w.admin, { name: "Other", assignee_ids: [f.member2.id] });
    const [a, b] = [await createCycle("Sprint C"), await createCycle("Sprint D")];
    const by = f.w.member.displayName;
    const [kx, ky] = [f.key(x.sequence_id), f.key(y.sequence_id)];
    const beforeX = (await rowsAbout(t, x.id)).length;
    const beforeY = (await rowsAbout(t, y.id)).length;

    await post(`${cycleUrl(a.id)}cycle-issues/`, { issues: [x.id, y.id] }, f.w.member);
    // The member moved x: only the admin (creator) hears of it; y's assignee and creator both do.
    expect(summary(await newRows(x.id, beforeX))).toEqual([
      [f.w.admin.id, PROPERTY, `${by} added ${kx} to the cycle Sprint C`],
    ]);
    expect(summary(await newRows(y.id, beforeY))).toEqual(
      [
        [f.w.admin.id, PROPERTY, `${by} added ${ky} to the cycle Sprint C`],
        [f.member2.id, PROPERTY, `${by} added ${ky} to the cycle Sprint C`],
      ].sort(),
    );

    await post(`${cycleUrl(b.id)}cycle-issues/`, { issues: [x.id] }, f.member2);
    const moved = await newRows(x.id, beforeX + 1);
    expect(summary(moved)).toEqual(
      [
        [f.w.admin.id, PROPERTY, `${f.member2.displayName} moved ${kx} to the cycle Sprint D`],
        [f.w.member.id, PROPERTY, `${f.member2.displayName} moved ${kx} to the cycle Sprint D`],
      ].sort(),
    );
    expect(activityOf(moved[0] as Row)).toMatchObject({ old_identifier: a.id, new_identifier: b.id });

    await del(`${cycleUrl(b.id)}cycle-issues/${x.id}/`, f.member2);
    expect(summary(await newRows(x.id, beforeX + 3))).toEqual(
      [
        [f.w.admin.id, PROPERTY, `${f.member2.displayName} removed ${kx} from the cycle Sprint D`],
        [f.w.member.id, PROPERTY, `${f.member2.displayName} removed ${kx} from the cycle Sprint D`],
      ].sort(),
    );
  });

  it("transfer-issues/: the unfinished items of a completed cycle move, and their followers hear it", async () => {
    const item = await followedItem();
    const [from, to] = [await createCycle("Old sprint"), await createCycle("New sprint")];
    await apiPatch(t, f, f.w.admin, item.id, { cycle_id: from.id });
    // Into the past in the table: a completed cycle can't be given items through the API.
    const today = calendarDate(new Date(), "UTC");
    await t.db
      .update(cycles)
      .set({ startDate: addDays(today, -30), endDate: addDays(today, -20) })
      .where(eq(cycles.id, from.id));
    const before = (await rowsAbout(t, item.id)).length;
    const res = await post(`${cycleUrl(from.id)}transfer-issues/`, { new_cycle_id: to.id }, f.member2);
    expect(res.json()).toMatchObject({ issues: [item.id] });
    expect(summary(await newRows(item.id, before))).toEqual(
      [
        [f.w.admin.id, PROPERTY, `${f.member2.displayName} moved ${f.key(item.sequence_id)} to the cycle New sprint`],
        [f.w.member.id, PROPERTY, `${f.member2.displayName} moved ${f.key(item.sequence_id)} to the cycle New sprint`],
      ].sort(),
    );
  });

  it("property_change off silences cycle moves", async () => {
    const item = await followedItem();
    const c = await createCycle();
    await setPreferences(t, f.w.member, { property_change: false });
    const before = (await rowsAbout(t, item.id)).length;
    await apiPatch(t, f, f.member2, item.id, { cycle_id: c.id });
    expect((await newRows(item.id, before)).map((r) => r.receiverId)).toEqual([f.w.admin.id]);
  });
});

describe("modules", () => {
  it("PATCH module_ids: one notification per module joined or left, to each follower", async () => {
    const item = await followedItem();
    const [m1, m2] = [await newModule("Checkout"), await newModule("Payments")];
    const key = f.key(item.sequence_id);
    const by = f.member2.displayName;
    let before = (await rowsAbout(t, item.id)).length;

    await apiPatch(t, f, f.member2, item.id, { module_ids: [m1.id, m2.id] });
    let rows = await newRows(item.id, before);
    expect(summary(rows)).toEqual(
      [
        [f.w.admin.id, PROPERTY, `${by} added ${key} to the module Checkout`],
        [f.w.admin.id, PROPERTY, `${by} added ${key} to the module Payments`],
        [f.w.member.id, PROPERTY, `${by} added ${key} to the module Checkout`],
        [f.w.member.id, PROPERTY, `${by} added ${key} to the module Payments`],
      ].sort(),
    );
    expect(activityOf(rows.find((r) => r.title.endsWith("Checkout")) as Row)).toMatchObject({
      field: "modules",
      verb: "created",
      new_value: "Checkout",
      new_identifier: m1.id,
      old_value: "",
      old_identifier: null,
      actor: f.member2.id,
    });
    before += rows.length;

    await apiPatch(t, f, f.member2, item.id, { module_ids: [m2.id] });
    rows = await newRows(item.id, before);
    expect(summary(rows)).toEqual(
      [
        [f.w.admin.id, PROPERTY, `${by} removed ${key} from the module Checkout`],
        [f.w.member.id, PROPERTY, `${by} removed ${key} from the module Checkout`],
      ].sort(),
    );
    expect(activityOf(rows[0] as Row)).toMatchObject({
      verb: "deleted",
      old_value: "Checkout",
      old_identifier: m1.id,
      new_value: "",
    });
  });

  it("modules/{id}/issues/ add and remove, and issues/{id}/modules/: followers told, never the actor", async () => {
    const item = await followedItem();
    const [m1, m2] = [await newModule("Search"), await newModule("Billing")];
    const key = f.key(item.sequence_id);
    const by = f.w.member.displayName;
    let before = (await rowsAbout(t, item.id)).length;
    const moduleUrl = (id: string) => `${f.project.url}/modules/${id}/`;

    // The member follows the item (assignee) and acts: only the admin hears.
    await post(`${moduleUrl(m1.id)}issues/`, { issues: [item.id] }, f.w.member);
    expect(summary(await newRows(item.id, before))).toEqual([
      [f.w.admin.id, PROPERTY, `${by} added ${key} to the module Search`],
    ]);
    before += 1;

    await post(
      `${f.project.url}/issues/${item.id}/modules/`,
      { modules: [m2.id], removed_modules: [m1.id] },
      f.w.member,
    );
    expect(summary(await newRows(item.id, before))).toEqual(
      [
        [f.w.admin.id, PROPERTY, `${by} added ${key} to the module Billing`],
        [f.w.admin.id, PROPERTY, `${by} removed ${key} from the module Search`],
      ].sort(),
    );
    before += 2;

    await del(`${moduleUrl(m2.id)}issues/${item.id}/`, f.member2);
    expect(summary(await newRows(item.id, before))).toEqual(
      [
        [f.w.admin.id, PROPERTY, `${f.member2.displayName} removed ${key} from the module Billing`],
        [f.w.member.id, PROPERTY, `${f.member2.displayName} removed ${key} from the module Billing`],
      ].sort(),
    );
  });

  it("deleting a module tells the followers of each of its items that the item left it", async () => {
    const item = await followedItem();
    const m = await newModule("Doomed");
    await apiPatch(t, f, f.w.admin, item.id, { module_ids: [m.id] });
    const before = (await rowsAbout(t, item.id)).length;
    await del(`${f.project.url}/modules/${m.id}/`, f.w.admin);
    expect(summary(await newRows(item.id, before))).toEqual([
      [f.w.member.id, PROPERTY, `${f.w.admin.displayName} removed ${f.key(item.sequence_id)} from the module Doomed`],
    ]);
  });
});

describe("bulk edit", () => {
  it("bulk-operation-issues with cycle_id and module_ids: each item's followers, per change", async () => {
    const x = await followedItem();
    const y = await apiCreate(t, f, f.w.admin, { name: "Other", assignee_ids: [f.member2.id] });
    const c = await createCycle("Bulk sprint");
    const m = await newModule("Bulk module");
    const beforeX = (await rowsAbout(t, x.id)).length;
    const beforeY = (await rowsAbout(t, y.id)).length;
    await post(
      `${f.project.url}/bulk-operation-issues/`,
      { issue_ids: [x.id, y.id], properties: { cycle_id: c.id, module_ids: [m.id] } },
      f.w.member,
    );
    const by = f.w.member.displayName;
    const [kx, ky] = [f.key(x.sequence_id), f.key(y.sequence_id)];
    expect(summary(await newRows(x.id, beforeX))).toEqual(
      [
        [f.w.admin.id, PROPERTY, `${by} added ${kx} to the cycle Bulk sprint`],
        [f.w.admin.id, PROPERTY, `${by} added ${kx} to the module Bulk module`],
      ].sort(),
    );
    expect(summary(await newRows(y.id, beforeY))).toEqual(
      [
        [f.w.admin.id, PROPERTY, `${by} added ${ky} to the cycle Bulk sprint`],
        [f.w.admin.id, PROPERTY, `${by} added ${ky} to the module Bulk module`],
        [f.member2.id, PROPERTY, `${by} added ${ky} to the cycle Bulk sprint`],
        [f.member2.id, PROPERTY, `${by} added ${ky} to the module Bulk module`],
      ].sort(),
    );
  });
});
