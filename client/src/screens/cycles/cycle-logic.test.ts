import { EMPTY_PROGRESS_COUNTERS, ROLE } from "@tideline/shared";
import { describe, expect, it } from "vitest";
import {
  type CycleFacts,
  chartToday,
  compareByStatus,
  countersByCycle,
  countsLocally,
  cycleActions,
  cycleWhen,
  dateRangeProblem,
  filterCycles,
  isCycleTab,
  pendingOf,
  pickCounters,
  seesWholeProject,
  tabCounts,
  transferTargets,
  unfinishedOf,
} from "./cycle-logic";

const c = (id: string, name: string, status: CycleFacts["status"], start: string | null = null): CycleFacts => ({
  id,
  name,
  status,
  start_date: start,
  end_date: start,
});

const list = [
  c("1", "Zeta done", "completed", "2026-01-01"),
  c("2", "Beta later", "upcoming", "2026-12-10"),
  c("3", "Alpha draft", "draft"),
  c("4", "Now", "current", "2026-11-20"),
  c("5", "Alpha soon", "upcoming", "2026-12-01"),
  c("6", "Alpha done", "completed", "2026-02-01"),
];

describe("tabs, search and order", () => {
  it("orders current, upcoming by start, draft, completed by name", () => {
    expect([...list].sort(compareByStatus).map((x) => x.id)).toEqual(["4", "5", "2", "3", "6", "1"]);
  });

  it("filters by tab (drafts only under All) and by every word of the search", () => {
    expect(filterCycles(list, "active", "").map((x) => x.id)).toEqual(["4"]);
    expect(filterCycles(list, "upcoming", "").map((x) => x.id)).toEqual(["5", "2"]);
    expect(filterCycles(list, "completed", "").map((x) => x.id)).toEqual(["6", "1"]);
    expect(filterCycles(list, "all", "alpha").map((x) => x.id)).toEqual(["5", "3", "6"]);
    expect(filterCycles(list, "all", "ALPHA do").map((x) => x.id)).toEqual(["6"]);
    expect(tabCounts(list)).toEqual({ active: 1, upcoming: 2, completed: 2, all: 6 });
  });

  it("knows its tab names", () => {
    expect(isCycleTab("completed")).toBe(true);
    expect(isCycleTab("draft")).toBe(false);
    expect(isCycleTab(null)).toBe(false);
  });

  it("offers transfer targets that are not completed, nor the source", () => {
    expect(transferTargets(list, "4", "").map((x) => x.id)).toEqual(["5", "2", "3"]);
    expect(transferTargets(list, "6", "now").map((x) => x.id)).toEqual(["4"]);
  });
});

describe("which counters", () => {
  const base = { cacheReady: true, status: "current" as const, projectRole: ROLE.member, guestViewAll: false };
  it("counts locally when the cache holds the whole project and the cycle is not completed", () => {
    expect(countsLocally(base)).toBe(true);
    expect(countsLocally({ ...base, cacheReady: false })).toBe(false);
    expect(countsLocally({ ...base, status: "completed" })).toBe(false);
    // A guest limited to their own items holds only those, and the server counts only those too.
    expect(countsLocally({ ...base, status: "upcoming" })).toBe(true);
  });

  it("still sees a completed cycle's current items in a whole-project cache (what a transfer moves)", () => {
    expect(seesWholeProject({ cacheReady: true, projectRole: ROLE.member, guestViewAll: false })).toBe(true);
    expect(seesWholeProject({ cacheReady: true, projectRole: ROLE.guest, guestViewAll: false })).toBe(false);
    expect(seesWholeProject({ cacheReady: false, projectRole: ROLE.admin, guestViewAll: true })).toBe(false);
  });

  it("counts every cycle's items in one pass (archived and drafts left out)", () => {
    const items = [
      { cycle_id: "c1", state__group: "completed", estimate_point: "p3", archived_at: null, is_draft: false },
      { cycle_id: "c1", state__group: "started", estimate_point: null, archived_at: null, is_draft: false },
      { cycle_id: "c2", state__group: "started", estimate_point: null, archived_at: null, is_draft: false },
      { cycle_id: "c1", state__group: "started", estimate_point: null, archived_at: "2026-01-01", is_draft: false },
      { cycle_id: null, state__group: "started", estimate_point: null, archived_at: null, is_draft: false },
    ];
    const map = countersByCycle(items, (id) => (id === "p3" ? 3 : 0));
    const local = map.get("c1");
    expect(local).toMatchObject({ total_issues: 2, completed_issues: 1, started_issues: 1, total_estimate_points: 3 });
    expect(map.get("c2")).toMatchObject({ total_issues: 1, started_issues: 1 });
    expect([...map.keys()].sort()).toEqual(["c1", "c2"]);
    if (!local) throw new Error("c1 counted");
    expect(pendingOf(local, "issues")).toBe(1);
    expect(pendingOf(local, "points")).toBe(0);
    expect(unfinishedOf(local)).toBe(1);
    const server = { ...EMPTY_PROGRESS_COUNTERS, id: "c1", total_issues: 9, completed_issues: 4 };
    expect(pickCounters(server)).toEqual({ ...EMPTY_PROGRESS_COUNTERS, total_issues: 9, completed_issues: 4 });
  });
});

describe("chartToday", () => {
  it("is the last measured day of a current cycle's chart", () => {
    const chart = { "2026-11-01": 3, "2026-11-02": 2, "2026-11-03": null };
    expect(chartToday(chart, "current")).toBe("2026-11-02");
    expect(chartToday(chart, "completed")).toBeUndefined();
    expect(chartToday({ "2026-11-01": null }, "current")).toBeUndefined();
  });
});

describe("cycleActions", () => {
  const facts = { ...c("1", "A", "current", "2026-11-01"), created_by: "u1", archived_at: null };
  it("offers edit but not archive for a cycle in progress (with the reason)", () => {
    const a = cycleActions(facts, { projectRole: ROLE.member, userId: "u1", unfinished: 2 });
    expect(a).toMatchObject({
      edit: true,
      archive: false,
      archiveReason: "notCompleted",
      transfer: false,
      delete: true,
    });
  });
  it("offers archive and transfer, not edit, for a completed one; delete to admins or the creator", () => {
    const done = { ...facts, status: "completed" as const };
    expect(cycleActions(done, { projectRole: ROLE.member, userId: "u2", unfinished: 2 })).toMatchObject({
      edit: false,
      archive: true,
      archiveReason: null,
      transfer: true,
      delete: false,
    });
    expect(cycleActions(done, { projectRole: ROLE.member, userId: "u2", unfinished: 0 }).transfer).toBe(false);
    expect(cycleActions(done, { projectRole: ROLE.admin, userId: "u2", unfinished: 0 }).delete).toBe(true);
  });
  it("offers nothing that changes to guests", () => {
    const a = cycleActions(facts, { projectRole: ROLE.guest, userId: "u1", unfinished: 2 });
    expect(a).toMatchObject({
      edit: false,
      archive: false,
      archiveReason: null,
      transfer: false,
      delete: false,
      favorite: false,
    });
  });
});

describe("dateRangeProblem", () => {
  it("wants both dates or none, the end on or after the start", () => {
    expect(dateRangeProblem(null, null)).toBeNull();
    expect(dateRangeProblem("2026-11-01", "2026-11-01")).toBeNull();
    expect(dateRangeProblem("2026-11-01", null)).toBe("incomplete");
    expect(dateRangeProblem("2026-11-02", "2026-11-01")).toBe("endBeforeStart");
  });
});

describe("cycleWhen", () => {
  const today = "2026-11-25";
  it("counts the days to an upcoming cycle's start", () => {
    expect(cycleWhen({ status: "upcoming", start_date: "2026-11-30" }, today)).toEqual({ key: "startsIn", count: 5 });
    expect(cycleWhen({ status: "upcoming", start_date: "2026-12-25" }, today)).toEqual({ key: "startsIn", count: 30 });
  });
  it("says tomorrow for a start one day away, across a month end", () => {
    expect(cycleWhen({ status: "upcoming", start_date: "2026-11-26" }, today)).toEqual({ key: "startsTomorrow" });
    expect(cycleWhen({ status: "upcoming", start_date: "2026-12-01" }, "2026-11-30")).toEqual({
      key: "startsTomorrow",
    });
  });
  it("says today when the day has turned since the list came", () => {
    expect(cycleWhen({ status: "upcoming", start_date: today }, today)).toEqual({ key: "startsToday" });
  });
  it("says No dates for a draft", () => {
    expect(cycleWhen({ status: "draft", start_date: null }, today)).toEqual({ key: "noDates" });
  });
  it("says nothing for current and completed cycles", () => {
    expect(cycleWhen({ status: "current", start_date: "2026-11-20" }, today)).toBeNull();
    expect(cycleWhen({ status: "completed", start_date: "2026-10-01" }, today)).toBeNull();
  });
});
