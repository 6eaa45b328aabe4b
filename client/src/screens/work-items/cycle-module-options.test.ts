import { describe, expect, it } from "vitest";
import { cyclePickerEntries, moduleChip, type PickerCycle, toggleId } from "./cycle-module-options";

const today = "2026-11-25";
const cycle = (
  id: string,
  name: string,
  status: PickerCycle["status"],
  extra: Partial<PickerCycle> = {},
): PickerCycle => {
  const dates: Record<PickerCycle["status"], [string | null, string | null]> = {
    current: ["2026-11-20", "2026-12-03"],
    upcoming: ["2026-12-10", "2026-12-20"],
    completed: ["2026-11-01", "2026-11-10"],
    draft: [null, null],
  };
  const [start_date, end_date] = dates[status];
  return { id, name, status, start_date, end_date, archived_at: null, ...extra };
};

describe("cyclePickerEntries (which cycles the picker offers, in what order)", () => {
  const list = [
    cycle("d2", "zeta draft", "draft"),
    cycle("c1", "Done sprint", "completed"),
    cycle("u2", "Later", "upcoming", { start_date: "2027-01-05", end_date: "2027-01-10" }),
    cycle("d1", "Alpha draft", "draft"),
    cycle("n1", "Now", "current"),
    cycle("u1", "Next", "upcoming"),
    cycle("a1", "Old archived", "completed", { archived_at: "2026-11-11T00:00:00Z" }),
  ];

  it("current, then upcoming by start date, then drafts by name; no completed or archived ones", () => {
    const entries = cyclePickerEntries(list, null, today);
    expect(entries.map((e) => e.cycle.id)).toEqual(["n1", "u1", "u2", "d1", "d2"]);
    expect(entries.every((e) => e.pickable)).toBe(true);
  });

  it("the item's own completed cycle is listed last, not pickable", () => {
    const entries = cyclePickerEntries(list, "c1", today);
    expect(entries.map((e) => [e.cycle.id, e.pickable])).toEqual([
      ["n1", true],
      ["u1", true],
      ["u2", true],
      ["d1", true],
      ["d2", true],
      ["c1", false],
    ]);
  });

  it("an own cycle that is offered anyway is not repeated; an unknown one adds nothing", () => {
    expect(cyclePickerEntries(list, "u1", today).filter((e) => e.cycle.id === "u1")).toHaveLength(1);
    expect(cyclePickerEntries(list, "missing", today)).toHaveLength(5);
  });

  it("an empty project offers nothing", () => {
    expect(cyclePickerEntries([], null, today)).toEqual([]);
    expect(cyclePickerEntries([cycle("c1", "Done", "completed")], null, today)).toEqual([]);
  });
});

describe("moduleChip (a row's modules chip text)", () => {
  const names: Record<string, string> = { m1: "Onboarding", m2: "Billing", m3: "Search" };
  const nameOf = (id: string) => names[id];
  const count = (n: number) => `${n} modules`;

  it("no module: no text", () => {
    expect(moduleChip([], nameOf, count)).toEqual({ text: null, title: "" });
  });

  it("one module: its name", () => {
    expect(moduleChip(["m2"], nameOf, count)).toEqual({ text: "Billing", title: "Billing" });
  });

  it("several: a count, the tooltip lists them in the item's order", () => {
    expect(moduleChip(["m3", "m1", "m2"], nameOf, count)).toEqual({
      text: "3 modules",
      title: "Search, Onboarding, Billing",
    });
  });

  it("unknown (archived or deleted) modules don't count", () => {
    expect(moduleChip(["gone", "m1"], nameOf, count)).toEqual({ text: "Onboarding", title: "Onboarding" });
    expect(moduleChip(["gone"], nameOf, count).text).toBeNull();
  });
});

describe("toggleId", () => {
  it("adds at the end and removes in place", () => {
    expect(toggleId(["a", "b"], "c")).toEqual(["a", "b", "c"]);
    expect(toggleId(["a", "b", "c"], "b")).toEqual(["a", "c"]);
  });
});
