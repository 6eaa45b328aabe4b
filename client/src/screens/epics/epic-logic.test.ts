import { describe, expect, it } from "vitest";
import { countersFromDistribution, epicCompletion, epicPath, epicsPath } from "./epic-logic";

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
