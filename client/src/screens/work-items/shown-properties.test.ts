import { DEFAULT_DISPLAY_PROPERTIES, type DisplayProperties } from "@tideline/shared";
import { describe, expect, it } from "vitest";
import { moduleIdsShown, type ShownContext, scopeHidesProperty, shownProperties } from "./shown-properties";

const known: ShownContext = {
  hasState: (id) => id.startsWith("state"),
  hasLabel: (id) => id.startsWith("label"),
  hasPoint: (id) => id.startsWith("point"),
};

const empty = {
  state_id: "state-1",
  priority: "none" as const,
  assignee_ids: [] as string[],
  label_ids: [] as string[],
  start_date: null,
  target_date: null,
  estimate_point: null,
  sub_issues_count: 0,
  attachment_count: 0,
  link_count: 0,
  created_at: "2026-11-20T09:00:00.000Z",
  updated_at: "2026-11-20T17:00:00.000Z",
  cycle_id: null as string | null,
  module_ids: [] as string[],
};

const all: DisplayProperties = { ...DEFAULT_DISPLAY_PROPERTIES };

describe("shownProperties (what a kanban card or list row shows)", () => {
  it("an item with nothing set shows its state and one date, no empty placeholders", () => {
    expect(shownProperties(empty, all, known)).toEqual(["state", "created_on"]);
  });

  it("shows what has a value, in the order of the display properties", () => {
    const full = {
      ...empty,
      priority: "high" as const,
      assignee_ids: ["u1"],
      label_ids: ["label-1"],
      start_date: "2026-11-21",
      target_date: "2026-11-30",
      estimate_point: "point-3",
      sub_issues_count: 2,
      attachment_count: 1,
      link_count: 3,
      updated_at: "2026-11-24T08:00:00.000Z",
    };
    expect(shownProperties(full, all, known)).toEqual([
      "assignee",
      "start_date",
      "due_date",
      "labels",
      "priority",
      "state",
      "sub_issue_count",
      "attachment_count",
      "link",
      "estimate",
      "created_on",
      "updated_on",
    ]);
  });

  it("never shows the same date twice: updated only on another day than created", () => {
    expect(shownProperties(empty, all, known).filter((p) => p.endsWith("_on"))).toEqual(["created_on"]);
    const later = { ...empty, updated_at: "2026-11-22T00:00:01.000Z" };
    expect(shownProperties(later, all, known).filter((p) => p.endsWith("_on"))).toEqual(["created_on", "updated_on"]);
    // With the created date hidden, the updated one shows whatever its day.
    expect(shownProperties(empty, { ...all, created_on: false }, known).filter((p) => p.endsWith("_on"))).toEqual([
      "updated_on",
    ]);
  });

  it("start and due dates at most once each, and only when set", () => {
    const dated = { ...empty, start_date: "2026-11-21", target_date: "2026-11-21" };
    const shown = shownProperties(dated, all, known);
    expect(shown.filter((p) => p === "start_date")).toHaveLength(1);
    expect(shown.filter((p) => p === "due_date")).toHaveLength(1);
    expect(shownProperties({ ...empty, target_date: "2026-11-21" }, all, known)).toEqual([
      "due_date",
      "state",
      "created_on",
    ]);
  });

  it("leaves out properties switched off, unknown labels/points, and estimates when the project has none", () => {
    const item = { ...empty, priority: "urgent" as const, label_ids: ["gone"], estimate_point: "point-1" };
    expect(shownProperties(item, { ...all, state: false, created_on: false, updated_on: false }, known)).toEqual([
      "priority",
      "estimate",
    ]);
    expect(
      shownProperties(
        item,
        { ...all, state: false, created_on: false, updated_on: false },
        { ...known, hasPoint: undefined },
      ),
    ).toEqual(["priority"]);
    // key is shown above the name; issue_type has no value yet.
    expect(shownProperties(empty, all, known)).not.toContain("key");
  });
});

describe("shownProperties: cycle and modules chips", () => {
  const withFeatures: ShownContext = {
    ...known,
    hasCycle: (id) => id.startsWith("cycle"),
    hasModule: (id) => id.startsWith("module"),
  };
  const planned = { ...empty, cycle_id: "cycle-1", module_ids: ["module-1", "module-2"] };

  it("shows modules then cycle, after the other properties and before the dates of record", () => {
    expect(shownProperties(planned, all, withFeatures)).toEqual(["state", "modules", "cycle", "created_on"]);
  });

  it("nothing for an item in no cycle and no module (no empty chips)", () => {
    expect(shownProperties(empty, all, withFeatures)).toEqual(["state", "created_on"]);
  });

  it("leaves them out when the project has the feature off or the property is hidden", () => {
    expect(shownProperties(planned, all, known)).toEqual(["state", "created_on"]);
    expect(shownProperties(planned, all, { ...withFeatures, hasCycle: undefined })).toEqual([
      "state",
      "modules",
      "created_on",
    ]);
    expect(shownProperties(planned, { ...all, modules: false, cycle: false }, withFeatures)).toEqual([
      "state",
      "created_on",
    ]);
  });

  it("leaves out a cycle or modules the project doesn't list (archived or deleted)", () => {
    const gone = { ...empty, cycle_id: "old", module_ids: ["gone", "also-gone"] };
    expect(shownProperties(gone, all, withFeatures)).toEqual(["state", "created_on"]);
    // One known module is enough for the chip.
    expect(shownProperties({ ...gone, module_ids: ["gone", "module-3"] }, all, withFeatures)).toContain("modules");
  });

  it("a cycle's board hides the cycle chip (every item is in that cycle); other boards keep it", () => {
    const cycleBoard = { ...withFeatures, scope: { kind: "cycle" as const, cycleId: "cycle-1" } };
    expect(shownProperties(planned, all, cycleBoard)).toEqual(["state", "modules", "created_on"]);
    expect(shownProperties(planned, all, { ...withFeatures, scope: { kind: "project" } })).toContain("cycle");
    expect(scopeHidesProperty(cycleBoard.scope, "cycle")).toBe(true);
    expect(scopeHidesProperty(cycleBoard.scope, "modules")).toBe(false);
    expect(scopeHidesProperty({ kind: "module", moduleId: "module-1" }, "cycle")).toBe(false);
    expect(scopeHidesProperty(undefined, "cycle")).toBe(false);
  });

  it("a module's board shows the modules chip only for the item's other modules", () => {
    const moduleBoard = { ...withFeatures, scope: { kind: "module" as const, moduleId: "module-1" } };
    expect(shownProperties(planned, all, moduleBoard)).toEqual(["state", "modules", "cycle", "created_on"]);
    const onlyHere = { ...planned, module_ids: ["module-1"] };
    expect(shownProperties(onlyHere, all, moduleBoard)).toEqual(["state", "cycle", "created_on"]);
    expect(moduleIdsShown(["module-1", "module-2"], moduleBoard.scope)).toEqual(["module-2"]);
    expect(moduleIdsShown(["module-1"], moduleBoard.scope)).toEqual([]);
    expect(moduleIdsShown(["module-1", "module-2"], { kind: "cycle", cycleId: "c" })).toEqual(["module-1", "module-2"]);
  });
});
