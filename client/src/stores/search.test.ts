import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { emptyResults, hitsOf, recentSearches, rememberSearch, resultPath, type SearchResults } from "./search";

describe("search results", () => {
  const results: SearchResults = {
    ...emptyResults(),
    issue: [
      {
        id: "i1",
        name: "Fix login",
        sequence_id: 12,
        project_id: "p1",
        project__identifier: "WEB",
        workspace__slug: "acme",
      },
    ],
    project: [{ id: "p1", name: "Website", identifier: "WEB", workspace__slug: "acme" }],
    page: [{ id: "pg", name: "Plan", project_ids: ["p2"], project__identifiers: ["OPS"], workspace__slug: "acme" }],
    cycle: [{ id: "c1", name: "Sprint", project_id: "p1", project__identifier: "WEB", workspace__slug: "acme" }],
    module: [{ id: "m1", name: "Checkout", project_id: "p1", project__identifier: "WEB", workspace__slug: "acme" }],
    issue_view: [{ id: "v1", name: "Bugs", project_id: "p1", project__identifier: "WEB", workspace__slug: "acme" }],
  };

  it("lists work items first, then projects, pages, cycles, modules, views", () => {
    expect(hitsOf(results).map((h) => h.group)).toEqual(["issue", "project", "page", "cycle", "module", "issue_view"]);
  });

  it("links each result to its screen", () => {
    const paths = hitsOf(results).map((hit) => resultPath("acme", hit));
    expect(paths).toEqual([
      "/acme/browse/WEB-12/",
      "/acme/projects/p1/issues/",
      "/acme/projects/p2/pages/pg/",
      "/acme/projects/p1/cycles/c1/",
      "/acme/projects/p1/modules/m1/",
      "/acme/projects/p1/views/v1/",
    ]);
    expect(resultPath("acme", { group: "workspace", result: { id: "w", name: "Other", slug: "other" } })).toBe(
      "/other/",
    );
  });
});

describe("recent searches", () => {
  // The browser's storage, for this test file only (Node has none).
  const held = new Map<string, string>();
  beforeEach(() => {
    held.clear();
    Object.assign(globalThis, {
      localStorage: {
        getItem: (k: string) => held.get(k) ?? null,
        setItem: (k: string, v: string) => held.set(k, v),
        removeItem: (k: string) => held.delete(k),
      },
    });
  });
  afterEach(() => {
    Reflect.deleteProperty(globalThis, "localStorage");
  });

  it("keeps the newest five, once each (case aside), per person and workspace", () => {
    for (const q of ["one", "two", "three", "four", "five", "six"]) rememberSearch("u1", "acme", q);
    rememberSearch("u1", "acme", "THREE");
    expect(recentSearches("u1", "acme")).toEqual(["THREE", "six", "five", "four", "two"]);
    expect(recentSearches("u2", "acme")).toEqual([]);
    expect(recentSearches("u1", "other")).toEqual([]);
  });

  it("ignores blank queries and unreadable storage", () => {
    rememberSearch("u1", "acme", "   ");
    expect(recentSearches("u1", "acme")).toEqual([]);
    held.set("tideline:recent-searches:u1:acme", "{not json");
    expect(recentSearches("u1", "acme")).toEqual([]);
  });
});
