import { describe, expect, it } from "vitest";
import { childCountersByParent, countersFromDistribution, epicCompletion, epicPath, epicsPath } from "./epic-logic";

describe("epic paths", () => {
  it("puts the list and the epic under the project", () => {
    expect(epicsPath("acme", "p1")).toBe("/acme/projects/p1/epics/");
    expect(epicPath("acme", "p1", "e9")).toBe("/acme/projects/p1/epics/e9/");
  });
});

describe("countersFromDistribution", () => {
  it("counts children per state group, with the total", () => {
    const counters = countersFromDistribution({
      backlog: ["a"],
      unstarted: [],
      started: ["b", "c"],
      completed: ["d"],
      cancelled: ["e"],
    });
    expect(counters).toMatchObject({
      total_issues: 5,
      backlog_issues: 1,
      unstarted_issues: 0,
      started_issues: 2,
      completed_issues: 1,
      cancelled_issues: 1,
      total_estimate_points: 0,
    });
  });

  it("reads missing groups as empty", () => {
    expect(countersFromDistribution({ completed: ["x"] })).toMatchObject({ total_issues: 1, completed_issues: 1 });
    expect(countersFromDistribution({}).total_issues).toBe(0);
  });
});

describe("epicCompletion", () => {
  it("is done over the children that count (cancelled left out)", () => {
    const counters = countersFromDistribution({ started: ["a"], completed: ["b"], cancelled: ["c"] });
    expect(epicCompletion(counters)).toEqual({ done: 1, total: 2, percent: 50 });
  });

  it("is 0% without children, or with only cancelled ones", () => {
    expect(epicCompletion(countersFromDistribution({}))).toEqual({ done: 0, total: 0, percent: 0 });
    expect(epicCompletion(countersFromDistribution({ cancelled: ["a"] }))).toEqual({ done: 0, total: 0, percent: 0 });
  });

  it("rounds the percentage", () => {
    const counters = countersFromDistribution({ started: ["a", "b"], completed: ["c"] });
    expect(epicCompletion(counters).percent).toBe(33);
  });
});

describe("childCountersByParent", () => {
  const child = (parent_id: string | null, state__group: string | null, extra: Record<string, unknown> = {}) => ({
    parent_id,
    state__group,
    estimate_point: "5",
    archived_at: null,
    is_draft: false,
    ...extra,
  });

  it("counts each parent's children by state group in one pass, points left at 0", () => {
    const counts = childCountersByParent([
      child("e1", "completed"),
      child("e1", "started"),
      child("e1", "cancelled"),
      child("e2", "backlog"),
      child(null, "completed"),
    ]);
    expect([...counts.keys()].sort()).toEqual(["e1", "e2"]);
    expect(counts.get("e1")).toMatchObject({
      total_issues: 3,
      completed_issues: 1,
      started_issues: 1,
      cancelled_issues: 1,
      total_estimate_points: 0,
    });
    expect(epicCompletion(counts.get("e1") ?? countersFromDistribution({}))).toEqual({
      done: 1,
      total: 2,
      percent: 50,
    });
    expect(counts.get("e2")).toMatchObject({ total_issues: 1, backlog_issues: 1 });
  });

  it("leaves out archived children and drafts; a parent with none left has no entry", () => {
    const counts = childCountersByParent([
      child("e1", "completed", { archived_at: "2026-11-01T00:00:00Z" }),
      child("e1", "started", { is_draft: true }),
      child("e2", "started"),
    ]);
    expect(counts.has("e1")).toBe(false);
    expect(counts.get("e2")?.started_issues).toBe(1);
  });

  it("reads a child without a known state group as backlog, as the cycles' count does", () => {
    expect(childCountersByParent([child("e1", null), child("e1", "odd")]).get("e1")).toMatchObject({
      total_issues: 2,
      backlog_issues: 2,
    });
  });
});
