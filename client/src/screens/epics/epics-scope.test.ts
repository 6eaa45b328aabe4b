/** The epics board's scope (board-scope.ts) and where its view settings live (work-item-view.ts). */
import type { FilterableIssue } from "@tideline/shared";
import { describe, expect, it } from "vitest";
import { viewKeyOf, viewPath } from "../../stores/work-item-view";
import { itemsInScope, scopeDefaults, scopeListPath, withScopeDefaults } from "../work-items/board-scope";

type Item = FilterableIssue & { id: string; is_epic: boolean };

function item(id: string, is_epic: boolean, cycle_id: string | null = null): Item {
  return {
    id,
    is_epic,
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
    module_ids: [],
  };
}

const today = "2026-11-25";

describe("the epics scope", () => {
  const items = [item("w1", false, "c1"), item("e1", true), item("w2", false), item("e2", true, "c1")];

  it("shows only epics; every other board leaves them out", () => {
    expect(itemsInScope(items, { kind: "epics" }, today).map((i) => i.id)).toEqual(["e1", "e2"]);
    expect(itemsInScope(items, { kind: "project" }, today).map((i) => i.id)).toEqual(["w1", "w2"]);
    expect(itemsInScope(items, { kind: "cycle", cycleId: "c1" }, today).map((i) => i.id)).toEqual(["w1"]);
  });

  it("keeps the project's list itself (no copy) when it holds no epics", () => {
    const workOnly = [item("w1", false), item("w2", false)];
    expect(itemsInScope(workOnly, { kind: "project" }, today)).toBe(workOnly);
  });

  it("paints first from epics/ and creates epics", () => {
    expect(scopeListPath({ kind: "epics" })).toBe("epics/");
    expect(scopeDefaults({ kind: "epics" })).toEqual({ is_epic: true });
    expect(withScopeDefaults(scopeDefaults({ kind: "epics" }), { name: "Checkout" })).toEqual({
      is_epic: true,
      name: "Checkout",
    });
  });

  it("saves its settings at epics-user-properties/, apart from the project board's", () => {
    const key = viewKeyOf("p1", { kind: "epics" });
    expect(key).not.toBe(viewKeyOf("p1", { kind: "project" }));
    expect(viewPath("acme", key)).toBe("/api/workspaces/acme/projects/p1/epics-user-properties/");
    expect(viewPath("acme", viewKeyOf("p1", { kind: "project" }))).toBe(
      "/api/workspaces/acme/projects/p1/user-properties/",
    );
  });
});
