/**
 * Live: a member with the project channel open sees a cycle's progress move when another member
 * completes a work item of the cycle (issue.updated with its cycle_id, then cycle.updated with
 * fresh counters), through a real Hocuspocus provider on project.{id}. A restricted guest's
 * channel gets cycle.* and module.* events without their counts (everyone's items).
 */
import { addDays, calendarDate } from "@tideline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../../test/harness.ts";
import { type LiveProject, startLiveProject } from "../../../test/live-project.ts";
import { eventually } from "../../live/test-support.ts";
import { createIssue, stateOf } from "../issues/test-support.ts";
import { createModule } from "../modules/test-support.ts";

let live: LiveProject;
beforeAll(async () => {
  live = await startLiveProject();
});
afterAll(() => live.close());

describe("cycle progress over the project channel", () => {
  it("another member completing a work item of the cycle moves the counters on my channel", async () => {
    const { s, f } = live;
    const today = calendarDate(new Date(), "UTC");
    const created = await client(s.app, f.w.admin).post(`${f.project.url}/cycles/`, {
      name: "Live sprint",
      start_date: addDays(today, -2),
      end_date: addDays(today, 5),
    });
    expect(created.statusCode, created.body).toBe(201);
    const cycle = created.json() as { id: string };
    const item = await createIssue(s, f.w.admin, f.project.url, { cycle_id: cycle.id });
    await createIssue(s, f.w.admin, f.project.url, { cycle_id: cycle.id });

    const channel = await live.openProjectChannel(f.w.member);

    const done = await stateOf(s, f.project.id, "completed");
    const res = await client(s.app, f.w.admin).patch(`${f.project.url}/issues/${item.id}/`, { state_id: done });
    expect(res.statusCode, res.body).toBe(200);

    const progress = await eventually(() => {
      const found = channel.messages.find(
        (m) =>
          m.event.type === "cycle.updated" && m.event.entity_id === cycle.id && m.event.data.completed_issues === 1,
      );
      if (!found) throw new Error("no cycle.updated with the new counters yet");
      return found;
    });
    expect(progress.event).toMatchObject({
      project_id: f.project.id,
      actor_id: f.w.admin.id,
      data: { id: cycle.id, total_issues: 2, completed_issues: 1, backlog_issues: 1, progress_changed: true },
    });
    // The work item's own event carries its cycle, and comes first.
    const order = channel.messages.map((m) => `${m.event.type}:${m.event.entity_id}`);
    const issueAt = order.lastIndexOf(`issue.updated:${item.id}`);
    expect(issueAt).toBeGreaterThanOrEqual(0);
    expect(channel.messages[issueAt]?.event.data).toMatchObject({ cycle_id: cycle.id, state_id: done });
    expect(order.lastIndexOf(`cycle.updated:${cycle.id}`)).toBeGreaterThan(issueAt);
    // And the chart read after it shows today's pending count down to 1.
    const chart = await client(s.app, f.w.member).get(`${f.project.url}/cycles/${cycle.id}/analytics/?type=issues`);
    expect(chart.json().completion_chart[today]).toBe(1);
  });
});

describe("a restricted guest's project channel", () => {
  it("gets cycle and module events without counters, assignee ids or snapshot; a member's has them", async () => {
    const { s, f } = live;
    const admin = client(s.app, f.w.admin);
    const guest = await live.openProjectChannel(f.w.guest);
    const member = await live.openProjectChannel(f.w.member);
    const cycle = (await admin.post(`${f.project.url}/cycles/`, { name: "Guarded" })).json() as { id: string };
    const m = await createModule(s, f.w.admin, f.project.url);
    const item = await createIssue(s, f.w.admin, f.project.url, {
      cycle_id: cycle.id,
      module_ids: [m.id],
      assignee_ids: [f.w.member.id],
    });
    expect((await admin.patch(`${f.project.url}/modules/${m.id}/`, { name: "Guarded module" })).statusCode).toBe(200);

    const last = (doc: typeof guest, type: string, id: string, ready: (data: Record<string, unknown>) => boolean) =>
      eventually(() => {
        const found = doc.messages.findLast((x) => x.event.type === type && x.event.entity_id === id);
        if (!found || !ready(found.event.data)) throw new Error(`no ${type} yet`);
        return found.event.data;
      });
    // The member: everyone's counts.
    const seenByMember = await last(member, "cycle.updated", cycle.id, (d) => d.total_issues === 1);
    expect(seenByMember).toMatchObject({ total_issues: 1, assignee_ids: [f.w.member.id] });
    expect(await last(member, "module.updated", m.id, (d) => d.name === "Guarded module")).toMatchObject({
      total_issues: 1,
    });
    // The guest: the same events, without the counts of items they may not see.
    const seenByGuest = await last(guest, "cycle.updated", cycle.id, (d) => d.progress_changed === true);
    expect(seenByGuest).toMatchObject({ id: cycle.id, name: "Guarded" });
    for (const key of [
      "total_issues",
      "backlog_issues",
      "completed_estimate_points",
      "assignee_ids",
      "progress_snapshot",
    ])
      expect(seenByGuest).not.toHaveProperty(key);
    const moduleByGuest = await last(guest, "module.updated", m.id, (d) => d.name === "Guarded module");
    expect(moduleByGuest).not.toHaveProperty("total_issues");
    expect(moduleByGuest).toHaveProperty("member_ids");
    // Nor the item itself (someone else's).
    expect(guest.messages.some((x) => x.event.entity_id === item.id)).toBe(false);
  });
});
