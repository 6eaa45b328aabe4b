import type { FilterableIssue } from "@tideline/shared";
import { describe, expect, it } from "vitest";
import { viewKeyOf, viewPath } from "../../stores/work-item-view";
import { itemsInScope, scopeDefaults, scopeFilters, scopeListPath, withScopeDefaults } from "./board-scope";

type Item = FilterableIssue & { id: string };

function item(id: string, cycle_id: string | null, module_ids: string[]): Item {
  return {
    id,
    project_id: "p1",
    priority: "none",
    state_id: null,
    state__group: null,
    assignee_ids: [],
    label_ids: [],
    created_by: null,
    start_date: null,
    target_date: null,
    cycle_id,
    module_ids,
  };
}

const today = "2026-11-25";
const items = [item("a", "c1", ["m1"]), item("b", "c2", []), item("c", null, ["m1", "m2"]), item("d", null, [])];

describe("board scope", () => {
  it("the project scope shows every item, as the same list", () => {
    expect(scopeFilters({ kind: "project" })).toEqual({});
    expect(itemsInScope(items, { kind: "project" }, today)).toBe(items);
  });

  it("a cycle scope shows the items of that cycle only", () => {
    expect(scopeFilters({ kind: "cycle", cycleId: "c1" })).toEqual({ cycle: ["c1"] });
    expect(itemsInScope(items, { kind: "cycle", cycleId: "c1" }, today).map((i) => i.id)).toEqual(["a"]);
    expect(itemsInScope(items, { kind: "cycle", cycleId: "nope" }, today)).toEqual([]);
  });

  it("a module scope shows the items whose modules include it", () => {
    expect(scopeFilters({ kind: "module", moduleId: "m1" })).toEqual({ module: ["m1"] });
    expect(itemsInScope(items, { kind: "module", moduleId: "m1" }, today).map((i) => i.id)).toEqual(["a", "c"]);
    expect(itemsInScope(items, { kind: "module", moduleId: "m2" }, today).map((i) => i.id)).toEqual(["c"]);
  });

  it("asks the scope's list call for the first page", () => {
    expect(scopeListPath({ kind: "project" })).toBe("issues/");
    expect(scopeListPath({ kind: "cycle", cycleId: "c1" })).toBe("cycles/c1/cycle-issues/");
    expect(scopeListPath({ kind: "module", moduleId: "m1" })).toBe("modules/m1/issues/");
  });

  it("new items start in the scope's cycle or module", () => {
    expect(scopeDefaults({ kind: "project" })).toEqual({});
    expect(scopeDefaults({ kind: "cycle", cycleId: "c1" })).toEqual({ cycle_id: "c1" });
    expect(scopeDefaults({ kind: "module", moduleId: "m1" })).toEqual({ module_ids: ["m1"] });
  });

  it("a group's prefill goes over the scope's defaults; modules add up", () => {
    const cycle = scopeDefaults({ kind: "cycle", cycleId: "c1" });
    expect(withScopeDefaults(cycle, { state_id: "s1" })).toEqual({ cycle_id: "c1", state_id: "s1" });
    expect(withScopeDefaults(cycle, undefined)).toEqual({ cycle_id: "c1" });
    expect(withScopeDefaults(cycle, { cycle_id: "c2" })).toEqual({ cycle_id: "c2" });
    const module = scopeDefaults({ kind: "module", moduleId: "m1" });
    expect(withScopeDefaults(module, { module_ids: ["m2", "m1"] })).toEqual({ module_ids: ["m1", "m2"] });
    expect(withScopeDefaults(module, { priority: "high" as const })).toEqual({ module_ids: ["m1"], priority: "high" });
    expect(withScopeDefaults({}, { priority: "low" as const })).toEqual({ priority: "low" });
  });
});

describe("view settings key", () => {
  it("keys each board's settings and maps the key to its user-properties call", () => {
    expect(viewKeyOf("p1", { kind: "project" })).toBe("p1");
    expect(viewKeyOf("p1", { kind: "cycle", cycleId: "c1" })).toBe("p1/cycles/c1");
    expect(viewKeyOf("p1", { kind: "module", moduleId: "m1" })).toBe("p1/modules/m1");
    expect(viewPath("acme", "p1")).toBe("/api/workspaces/acme/projects/p1/user-properties/");
    expect(viewPath("acme", viewKeyOf("p1", { kind: "cycle", cycleId: "c1" }))).toBe(
      "/api/workspaces/acme/projects/p1/cycles/c1/user-properties/",
    );
    expect(viewPath("acme", viewKeyOf("p1", { kind: "module", moduleId: "m1" }))).toBe(
      "/api/workspaces/acme/projects/p1/modules/m1/user-properties/",
    );
  });
});

describe("a saved view's board", () => {
  it("has no implicit filter (the view's filters are the board's own), reads the project list and has its own key", () => {
    const scope = { kind: "view", viewId: "v1" } as const;
    expect(scopeFilters(scope)).toEqual({});
    expect(itemsInScope(items, scope, today)).toBe(items);
    expect(scopeListPath(scope)).toBe("issues/");
    expect(scopeDefaults(scope)).toEqual({});
    expect(viewKeyOf("p1", scope)).toBe("p1/views/v1");
  });
});
