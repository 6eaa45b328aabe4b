import { NONE_GROUP, parseIssueFilters } from "@tideline/shared";
import { describe, expect, it } from "vitest";
import {
  buildGroups,
  dropSortOrder,
  filterItems,
  groupKeysOf,
  groupTakesItems,
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
const C_SPRINT4 = "00000000-0000-4000-8000-0000000000d1";
const C_ALPHA = "00000000-0000-4000-8000-0000000000d2";
const C_DONE = "00000000-0000-4000-8000-0000000000d3";
const C_ARCHIVED = "00000000-0000-4000-8000-0000000000d4";
const M_WEB = "00000000-0000-4000-8000-0000000000e1";
const M_API = "00000000-0000-4000-8000-0000000000e2";
const M_EMPTY = "00000000-0000-4000-8000-0000000000e3";

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
  // In the store's order (not by name): the pipeline sorts them as the server's groups do.
  cycles: [
    { id: C_SPRINT4, name: "Sprint 4", status: "current" },
    { id: C_DONE, name: "Sprint 3", status: "completed" },
    { id: C_ALPHA, name: "alpha", status: "draft" },
  ],
  modules: [
    { id: M_WEB, name: "Web" },
    { id: M_EMPTY, name: "Zzz empty" },
    { id: M_API, name: "api" },
  ],
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

describe("grouping by cycle and module", () => {
  const inSprint = item({ cycle_id: C_SPRINT4, module_ids: [M_WEB, M_API] });
  const inAlpha = item({ cycle_id: C_ALPHA, module_ids: [M_WEB] });
  const nowhere = item({ cycle_id: null, module_ids: [] });
  const archivedCycle = item({ cycle_id: C_ARCHIVED });

  it("groups by cycle: the project's cycles by name (case-insensitive), None last", () => {
    const { groups } = buildGroups([inSprint, inAlpha, nowhere], { ...base, groupBy: "cycle_id" }, ctx);
    expect(groups.map((g) => [g.key, g.items.map((i) => i.id)])).toEqual([
      [C_ALPHA, [inAlpha.id]],
      [C_DONE, []],
      [C_SPRINT4, [inSprint.id]],
      [NONE_GROUP, [nowhere.id]],
    ]);
  });

  it("keeps an item of an archived cycle in that cycle's group, after the known ones (as the server)", () => {
    const { groups } = buildGroups(
      [inSprint, archivedCycle, nowhere],
      { ...base, groupBy: "cycle_id", showEmptyGroups: false },
      ctx,
    );
    expect(groups.map((g) => g.key)).toEqual([C_SPRINT4, C_ARCHIVED, NONE_GROUP]);
  });

  it("puts an item in each of its modules' groups, module-less ones in None", () => {
    const { groups, total } = buildGroups([inSprint, inAlpha, nowhere], { ...base, groupBy: "module_id" }, ctx);
    expect(groups.map((g) => [g.key, g.items.map((i) => i.id)])).toEqual([
      [M_API, [inSprint.id]],
      [M_WEB, [inSprint.id, inAlpha.id]],
      [M_EMPTY, []],
      [NONE_GROUP, [nowhere.id]],
    ]);
    expect(total).toBe(3);
    expect(groupKeysOf(item({ module_ids: undefined }), "module_id")).toEqual([NONE_GROUP]);
    expect(groupKeysOf(item({ cycle_id: undefined }), "cycle_id")).toEqual([NONE_GROUP]);
  });

  it("sub-groups by module inside cycle columns", () => {
    const { groups } = buildGroups(
      [inSprint, inAlpha, nowhere],
      { ...base, groupBy: "cycle_id", subGroupBy: "module_id", showEmptyGroups: false },
      ctx,
    );
    const sprint = groups.find((g) => g.key === C_SPRINT4);
    expect(sprint?.subGroups?.map((s) => [s.key, s.items.length])).toEqual([
      [M_API, 1],
      [M_WEB, 1],
      [NONE_GROUP, 0],
    ]);
  });

  it("shows only None while the lists of cycles and modules load", () => {
    const loading = { ...ctx, cycles: undefined, modules: undefined };
    const { groups } = buildGroups([nowhere], { ...base, groupBy: "module_id" }, loading);
    expect(groups.map((g) => g.key)).toEqual([NONE_GROUP]);
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

  it("orders by cycle name both ways, items without a (known) cycle last", () => {
    const sprint = item({ cycle_id: C_SPRINT4 });
    const none1 = item({ cycle_id: null });
    const alpha = item({ cycle_id: C_ALPHA });
    const archived = item({ cycle_id: C_ARCHIVED });
    const sprintToo = item({ cycle_id: C_SPRINT4 });
    const all = [sprint, none1, alpha, archived, sprintToo];
    expect(sortItems(all, "issue_cycle__cycle__name", ctx)).toEqual([alpha, sprint, sprintToo, none1, archived]);
    // Descending: ties by sequence descending too, None still last.
    expect(sortItems(all, "-issue_cycle__cycle__name", ctx)).toEqual([sprintToo, sprint, alpha, archived, none1]);
  });

  it("orders by the first module's name (the last one descending), items without a module last", () => {
    const webApi = item({ module_ids: [M_WEB, M_API] });
    const web = item({ module_ids: [M_WEB] });
    const none1 = item({ module_ids: [] });
    const empty = item({ module_ids: [M_EMPTY] });
    const all = [webApi, web, none1, empty];
    expect(sortItems(all, "issue_module__module__name", ctx)).toEqual([webApi, web, empty, none1]);
    expect(sortItems(all, "-issue_module__module__name", ctx)).toEqual([empty, web, webApi, none1]);
  });

  it("breaks ties by sequence number", () => {
    const x = item({ sort_order: 5 });
    const y = item({ sort_order: 5 });
    expect(sortItems([y, x], "sort_order", ctx)).toEqual([x, y]);
  });

  it("gives the same groups from items sorted once beforehand as from unsorted items", () => {
    // The board sorts the whole cache once per version and ordering, then only filters and groups.
    const priorities = ["urgent", "high", "medium", "low", "none"] as const;
    const all = Array.from({ length: 60 }, (_, i) =>
      item({
        priority: priorities[i % 5],
        sort_order: (i % 7) * 100,
        target_date: i % 3 ? `2026-04-${String((i % 20) + 1).padStart(2, "0")}` : null,
        label_ids: i % 4 ? [i % 2 ? L_BUG : L_UI] : [],
        state_id: i % 2 ? S_TODO : S_DONE,
        state__group: i % 2 ? "unstarted" : "completed",
        archived_at: i % 11 === 0 ? "2026-01-01T00:00:00.000Z" : null,
      }),
    ).reverse();
    const { filters } = parseIssueFilters({ priority: "urgent,high,low" });
    for (const orderBy of ["sort_order", "-priority", "target_date", "-target_date", "-created_at"] as const) {
      const options: PipelineOptions = { ...base, filters, orderBy, groupBy: "labels__id", subGroupBy: "state_id" };
      const presorted = buildGroups(sortItems(all, orderBy, ctx), options, ctx, true);
      expect(presorted).toEqual(buildGroups(all, options, ctx));
    }
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

  it("moves between cycle columns (None: out of the cycle) and module columns (the module swapped)", () => {
    const it1 = item({ cycle_id: C_SPRINT4, module_ids: [M_WEB, M_API] });
    expect(moveGroupPatch("cycle_id", it1, C_SPRINT4, C_ALPHA)).toEqual({ cycle_id: C_ALPHA });
    expect(moveGroupPatch("cycle_id", it1, C_SPRINT4, NONE_GROUP)).toEqual({ cycle_id: null });
    expect(moveGroupPatch("cycle_id", item({}), NONE_GROUP, C_SPRINT4)).toEqual({ cycle_id: C_SPRINT4 });
    expect(moveGroupPatch("module_id", it1, M_WEB, M_EMPTY)).toEqual({ module_ids: [M_API, M_EMPTY] });
    expect(moveGroupPatch("module_id", it1, M_WEB, M_API)).toEqual({ module_ids: [M_API] });
    expect(moveGroupPatch("module_id", it1, M_WEB, NONE_GROUP)).toEqual({ module_ids: [] });
    expect(moveGroupPatch("module_id", item({ module_ids: [] }), NONE_GROUP, M_WEB)).toEqual({ module_ids: [M_WEB] });
  });

  it("takes no items into a completed or unknown cycle's column", () => {
    expect(groupTakesItems("cycle_id", C_SPRINT4, ctx)).toBe(true);
    expect(groupTakesItems("cycle_id", NONE_GROUP, ctx)).toBe(true);
    expect(groupTakesItems("cycle_id", C_DONE, ctx)).toBe(false);
    expect(groupTakesItems("cycle_id", C_ARCHIVED, ctx)).toBe(false);
    expect(groupTakesItems("module_id", M_WEB, ctx)).toBe(true);
    expect(groupTakesItems("state_id", S_DONE, ctx)).toBe(true);
  });

  it("prefills quick add from the group, ignoring None", () => {
    expect(prefillFor("state_id", S_DONE)).toEqual({ state_id: S_DONE });
    expect(prefillFor("labels__id", L_BUG)).toEqual({ label_ids: [L_BUG] });
    expect(prefillFor("labels__id", NONE_GROUP)).toEqual({});
    expect(prefillFor("cycle_id", NONE_GROUP)).toEqual({});
    expect(prefillFor("module_id", NONE_GROUP)).toEqual({});
    expect(prefillFor("cycle_id", C_SPRINT4, ctx)).toEqual({ cycle_id: C_SPRINT4 });
    expect(prefillFor("cycle_id", C_DONE, ctx)).toEqual({});
    expect(prefillFor("module_id", M_WEB, ctx)).toEqual({ module_ids: [M_WEB] });
    expect(prefillFor("state__group", "completed", ctx)).toEqual({ state_id: S_DONE });
    expect(prefillFor(null, "all")).toEqual({});
  });
});
