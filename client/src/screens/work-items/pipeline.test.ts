import { NONE_GROUP, parseIssueFilters } from "@tideline/shared";
import { describe, expect, it } from "vitest";
import {
  buildGroups,
  dropSortOrder,
  filterItems,
  groupKeysOf,
  moveGroupPatch,
  type PipelineContext,
  type PipelineItem,
  type PipelineOptions,
  prefillFor,
  sortItems,
} from "./pipeline";

const S_BACKLOG = "00000000-0000-4000-8000-000000000001";
const S_TODO = "00000000-0000-4000-8000-000000000002";
const S_DONE = "00000000-0000-4000-8000-000000000003";
const L_BUG = "00000000-0000-4000-8000-0000000000b1";
const L_UI = "00000000-0000-4000-8000-0000000000b2";
const L_UNUSED = "00000000-0000-4000-8000-0000000000b3";
const U_ANN = "00000000-0000-4000-8000-0000000000c1";
const U_BOB = "00000000-0000-4000-8000-0000000000c2";

const ctx: PipelineContext = {
  states: [
    { id: S_BACKLOG, group: "backlog" },
    { id: S_TODO, group: "unstarted" },
    { id: S_DONE, group: "completed" },
  ],
  labels: [
    { id: L_BUG, name: "Bug" },
    { id: L_UI, name: "UI" },
    { id: L_UNUSED, name: "Unused" },
  ],
  members: [
    { id: U_ANN, name: "Ann" },
    { id: U_BOB, name: "Bob" },
  ],
  estimatePoints: [],
  today: "2026-03-10",
};

let seq = 0;
function item(patch: Partial<PipelineItem>): PipelineItem {
  seq += 1;
  return {
    id: `00000000-0000-4000-9000-${String(seq).padStart(12, "0")}`,
    name: `Item ${seq}`,
    sequence_id: seq,
    sort_order: seq * 10000,
    created_at: `2026-01-${String(seq).padStart(2, "0")}T00:00:00.000Z`,
    updated_at: `2026-02-${String(seq).padStart(2, "0")}T00:00:00.000Z`,
    project_id: "p",
    priority: "none",
    state_id: S_TODO,
    state__group: "unstarted",
    assignee_ids: [],
    label_ids: [],
    created_by: U_ANN,
    start_date: null,
    target_date: null,
    estimate_point: null,
    archived_at: null,
    is_draft: false,
    parent_id: null,
    ...patch,
  };
}

const base: PipelineOptions = {
  filters: {},
  scope: {},
  groupBy: null,
  subGroupBy: null,
  orderBy: "sort_order",
  showEmptyGroups: true,
};

describe("grouping", () => {
  const a = item({ label_ids: [L_BUG, L_UI], priority: "high" });
  const b = item({ label_ids: [L_UI], priority: "urgent", state_id: S_DONE, state__group: "completed" });
  const c = item({ label_ids: [], priority: "low" });

  it("puts an item in each of its label groups and label-less ones in None", () => {
    const { groups, total } = buildGroups([a, b, c], { ...base, groupBy: "labels__id" }, ctx);
    const byKey = Object.fromEntries(groups.map((g) => [g.key, g.items.map((i) => i.id)]));
    expect(byKey[L_BUG]).toEqual([a.id]);
    expect(byKey[L_UI]).toEqual([a.id, b.id]);
    expect(byKey[NONE_GROUP]).toEqual([c.id]);
    // Known labels show even when empty, in label order, None last.
    expect(groups.map((g) => g.key)).toEqual([L_BUG, L_UI, L_UNUSED, NONE_GROUP]);
    // The total counts distinct items, not rows.
    expect(total).toBe(3);
  });

  it("hides empty groups when asked", () => {
    const { groups } = buildGroups([a, b, c], { ...base, groupBy: "labels__id", showEmptyGroups: false }, ctx);
    expect(groups.map((g) => g.key)).toEqual([L_BUG, L_UI, NONE_GROUP]);
  });

  it("groups by state in the project's state order and by priority urgent first", () => {
    const byState = buildGroups([a, b, c], { ...base, groupBy: "state_id" }, ctx).groups;
    expect(byState.map((g) => [g.key, g.items.length])).toEqual([
      [S_BACKLOG, 0],
      [S_TODO, 2],
      [S_DONE, 1],
    ]);
    const byPriority = buildGroups([a, b, c], { ...base, groupBy: "priority" }, ctx).groups;
    expect(byPriority.map((g) => g.key)).toEqual(["urgent", "high", "medium", "low", "none"]);
    expect(byPriority[0]?.items).toEqual([b]);
  });

  it("sub-groups every column into the same swimlanes", () => {
    const { groups } = buildGroups([a, b, c], { ...base, groupBy: "state_id", subGroupBy: "priority" }, ctx);
    const todo = groups.find((g) => g.key === S_TODO);
    expect(todo?.subGroups?.map((s) => s.key)).toEqual(["urgent", "high", "medium", "low", "none"]);
    expect(todo?.subGroups?.find((s) => s.key === "high")?.items).toEqual([a]);
    expect(todo?.subGroups?.find((s) => s.key === "low")?.items).toEqual([c]);
  });

  it("groups dates ascending with None last, only groups that have items", () => {
    const d1 = item({ target_date: "2026-04-01" });
    const d2 = item({ target_date: "2026-03-01" });
    const d3 = item({});
    const { groups } = buildGroups([d1, d2, d3], { ...base, groupBy: "target_date" }, ctx);
    expect(groups.map((g) => g.key)).toEqual(["2026-03-01", "2026-04-01", NONE_GROUP]);
  });

  it("gives every key of an item for many-valued groupings", () => {
    expect(groupKeysOf(item({ assignee_ids: [U_ANN, U_BOB] }), "assignees__id")).toEqual([U_ANN, U_BOB]);
    expect(groupKeysOf(item({ assignee_ids: [] }), "assignees__id")).toEqual([NONE_GROUP]);
  });
});

describe("filtering and ordering", () => {
  it("applies filters with the shared semantics and leaves out archived items and drafts", () => {
    const urgentBug = item({ priority: "urgent", label_ids: [L_BUG] });
    const urgentPlain = item({ priority: "urgent" });
    const lowBug = item({ priority: "low", label_ids: [L_BUG] });
    const archived = item({ priority: "urgent", label_ids: [L_BUG], archived_at: "2026-01-01T00:00:00.000Z" });
    const draft = item({ priority: "urgent", label_ids: [L_BUG], is_draft: true });
    const { filters } = parseIssueFilters({ priority: "urgent", labels: L_BUG });
    const out = filterItems([urgentBug, urgentPlain, lowBug, archived, draft], { filters, scope: {} }, ctx.today);
    expect(out).toEqual([urgentBug]);
  });

  it("filters relative dates from today", () => {
    const soon = item({ target_date: "2026-03-12" });
    const later = item({ target_date: "2026-03-20" });
    const { filters } = parseIssueFilters({ target_date: "1_weeks;after;fromnow" });
    expect(filterItems([soon, later], { filters, scope: {} }, ctx.today)).toEqual([later]);
  });

  it("applies the display scope and the search", () => {
    const backlog = item({ state_id: S_BACKLOG, state__group: "backlog", name: "Fix login" });
    const child = item({ parent_id: backlog.id, name: "Sub task" });
    expect(filterItems([backlog, child], { filters: {}, scope: { type: "backlog" } }, ctx.today)).toEqual([backlog]);
    expect(filterItems([backlog, child], { filters: {}, scope: { sub_issue: false } }, ctx.today)).toEqual([backlog]);
    expect(filterItems([backlog, child], { filters: {}, scope: {}, search: "login" }, ctx.today)).toEqual([backlog]);
    expect(
      filterItems(
        [backlog, child],
        { filters: {}, scope: {}, search: `WEB-${child.sequence_id}`, projectIdentifier: "WEB" },
        ctx.today,
      ),
    ).toEqual([child]);
  });

  it("orders by priority urgent first, dates with empty values last both ways, and newest first", () => {
    const none = item({ priority: "none", target_date: null });
    const urgent = item({ priority: "urgent", target_date: "2026-05-01" });
    const medium = item({ priority: "medium", target_date: "2026-04-01" });
    expect(sortItems([none, urgent, medium], "priority", ctx)).toEqual([urgent, medium, none]);
    expect(sortItems([none, urgent, medium], "-priority", ctx)).toEqual([none, medium, urgent]);
    expect(sortItems([none, urgent, medium], "target_date", ctx)).toEqual([medium, urgent, none]);
    expect(sortItems([none, urgent, medium], "-target_date", ctx)).toEqual([urgent, medium, none]);
    expect(sortItems([none, urgent, medium], "-created_at", ctx)).toEqual([medium, urgent, none]);
    expect(sortItems([medium, urgent, none], "sort_order", ctx)).toEqual([none, urgent, medium]);
    expect(sortItems([none, urgent, medium], "-sequence_id", ctx)).toEqual([medium, urgent, none]);
  });

  it("breaks ties by sequence number", () => {
    const x = item({ sort_order: 5 });
    const y = item({ sort_order: 5 });
    expect(sortItems([y, x], "sort_order", ctx)).toEqual([x, y]);
  });
});

describe("drag and drop", () => {
  it("computes the dropped position: −10000 first, +10000 last, midpoint between", () => {
    const list = [10000, 20000, 40000];
    expect(dropSortOrder(list, 0)).toBe(0);
    expect(dropSortOrder(list, 3)).toBe(50000);
    expect(dropSortOrder(list, 2)).toBe(30000);
    expect(dropSortOrder(list, 1)).toBe(15000);
    expect(dropSortOrder([], 0)).toBe(65535);
    // Out-of-range indexes clamp to the ends.
    expect(dropSortOrder(list, 99)).toBe(50000);
  });

  it("changes the grouped property when an item moves between groups", () => {
    const it1 = item({ label_ids: [L_BUG, L_UI], assignee_ids: [U_ANN] });
    expect(moveGroupPatch("state_id", it1, S_TODO, S_DONE)).toEqual({ state_id: S_DONE });
    expect(moveGroupPatch("priority", it1, "none", "high")).toEqual({ priority: "high" });
    expect(moveGroupPatch("labels__id", it1, L_BUG, L_UNUSED)).toEqual({ label_ids: [L_UI, L_UNUSED] });
    expect(moveGroupPatch("labels__id", it1, L_BUG, NONE_GROUP)).toEqual({ label_ids: [] });
    expect(moveGroupPatch("assignees__id", it1, U_ANN, U_BOB)).toEqual({ assignee_ids: [U_BOB] });
    expect(moveGroupPatch("assignees__id", it1, NONE_GROUP, U_BOB)).toEqual({ assignee_ids: [U_ANN, U_BOB] });
    expect(moveGroupPatch("created_by", it1, U_ANN, U_BOB)).toBeNull();
    expect(moveGroupPatch("state__group", it1, "backlog", "started")).toBeNull();
    expect(moveGroupPatch("state_id", it1, S_TODO, S_TODO)).toEqual({});
  });

  it("prefills quick add from the group, ignoring None", () => {
    expect(prefillFor("state_id", S_DONE)).toEqual({ state_id: S_DONE });
    expect(prefillFor("labels__id", L_BUG)).toEqual({ label_ids: [L_BUG] });
    expect(prefillFor("labels__id", NONE_GROUP)).toEqual({});
    expect(prefillFor("cycle_id", NONE_GROUP)).toEqual({});
    expect(prefillFor("module_id", "x")).toEqual({});
    expect(prefillFor("state__group", "completed", ctx)).toEqual({ state_id: S_DONE });
    expect(prefillFor(null, "all")).toEqual({});
  });
});
