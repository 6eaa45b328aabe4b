import type { DomainEvent } from "@tideline/shared";
import { beforeEach, describe, expect, it } from "vitest";
import { session } from "./session";
import type { WorkItem } from "./work-items";
import {
  applyWorkspaceViewEvent,
  builtInFilters,
  isBuiltInView,
  type WorkspaceView,
  workspaceViews,
} from "./workspace-views";

const ME = "11111111-1111-4111-8111-111111111111";

function _item(id: string, updated = "2026-11-25T08:00:00.000Z"): WorkItem {
  return { id, name: id, updated_at: updated } as WorkItem;
}

describe("built-in workspace views as filters (views README: assigned = assignees=me …)", () => {
  it("knows the four built-ins and nothing else", () => {
    expect(["all-issues", "assigned", "created", "subscribed"].every(isBuiltInView)).toBe(true);
    expect(isBuiltInView("3f0c…")).toBe(false);
  });
  it("maps each built-in to its filter on the caller", () => {
    expect(builtInFilters("all-issues", ME)).toEqual({});
    expect(builtInFilters("assigned", ME)).toEqual({ assignees: [ME] });
    expect(builtInFilters("created", ME)).toEqual({ created_by: [ME] });
    expect(builtInFilters("subscribed", ME)).toEqual({ subscriber: [ME] });
  });
});

describe("workspace views kept by the workspace channel's view.* events", () => {
  function saved(id: string, created: string, extra: Partial<WorkspaceView> = {}): WorkspaceView {
    return {
      id,
      workspace: "w1",
      workspace_id: "w1",
      project: null,
      project_id: null,
      name: id,
      description: "",
      filters: {},
      display_filters: {},
      display_properties: {},
      access: 1,
      is_locked: false,
      is_favorite: false,
      owned_by: "owner",
      sort_order: 65535,
      created_at: created,
      updated_at: created,
      created_by: "owner",
      ...extra,
    };
  }
  function event(type: DomainEvent["type"], id: string, data: object, projectId: string | null = null): DomainEvent {
    return {
      id: `e-${Math.random()}`,
      type,
      workspace_id: "w1",
      project_id: projectId,
      entity_id: id,
      actor_id: "owner",
      client_mutation_id: null,
      occurred_at: "2026-11-25T09:00:00.000Z",
      data: data as Record<string, unknown>,
    };
  }
  const ids = () => workspaceViews.bySlug.acme?.views.map((v) => v.id);

  beforeEach(() => {
    workspaceViews.bySlug.acme = {
      status: "ready",
      views: [
        saved("new", "2026-11-25T08:00:00.000Z", { is_favorite: true }),
        saved("old", "2026-11-20T08:00:00.000Z"),
      ],
    };
    session.user = { id: "me" } as typeof session.user;
  });

  it("a created view takes its place, newest first", () => {
    applyWorkspaceViewEvent("acme", event("view.created", "mid", saved("mid", "2026-11-22T08:00:00.000Z")));
    applyWorkspaceViewEvent("acme", event("view.created", "newest", saved("newest", "2026-11-25T09:00:00.000Z")));
    expect(ids()).toEqual(["newest", "new", "mid", "old"]);
  });

  it("an update replaces the view, keeps the caller's star, and never goes back to an older copy", () => {
    const renamed = saved("new", "2026-11-25T08:00:00.000Z", {
      name: "Renamed",
      updated_at: "2026-11-25T09:00:00.000Z",
    });
    applyWorkspaceViewEvent("acme", event("view.updated", "new", renamed));
    const stale = saved("new", "2026-11-25T08:00:00.000Z", { name: "Stale" });
    applyWorkspaceViewEvent("acme", event("view.updated", "new", stale));
    const view = workspaceViews.bySlug.acme?.views[0];
    expect(view).toMatchObject({ name: "Renamed", is_favorite: true });
  });

  it("deleted, archived, and someone else's view turned private leave the list", () => {
    applyWorkspaceViewEvent("acme", event("view.deleted", "old", saved("old", "2026-11-20T08:00:00.000Z")));
    expect(ids()).toEqual(["new"]);
    const archived = saved("new", "2026-11-25T08:00:00.000Z", { archived_at: "2026-11-25T09:00:00.000Z" });
    applyWorkspaceViewEvent("acme", event("view.updated", "new", archived));
    expect(ids()).toEqual([]);
    workspaceViews.bySlug.acme = { status: "ready", views: [saved("x", "2026-11-25T08:00:00.000Z")] };
    applyWorkspaceViewEvent("acme", event("view.updated", "x", { id: "x", access: 0, owned_by: "someone" }));
    expect(ids()).toEqual([]);
  });

  it("leaves project views' events to the project store", () => {
    const handled = applyWorkspaceViewEvent(
      "acme",
      event("view.created", "p", saved("p", "2026-11-25T09:00:00.000Z"), "p1"),
    );
    expect(handled).toBe(false);
    expect(ids()).toEqual(["new", "old"]);
  });
});
