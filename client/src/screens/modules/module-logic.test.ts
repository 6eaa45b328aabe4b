import { describe, expect, it } from "vitest";
import type { Module } from "../../stores/modules";
import {
  canArchive,
  DEFAULT_MODULE_PREFS,
  EMPTY_MODULE_FILTERS,
  filterModules,
  groupByStatus,
  normalizePrefs,
  sortModules,
} from "./module-logic";

const mod = (over: Partial<Module>): Module =>
  ({
    id: over.name ?? "m",
    name: "m",
    status: "planned",
    lead_id: null,
    member_ids: [],
    total_issues: 0,
    completed_issues: 0,
    target_date: null,
    created_at: "2026-01-01T00:00:00.000Z",
    sort_order: 0,
    is_favorite: false,
    ...over,
  }) as Module;

const names = (list: Module[]) => list.map((m) => m.name);

describe("sortModules (product-domain §9 orders)", () => {
  const list = [
    mod({
      name: "beta",
      total_issues: 4,
      completed_issues: 1,
      target_date: "2026-03-01",
      created_at: "2026-01-02",
      sort_order: 3,
    }),
    mod({
      name: "Alpha",
      total_issues: 2,
      completed_issues: 2,
      target_date: null,
      created_at: "2026-01-03",
      sort_order: 1,
    }),
    mod({
      name: "gamma",
      total_issues: 10,
      completed_issues: 5,
      target_date: "2026-02-01",
      created_at: "2026-01-01",
      sort_order: 2,
    }),
  ];
  it("name and -name, case-insensitive", () => {
    expect(names(sortModules(list, "name"))).toEqual(["Alpha", "beta", "gamma"]);
    expect(names(sortModules(list, "-name"))).toEqual(["gamma", "beta", "Alpha"]);
  });
  it("progress is completed over total", () => {
    expect(names(sortModules(list, "progress"))).toEqual(["beta", "gamma", "Alpha"]);
    expect(names(sortModules(list, "-progress"))).toEqual(["Alpha", "gamma", "beta"]);
  });
  it("issues_length by total items", () => {
    expect(names(sortModules(list, "issues_length"))).toEqual(["Alpha", "beta", "gamma"]);
    expect(names(sortModules(list, "-issues_length"))).toEqual(["gamma", "beta", "Alpha"]);
  });
  it("target_date keeps undated modules last both ways", () => {
    expect(names(sortModules(list, "target_date"))).toEqual(["gamma", "beta", "Alpha"]);
    expect(names(sortModules(list, "-target_date"))).toEqual(["beta", "gamma", "Alpha"]);
  });
  it("created_at and sort_order", () => {
    expect(names(sortModules(list, "created_at"))).toEqual(["gamma", "beta", "Alpha"]);
    expect(names(sortModules(list, "-created_at"))).toEqual(["Alpha", "beta", "gamma"]);
    expect(names(sortModules(list, "sort_order"))).toEqual(["Alpha", "gamma", "beta"]);
  });
  it("ties fall back to the name", () => {
    const tied = [mod({ name: "b" }), mod({ name: "a" })];
    expect(names(sortModules(tied, "issues_length"))).toEqual(["a", "b"]);
  });
});

describe("filterModules", () => {
  const list = [
    mod({ name: "One", status: "backlog", lead_id: "u1", member_ids: ["u2"], is_favorite: true }),
    mod({ name: "Two", status: "completed", lead_id: "u2", member_ids: ["u1", "u3"] }),
    mod({ name: "Three", status: "completed" }),
  ];
  it("search by name", () => {
    expect(names(filterModules(list, EMPTY_MODULE_FILTERS, "t"))).toEqual(["Two", "Three"]);
  });
  it("status, lead, members and favorites combine", () => {
    expect(names(filterModules(list, { ...EMPTY_MODULE_FILTERS, status: ["completed"] }, ""))).toEqual([
      "Two",
      "Three",
    ]);
    expect(names(filterModules(list, { ...EMPTY_MODULE_FILTERS, lead: ["u1"] }, ""))).toEqual(["One"]);
    expect(names(filterModules(list, { ...EMPTY_MODULE_FILTERS, members: ["u3", "u2"] }, ""))).toEqual(["One", "Two"]);
    expect(names(filterModules(list, { ...EMPTY_MODULE_FILTERS, favorites: true }, ""))).toEqual(["One"]);
    expect(names(filterModules(list, { ...EMPTY_MODULE_FILTERS, status: ["completed"], lead: ["u2"] }, ""))).toEqual([
      "Two",
    ]);
  });
});

describe("prefs", () => {
  it("defaults: list, by name, favorites off", () => {
    expect(normalizePrefs(undefined)).toEqual(DEFAULT_MODULE_PREFS);
    expect(DEFAULT_MODULE_PREFS.layout).toBe("list");
    expect(DEFAULT_MODULE_PREFS.order_by).toBe("name");
    expect(DEFAULT_MODULE_PREFS.filters.favorites).toBe(false);
  });
  it("keeps valid values and drops unknown ones", () => {
    expect(
      normalizePrefs({
        layout: "gantt",
        order_by: "-progress",
        filters: { status: ["paused", "nope"], favorites: true },
      }),
    ).toEqual({
      layout: "gantt",
      order_by: "-progress",
      filters: { status: ["paused"], lead: [], members: [], favorites: true },
    });
    expect(normalizePrefs({ layout: "calendar", order_by: "priority" })).toEqual(DEFAULT_MODULE_PREFS);
  });
});

describe("board and archive rules", () => {
  it("groups by status in the given order", () => {
    const groups = groupByStatus(
      [mod({ name: "a", status: "paused" }), mod({ name: "b", status: "backlog" })],
      ["backlog", "paused"],
    );
    expect([...groups.keys()]).toEqual(["backlog", "paused"]);
    expect(names(groups.get("paused") ?? [])).toEqual(["a"]);
  });
  it("only completed and cancelled modules can be archived", () => {
    expect(canArchive({ status: "completed" })).toBe(true);
    expect(canArchive({ status: "cancelled" })).toBe(true);
    expect(canArchive({ status: "in-progress" })).toBe(false);
  });
});
