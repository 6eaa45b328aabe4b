import { describe, expect, it } from "vitest";
import type { WorkItem } from "./work-items";
import {
  builtInFilters,
  compactFilters,
  cursorsFor,
  isBuiltInView,
  listQuery,
  mergePage,
  sameFilters,
  type WorkspaceIssuesPage,
} from "./workspace-views";

const ME = "11111111-1111-4111-8111-111111111111";

function item(id: string, updated = "2026-11-25T08:00:00.000Z"): WorkItem {
  return { id, name: id, updated_at: updated } as WorkItem;
}

function page(ids: string[], next: string | null, total = 10): WorkspaceIssuesPage {
  return {
    results: ids.map((id) => item(id)),
    total_count: total,
    next_cursor: next,
    next_page_results: next !== null,
  };
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
  it("builds the /issues/ query: the built-in's filter wins over the user's same key, empty keys dropped", () => {
    const query = listQuery({
      filters: { assignees: ["someone-else"], priority: ["urgent", "high"], labels: [] },
      builtIn: "assigned",
      meId: ME,
      orderBy: "priority",
    });
    expect(query).toEqual({
      layout: "spreadsheet",
      order_by: "priority",
      per_page: "50",
      assignees: ME,
      priority: "urgent,high",
    });
  });
  it("defaults the order to -created_at (product-domain §2) and passes the cursor", () => {
    const query = listQuery({ filters: {}, meId: ME, orderBy: "", cursor: "50:1:0" });
    expect(query.order_by).toBe("-created_at");
    expect(query.cursor).toBe("50:1:0");
    expect(query.assignees).toBeUndefined();
  });
});

describe("filters comparison (a view is 'changed' only when its filters really differ)", () => {
  it("ignores key order, value order and empty keys", () => {
    expect(
      sameFilters(
        { priority: ["high", "urgent"], project: ["a"] },
        { project: ["a"], priority: ["urgent", "high"], labels: [] },
      ),
    ).toBe(true);
    expect(sameFilters({ priority: ["high"] }, { priority: ["urgent"] })).toBe(false);
    expect(compactFilters({ labels: [], priority: ["low"] })).toEqual({ priority: ["low"] });
  });
});

describe("cursor paging merge", () => {
  it("starts from the first page and keeps the next cursor only while more pages exist", () => {
    const first = mergePage(null, page(["a", "b"], "2:1:0", 3));
    expect(first.items.map((i) => i.id)).toEqual(["a", "b"]);
    expect(first.next).toBe("2:1:0");
    const second = mergePage(first, page(["c"], null, 3));
    expect(second.items.map((i) => i.id)).toEqual(["a", "b", "c"]);
    expect(second.next).toBeNull();
    expect(second.total).toBe(3);
  });
  it("keeps a row that shows again on a later page (its order changed) in its first place, with the newest copy", () => {
    const first = mergePage(null, page(["a", "b"], "2:1:0"));
    const later: WorkspaceIssuesPage = {
      results: [item("b", "2026-11-25T09:00:00.000Z"), item("c")],
      total_count: 3,
      next_cursor: null,
      next_page_results: false,
    };
    const merged = mergePage(first, later);
    expect(merged.items.map((i) => i.id)).toEqual(["a", "b", "c"]);
    expect(merged.items[1]?.updated_at).toBe("2026-11-25T09:00:00.000Z");
  });
  it("drops duplicates inside one page", () => {
    expect(mergePage(null, page(["a", "a", "b"], null)).items.map((i) => i.id)).toEqual(["a", "b"]);
  });
  it("reloads what is shown page by page", () => {
    expect(cursorsFor(0)).toEqual(["50:0:0"]);
    expect(cursorsFor(50)).toEqual(["50:0:0"]);
    expect(cursorsFor(51)).toEqual(["50:0:0", "50:1:0"]);
  });
});
