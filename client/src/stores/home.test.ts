import { describe, expect, it } from "vitest";
import {
  applyHomeEvent,
  home,
  myWorkParams,
  orderWidgets,
  quickLinkLabel,
  type RecentVisit,
  recentVisitPath,
  WIDGET_ORDER_STEP,
  widgetSortOrderFor,
} from "./home";
import { workspaces } from "./workspaces";

const STAMP = "2026-11-20T10:00:00Z";
const w = (key: string, sort_order: number) => ({ key, sort_order, is_enabled: true, config: {} });

describe("widget order", () => {
  it("shows the highest sort_order first, ties by key", () => {
    expect(orderWidgets([w("b", 1), w("a", 5), w("c", 5)]).map((x) => x.key)).toEqual(["a", "c", "b"]);
  });

  it("moves a widget to the midpoint of its new neighbours, or a step past an end", () => {
    const shown = [w("quick_links", 999), w("recents", 998), w("my_stickies", 997), w("my_work_items", 996)];
    expect(widgetSortOrderFor(shown, "my_work_items", 0)).toBe(999 + WIDGET_ORDER_STEP);
    expect(widgetSortOrderFor(shown, "quick_links", 3)).toBe(996 - WIDGET_ORDER_STEP);
    expect(widgetSortOrderFor(shown, "quick_links", 1)).toBe(997.5);
    expect(widgetSortOrderFor(shown, "my_work_items", 2)).toBe(997.5);
    expect(widgetSortOrderFor(shown, "recents", 2)).toBe(996.5);
    // Nowhere to go.
    expect(widgetSortOrderFor(shown, "recents", 1)).toBeNull();
    expect(widgetSortOrderFor(shown, "recents", 4)).toBeNull();
    expect(widgetSortOrderFor(shown, "nope", 0)).toBeNull();
    expect(widgetSortOrderFor([w("a", 1)], "a", 0)).toBeNull();
  });

  it("puts the moved widget where it was asked to go", () => {
    const shown = [w("a", 4), w("b", 3), w("c", 2), w("d", 1)];
    for (const key of ["a", "b", "c", "d"]) {
      for (let to = 0; to < 4; to++) {
        const order = widgetSortOrderFor(shown, key, to);
        if (order === null) continue;
        const after = orderWidgets(shown.map((x) => (x.key === key ? { ...x, sort_order: order } : x)));
        expect(
          after.findIndex((x) => x.key === key),
          `${key} → ${to}`,
        ).toBe(to);
      }
    }
  });
});

describe("recent visit links", () => {
  const at = STAMP;
  it("opens a work item by its key, an epic on its page, a page, and a project's work items", () => {
    const issue: RecentVisit = {
      id: "v1",
      entity_name: "issue",
      entity_identifier: "i1",
      visited_at: at,
      entity_data: {
        id: "i1",
        name: "Fix",
        state: null,
        priority: "none",
        assignees: [],
        type: null,
        sequence_id: 12,
        project_id: "p1",
        project_identifier: "WEB",
      },
    };
    expect(recentVisitPath("acme", issue)).toBe("/acme/browse/WEB-12/");
    expect(recentVisitPath("acme", { ...issue, entity_data: { ...issue.entity_data, is_epic: true } })).toBe(
      "/acme/projects/p1/epics/i1/",
    );
    expect(
      recentVisitPath("acme", {
        id: "v2",
        entity_name: "page",
        entity_identifier: "g1",
        visited_at: at,
        entity_data: {
          id: "g1",
          name: "Specs",
          logo_props: {},
          project_id: "p1",
          owned_by: "u",
          project_identifier: "WEB",
        },
      }),
    ).toBe("/acme/projects/p1/pages/g1/");
    expect(
      recentVisitPath("acme", {
        id: "v3",
        entity_name: "project",
        entity_identifier: "p1",
        visited_at: at,
        entity_data: { id: "p1", name: "Web", logo_props: {}, project_members: [], identifier: "WEB" },
      }),
    ).toBe("/acme/projects/p1/issues/");
  });
});

describe("my work items", () => {
  it("asks the member list for a tab's newest few, and for overdue the assigned open ones due by today", () => {
    expect(myWorkParams("created", "2026-11-20")).toMatchObject({ type: "created", order_by: "-created_at" });
    expect(myWorkParams("overdue", "2026-11-20")).toMatchObject({
      type: "assigned",
      target_date: "2026-11-20;before",
      state_group: "backlog,unstarted,started",
    });
  });
});

describe("quick link labels", () => {
  it("shows the title, else the address without its scheme", () => {
    expect(quickLinkLabel({ title: "Docs", url: "https://x.example" })).toBe("Docs");
    expect(quickLinkLabel({ title: null, url: "https://x.example/a/" })).toBe("x.example/a");
    expect(quickLinkLabel({ title: "  ", url: "http://y.example" })).toBe("y.example");
  });
});

describe("live events", () => {
  it("applies another tab's quick link and widget changes to the workspace they belong to", () => {
    workspaces.bySlug.acme = { id: "ws1", slug: "acme" } as (typeof workspaces.bySlug)[string];
    home.bySlug.acme = {
      widgets: { status: "ready", items: [w("quick_links", 999), w("recents", 998)] },
      links: { status: "ready", items: [] },
      recents: { filter: "all", lists: {} },
      myWork: { tab: "assigned", lists: {} },
    };
    const link = { id: "l1", title: "Docs", url: "https://x.example", created_at: STAMP, updated_at: STAMP };
    const event = (type: string, data: Record<string, unknown>) =>
      ({ type, workspace_id: "ws1", data, client_mutation_id: null }) as unknown as Parameters<
        typeof applyHomeEvent
      >[0];
    applyHomeEvent(event("quick_link.created", link));
    expect(home.bySlug.acme.links.items.map((l) => l.id)).toEqual(["l1"]);
    applyHomeEvent(event("quick_link.updated", { ...link, title: "Handbook" }));
    expect(home.bySlug.acme.links.items[0]?.title).toBe("Handbook");
    applyHomeEvent(
      event("home_preference.updated", { key: "recents", is_enabled: false, sort_order: 2000, config: {} }),
    );
    expect(home.bySlug.acme.widgets.items.map((x) => [x.key, x.is_enabled])).toEqual([
      ["recents", false],
      ["quick_links", true],
    ]);
    applyHomeEvent(event("quick_link.deleted", link));
    expect(home.bySlug.acme.links.items).toEqual([]);
  });
});
