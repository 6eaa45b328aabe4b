import type { DomainEvent } from "@tideline/shared";
import { beforeEach, describe, expect, it } from "vitest";
import { session } from "./session";
import { applyViewEvent, type SavedView, sortViews, views } from "./views";

function view(id: string, name: string, extra: Partial<SavedView> = {}): SavedView {
  return {
    id,
    workspace_id: "w1",
    project_id: "p1",
    name,
    description: "",
    filters: {},
    display_filters: {},
    display_properties: {},
    access: 1,
    is_locked: false,
    anchor: null,
    owned_by: "owner",
    logo_props: {},
    sort_order: 65535,
    archived_at: null,
    created_at: "2026-11-25T08:00:00.000Z",
    updated_at: "2026-11-25T08:00:00.000Z",
    created_by: "owner",
    updated_by: "owner",
    ...extra,
  };
}

function event(type: DomainEvent["type"], id: string, data: Record<string, unknown>): DomainEvent {
  return {
    id: `e-${Math.random()}`,
    type,
    workspace_id: "w1",
    project_id: "p1",
    entity_id: id,
    actor_id: "owner",
    client_mutation_id: null,
    occurred_at: "2026-11-25T08:00:00.000Z",
    data,
  };
}

describe("the views list kept by view.* events", () => {
  beforeEach(() => {
    views.byProject.p1 = { status: "ready", list: [view("a", "Alpha", { is_favorite: true }), view("b", "Beta")] };
    views.byId = {};
    session.user = { id: "me" } as typeof session.user;
  });

  it("orders favorites first, then by name", () => {
    const list = sortViews([view("z", "zeta"), view("y", "Alpha"), view("x", "beta", { is_favorite: true })]);
    expect(list.map((v) => v.id)).toEqual(["x", "y", "z"]);
  });

  it("an update replaces the view and keeps the caller's star (events leave it out)", () => {
    applyViewEvent("acme", event("view.updated", "a", { ...view("a", "Alpha renamed") }));
    const a = views.byProject.p1?.list.find((v) => v.id === "a");
    expect(a?.name).toBe("Alpha renamed");
    expect(a?.is_favorite).toBe(true);
  });

  it("a created view joins the list in its place; a deleted one leaves it", () => {
    applyViewEvent("acme", event("view.created", "c", { ...view("c", "Apple") }));
    expect(views.byProject.p1?.list.map((v) => v.id)).toEqual(["a", "c", "b"]);
    applyViewEvent("acme", event("view.deleted", "b", { ...view("b", "Beta") }));
    expect(views.byProject.p1?.list.map((v) => v.id)).toEqual(["a", "c"]);
  });

  it("a view made private by someone else (a redacted event) leaves the list", () => {
    applyViewEvent(
      "acme",
      event("view.updated", "b", { id: "b", workspace_id: "w1", project_id: "p1", access: 0, owned_by: "owner" }),
    );
    expect(views.byProject.p1?.list.map((v) => v.id)).toEqual(["a"]);
  });

  it("an archived view leaves the list", () => {
    applyViewEvent(
      "acme",
      event("view.updated", "a", { ...view("a", "Alpha", { archived_at: "2026-11-25T09:00:00Z" }) }),
    );
    expect(views.byProject.p1?.list.map((v) => v.id)).toEqual(["b"]);
  });

  it("ignores other events", () => {
    expect(applyViewEvent("acme", event("issue.updated", "a", {}))).toBe(false);
  });
});
