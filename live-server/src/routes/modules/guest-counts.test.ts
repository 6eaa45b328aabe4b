/**
 * A restricted guest (project guest, guest_view_all_features off) sees only the work items they
 * created: a module's counters (project and workspace lists, detail, archived), its
 * distributions, sub-issue count and completion charts are over those items, and no other
 * person is named. Members and admins still count every item.
 */
import { addDays, calendarDate } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp, type TestUser } from "../../../test/harness.ts";
import { issues, projects, users } from "../../db/schema.ts";
import {
  anotherProject,
  createFixture,
  createIssue,
  createLabel,
  type Fixture,
  stateOf,
} from "../issues/test-support.ts";
import { createModule } from "./test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

const get = async (user: TestUser, url: string) => {
  const res = await client(t.app, user).get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe("a restricted guest's module numbers count only their own work items", () => {
  it("lists, detail, distributions, chart and archived detail; members and admins see all", async () => {
    const p = await anotherProject(t, f);
    const today = calendarDate(new Date(), "UTC");
    const m = await createModule(t, f.w.admin, p.url, {
      start_date: addDays(today, -2),
      target_date: addDays(today, 2),
    });
    const mineLabel = await createLabel(t, p.id, "Mine");
    const hidden = await createLabel(t, p.id, "Hidden");
    const done = await stateOf(t, p.id, "completed");
    const own = await createIssue(t, f.w.admin, p.url, { module_ids: [m.id], label_ids: [mineLabel] });
    await t.db.update(issues).set({ createdById: f.w.guest.id }).where(eq(issues.id, own.id));
    const other = { module_ids: [m.id], assignee_ids: [f.w.member.id], label_ids: [hidden] };
    const parent = await createIssue(t, f.w.admin, p.url, other);
    await createIssue(t, f.w.admin, p.url, { ...other, state_id: done, parent_id: parent.id });
    const [member] = await t.db.select().from(users).where(eq(users.id, f.w.member.id));
    const namesNobodyElse = (body: unknown) => {
      const text = JSON.stringify(body);
      expect(text).not.toContain(f.w.member.id);
      expect(text).not.toContain(String(member?.displayName));
      expect(text).not.toContain("Hidden");
    };
    const mine = { total_issues: 1, backlog_issues: 1, completed_issues: 0 };
    const all = { total_issues: 3, backlog_issues: 2, completed_issues: 1 };
    const url = `${p.url}/modules/${m.id}/`;

    const listed = (await get(f.w.guest, `${p.url}/modules/`)).find((x: { id: string }) => x.id === m.id);
    expect(listed).toMatchObject(mine);
    const ws = (await get(f.w.guest, `/api/workspaces/${f.w.slug}/modules/`)).find(
      (x: { id: string }) => x.id === m.id,
    );
    expect(ws).toMatchObject(mine);

    const detail = await get(f.w.guest, url);
    expect(detail).toMatchObject({ ...mine, sub_issues: 0 });
    expect(detail.distribution.assignees).toEqual([expect.objectContaining({ assignee_id: null, total_issues: 1 })]);
    expect(detail.distribution.labels).toEqual([expect.objectContaining({ label_name: "Mine", total_issues: 1 })]);
    expect(detail.distribution.completion_chart[today]).toBe(1);
    expect(detail.distribution.progress.find((x: { date: string }) => x.date === today)).toMatchObject({
      scope: 1,
      pending: 1,
    });
    namesNobodyElse(detail);

    for (const user of [f.w.member, f.w.admin]) {
      const seen = await get(user, url);
      expect(seen).toMatchObject({ ...all, sub_issues: 1 });
      expect(seen.distribution.assignees.map((x: { assignee_id: string | null }) => x.assignee_id)).toContain(
        f.w.member.id,
      );
      expect(seen.distribution.completion_chart[today]).toBe(2);
      expect((await get(user, `${p.url}/modules/`)).find((x: { id: string }) => x.id === m.id)).toMatchObject(all);
    }

    // Archived (completed modules only): the archived list and detail count the guest's own too.
    expect((await client(t.app, f.w.admin).patch(url, { status: "completed" })).statusCode).toBe(200);
    expect((await client(t.app, f.w.admin).post(`${url}archive/`, {})).statusCode).toBe(200);
    const archived = (await get(f.w.guest, `${p.url}/archived-modules/`)).find((x: { id: string }) => x.id === m.id);
    expect(archived).toMatchObject(mine);
    const archivedDetail = await get(f.w.guest, `${p.url}/archived-modules/${m.id}/`);
    expect(archivedDetail).toMatchObject(mine);
    namesNobodyElse(archivedDetail);
    expect(await get(f.w.admin, `${p.url}/archived-modules/${m.id}/`)).toMatchObject(all);

    // With guest_view_all_features on, the guest counts everything too.
    await t.db.update(projects).set({ guestViewAllFeatures: true }).where(eq(projects.id, p.id));
    expect(await get(f.w.guest, `${p.url}/archived-modules/${m.id}/`)).toMatchObject(all);
  });
});
