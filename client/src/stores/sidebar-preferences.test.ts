import { describe, expect, it } from "vitest";
import { installMemoryStorage } from "../lib/memory-storage.test-support";
import { session } from "./session";
import {
  applySidebarPreferenceEvent,
  defaultSidebarPreferences,
  mergeFetchedPreferences,
  orderedEntries,
  panelCollapsed,
  setPanelCollapsed,
  sidebarPreferences,
  sortOrderForMove,
} from "./sidebar-preferences";
import { workspaces } from "./workspaces";

installMemoryStorage();

describe("sidebar entries", () => {
  it("defaults as the server makes them: 65535 + 10000 per key, views, drafts, your work and stickies pinned", () => {
    const d = defaultSidebarPreferences();
    expect(d.views).toEqual({ is_pinned: true, sort_order: 65535 });
    expect(d.active_cycles).toEqual({ is_pinned: false, sort_order: 75535 });
    expect(d.archives).toEqual({ is_pinned: false, sort_order: 115535 });
    expect(d.stickies).toEqual({ is_pinned: true, sort_order: 125535 });
  });

  it("orders the entries a person may open by sort_order, an unknown one at its default", () => {
    const order = orderedEntries(
      { stickies: { is_pinned: true, sort_order: 1 }, views: { is_pinned: false, sort_order: 2 } },
      ["views", "drafts", "stickies"],
    );
    expect(order.map((e) => e.key)).toEqual(["stickies", "views", "drafts"]);
    expect(order[2]).toEqual({ key: "drafts", is_pinned: true, sort_order: 95535 });
    // Ties keep the product's order.
    const tie = orderedEntries(
      { views: { is_pinned: true, sort_order: 5 }, drafts: { is_pinned: true, sort_order: 5 } },
      ["drafts", "views"],
    );
    expect(tie.map((e) => e.key)).toEqual(["drafts", "views"]);
  });

  it("numbers a moved entry between its new neighbours, or a step past the ends", () => {
    const list = [{ sort_order: 100 }, { sort_order: 200 }, { sort_order: 300 }];
    expect(sortOrderForMove(list, 2, 0)).toBe(100 - 10000);
    expect(sortOrderForMove(list, 0, 2)).toBe(300 + 10000);
    expect(sortOrderForMove(list, 0, 1)).toBe(250);
    expect(sortOrderForMove(list, 2, 1)).toBe(150);
    expect(sortOrderForMove(list, 1, 1)).toBeNull();
    expect(sortOrderForMove(list, 1, 5)).toBeNull();
  });

  it("keeps an entry changed here while a read was on its way", () => {
    const held = { views: { is_pinned: false, sort_order: 1 }, drafts: { is_pinned: true, sort_order: 2 } };
    const fetched = { views: { is_pinned: true, sort_order: 1 }, drafts: { is_pinned: false, sort_order: 9 } };
    const merged = mergeFetchedPreferences(held, fetched, (key) => key === "views");
    expect(merged.views).toEqual({ is_pinned: false, sort_order: 1 });
    expect(merged.drafts).toEqual({ is_pinned: false, sort_order: 9 });
  });

  it("applies another browser's change from the user channel, and skips unknown workspaces and keys", () => {
    workspaces.list = [{ id: "ws-1", slug: "acme" } as (typeof workspaces.list)[number]];
    sidebarPreferences.bySlug.acme = { views: { is_pinned: true, sort_order: 1 } };
    const event = (data: Record<string, unknown>, workspace = "ws-1") => ({
      id: "e",
      type: "sidebar_preference.updated" as const,
      workspace_id: workspace,
      project_id: null,
      entity_id: "x",
      actor_id: null,
      client_mutation_id: null,
      occurred_at: "",
      data,
    });
    applySidebarPreferenceEvent(event({ key: "views", is_pinned: false, sort_order: 7 }));
    expect(sidebarPreferences.bySlug.acme?.views).toEqual({ is_pinned: false, sort_order: 7 });
    applySidebarPreferenceEvent(event({ key: "archives", is_pinned: true, sort_order: 0 }));
    expect(sidebarPreferences.bySlug.acme?.archives).toEqual({ is_pinned: true, sort_order: 0 });
    applySidebarPreferenceEvent(event({ key: "nope", is_pinned: true, sort_order: 0 }));
    applySidebarPreferenceEvent(event({ key: "drafts", is_pinned: true, sort_order: 0 }, "ws-2"));
    expect(Object.keys(sidebarPreferences.bySlug.acme ?? {}).sort()).toEqual(["archives", "views"]);
  });
});

describe("collapse toggles", () => {
  it("are kept per person on the device, starting from the device-wide choices of before", () => {
    localStorage.setItem("tideline:sidebar", JSON.stringify({ collapsed: true, favoritesOpen: false }));
    localStorage.setItem("tideline:board-panel:module", "closed");
    session.user = { id: "ann" } as typeof session.user;
    expect(panelCollapsed({}, "ann", "sidebar")).toBe(true);
    expect(panelCollapsed({}, "ann", "sidebarFavorites")).toBe(true);
    expect(panelCollapsed({}, "ann", "sidebarProjects")).toBe(false);
    expect(panelCollapsed({}, "ann", "module")).toBe(true);
    expect(panelCollapsed({}, "ann", "cycle")).toBe(false);
    setPanelCollapsed("workItemDetail", true);
    setPanelCollapsed("sidebar", false);
    expect(JSON.parse(localStorage.getItem("tideline:panels:ann") ?? "{}")).toMatchObject({
      sidebar: false,
      workItemDetail: true,
    });
    expect(panelCollapsed(sidebarPreferences.panels, "ann", "workItemDetail")).toBe(true);
    // Another person on the same device keeps their own.
    localStorage.setItem("tideline:panels:bob", JSON.stringify({ profile: true }));
    expect(panelCollapsed({}, "bob", "workItemDetail")).toBe(false);
    expect(panelCollapsed({}, "bob", "profile")).toBe(true);
    expect(panelCollapsed({}, undefined, "profile")).toBe(false);
  });
});
