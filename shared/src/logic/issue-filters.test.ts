import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PRIORITIES } from "../constants/issues.ts";
import { STATE_GROUPS } from "../constants/project.ts";
import {
  addDays,
  calendarDate,
  type DateTerm,
  type FilterableIssue,
  type IssueFilters,
  matchesDisplayScope,
  matchesFilters,
  matchesSearch,
  parseDateTerm,
  parseIssueFilters,
  parseSequenceSearch,
  resolveDateTerm,
  serializeIssueFilters,
  toDateOnly,
} from "./issue-filters.ts";

const ids = [
  "11111111-1111-4111-8111-111111111111",
  "22222222-2222-4222-8222-222222222222",
  "33333333-3333-4333-8333-333333333333",
];
const TODAY = "2026-03-15";

const day = fc.integer({ min: -100, max: 100 }).map((d) => addDays(TODAY, d));
const issueArb: fc.Arbitrary<FilterableIssue> = fc.record({
  priority: fc.constantFrom(...PRIORITIES),
  state_id: fc.option(fc.constantFrom(...ids), { nil: null }),
  state__group: fc.option(fc.constantFrom(...STATE_GROUPS), { nil: null }),
  assignee_ids: fc.subarray(ids),
  label_ids: fc.subarray(ids),
  created_by: fc.option(fc.constantFrom(...ids), { nil: null }),
  start_date: fc.option(day, { nil: null }),
  target_date: fc.option(day, { nil: null }),
  project_id: fc.constantFrom(...ids),
  subscriber_ids: fc.subarray(ids),
});
const some = <T>(values: readonly T[]) => fc.subarray([...values], { minLength: 1 });
const dateTermArb: fc.Arbitrary<DateTerm> = fc.oneof(
  fc.record({
    kind: fc.constant("absolute" as const),
    op: fc.constantFrom("after" as const, "before" as const, "on" as const),
    date: day,
  }),
  fc.record({
    kind: fc.constant("relative" as const),
    op: fc.constantFrom("after" as const, "before" as const),
    amount: fc.integer({ min: 1, max: 12 }),
    unit: fc.constantFrom("weeks" as const, "months" as const),
    direction: fc.constantFrom("fromnow" as const, "ago" as const),
  }),
);
const filtersArb: fc.Arbitrary<IssueFilters> = fc.record(
  {
    priority: some(PRIORITIES),
    state: some([...ids, "None"]),
    state_group: some(STATE_GROUPS),
    assignees: some([...ids, "None"]),
    created_by: some([...ids, "None"]),
    labels: some([...ids, "None"]),
    project: some(ids),
    subscriber: some(ids),
    start_date: fc.array(dateTermArb, { minLength: 1, maxLength: 2 }),
    target_date: fc.array(dateTermArb, { minLength: 1, maxLength: 2 }),
  },
  { requiredKeys: [] },
);

describe("dates", () => {
  it("reads yyyy-MM-dd from the first 10 characters and refuses impossible days", () => {
    expect(toDateOnly("2026-03-05T23:00:00Z")).toBe("2026-03-05");
    expect(toDateOnly("2026-02-29")).toBeNull();
    expect(toDateOnly("2024-02-29")).toBe("2024-02-29");
    expect(toDateOnly("05/03/2026")).toBeNull();
    expect(toDateOnly(null)).toBeNull();
  });

  it("gives the calendar day in a time zone", () => {
    const moment = new Date("2026-03-15T23:30:00Z");
    expect(calendarDate(moment, "UTC")).toBe("2026-03-15");
    expect(calendarDate(moment, "Asia/Tokyo")).toBe("2026-03-16");
    expect(calendarDate(moment, "America/Los_Angeles")).toBe("2026-03-15");
    expect(calendarDate(moment, "Not/AZone")).toBe("2026-03-15");
  });

  it("parses the spec's date filter forms", () => {
    expect(parseDateTerm("2026-01-01;after")).toEqual({ kind: "absolute", op: "after", date: "2026-01-01" });
    expect(parseDateTerm("2026-02-01;before")).toEqual({ kind: "absolute", op: "before", date: "2026-02-01" });
    expect(parseDateTerm("2026-02-01")).toEqual({ kind: "absolute", op: "on", date: "2026-02-01" });
    expect(parseDateTerm("1_weeks;after;fromnow")).toEqual({
      kind: "relative",
      op: "after",
      amount: 1,
      unit: "weeks",
      direction: "fromnow",
    });
    expect(parseDateTerm("2_months;before;ago")).toMatchObject({ amount: 2, unit: "months", direction: "ago" });
    for (const bad of [
      "",
      "tomorrow",
      "2026-13-01;after",
      "2026-01-01;during",
      "1_weeks;after",
      "1_days;after;fromnow",
      "1_weeks;after;later",
      "2026-01-01;after;x",
    ]) {
      expect(parseDateTerm(bad), bad).toBeNull();
    }
  });

  it("counts a week as 7 days and a month as 30", () => {
    const rel = (op: "after" | "before", amount: number, unit: "weeks" | "months", direction: "fromnow" | "ago") =>
      resolveDateTerm({ kind: "relative", op, amount, unit, direction }, TODAY);
    expect(rel("after", 1, "weeks", "fromnow")).toEqual({ op: "after", date: "2026-03-22" });
    expect(rel("before", 2, "months", "fromnow")).toEqual({ op: "before", date: "2026-05-14" });
    expect(rel("after", 1, "months", "ago")).toEqual({ op: "after", date: "2026-02-13" });
    expect(rel("before", 2, "weeks", "ago")).toEqual({ op: "before", date: "2026-03-01" });
  });
});

describe("parseIssueFilters", () => {
  it("reads comma lists and stored arrays, ignoring empty values", () => {
    const { filters, errors } = parseIssueFilters({
      priority: "urgent,high",
      state: [ids[0], `${ids[1]},None`],
      state_group: "started",
      labels: "",
      assignees: null,
      target_date: "2026-01-01;after,2026-02-01;before",
      mentions: ids[0],
      layout: "list",
    });
    expect(errors).toEqual({});
    expect(filters).toEqual({
      priority: ["urgent", "high"],
      state: [ids[0], ids[1], "None"],
      state_group: ["started"],
      target_date: [
        { kind: "absolute", op: "after", date: "2026-01-01" },
        { kind: "absolute", op: "before", date: "2026-02-01" },
      ],
      mentions: [ids[0]],
    });
  });

  it("reports each invalid value under its key", () => {
    const { errors } = parseIssueFilters({
      priority: "critical",
      state: "nope",
      state_group: "doing",
      subscriber: "None",
      start_date: "soon",
      labels: { x: 1 },
    });
    expect(Object.keys(errors).sort()).toEqual([
      "labels",
      "priority",
      "start_date",
      "state",
      "state_group",
      "subscriber",
    ]);
  });

  it("serialises back to what it read", () => {
    fc.assert(
      fc.property(filtersArb, (filters) => {
        const again = parseIssueFilters(serializeIssueFilters(filters));
        expect(again.errors).toEqual({});
        const normalised = Object.fromEntries(
          Object.entries(filters).map(([k, v]) => [k, [...new Set(v as unknown[])]]),
        );
        const dedupe = (list: unknown[]) =>
          list.filter((x, i) => list.findIndex((y) => JSON.stringify(y) === JSON.stringify(x)) === i);
        expect(again.filters).toEqual(
          Object.fromEntries(Object.entries(normalised).map(([k, v]) => [k, dedupe(v as unknown[])])),
        );
      }),
    );
  });
});

describe("matchesFilters", () => {
  it("matches everything without filters", () => {
    fc.assert(
      fc.property(issueArb, (issue) => {
        expect(matchesFilters(issue, {}, TODAY)).toBe(true);
      }),
    );
  });

  it("applies every filter: the result is the conjunction of each filter alone", () => {
    fc.assert(
      fc.property(issueArb, filtersArb, (issue, filters) => {
        const each = Object.entries(filters).every(([key, value]) =>
          matchesFilters(issue, { [key]: value } as IssueFilters, TODAY),
        );
        expect(matchesFilters(issue, filters, TODAY)).toBe(each);
      }),
    );
  });

  it("treats the values of one filter as alternatives", () => {
    const keys = ["priority", "state", "assignees", "labels", "created_by", "project", "subscriber"] as const;
    fc.assert(
      fc.property(issueArb, fc.constantFrom(...keys), filtersArb, (issue, key, source) => {
        const values = (source[key] ?? []) as string[];
        fc.pre(values.length > 0);
        const union = matchesFilters(issue, { [key]: values } as IssueFilters, TODAY);
        const any = values.some((v) => matchesFilters(issue, { [key]: [v] } as IssueFilters, TODAY));
        expect(union).toBe(any);
      }),
    );
  });

  it("reads relative dates as the absolute day they resolve to, and never matches a missing date", () => {
    fc.assert(
      fc.property(issueArb, dateTermArb, (issue, term) => {
        const resolved = resolveDateTerm(term, TODAY);
        const absolute: DateTerm = { kind: "absolute", ...resolved };
        expect(matchesFilters(issue, { target_date: [term] }, TODAY)).toBe(
          matchesFilters(issue, { target_date: [absolute] }, TODAY),
        );
        if (!issue.target_date) expect(matchesFilters(issue, { target_date: [term] }, TODAY)).toBe(false);
      }),
    );
  });

  it("follows the examples", () => {
    const issue: FilterableIssue = {
      priority: "high",
      state_id: ids[0] as string,
      state__group: "started",
      assignee_ids: [ids[1] as string],
      label_ids: [],
      created_by: ids[2] as string,
      start_date: "2026-03-01",
      target_date: "2026-03-20",
      project_id: ids[0] as string,
    };
    const m = (filters: IssueFilters) => matchesFilters(issue, filters, TODAY);
    expect(m({ priority: ["urgent", "high"] })).toBe(true);
    expect(m({ priority: ["low"] })).toBe(false);
    expect(m({ labels: ["None"] })).toBe(true);
    expect(m({ assignees: ["None"] })).toBe(false);
    expect(m({ assignees: [ids[0] as string, ids[1] as string] })).toBe(true);
    expect(m({ state_group: ["backlog"] })).toBe(false);
    expect(
      m({ target_date: [{ kind: "relative", op: "before", amount: 1, unit: "weeks", direction: "fromnow" }] }),
    ).toBe(true);
    expect(
      m({ target_date: [{ kind: "relative", op: "after", amount: 1, unit: "weeks", direction: "fromnow" }] }),
    ).toBe(false);
    expect(m({ start_date: [{ kind: "absolute", op: "on", date: "2026-03-01" }] })).toBe(true);
    expect(m({ subscriber: [ids[0] as string] })).toBe(false);
    expect(m({ cycle: ["None"], module: ["None"] })).toBe(true);
    expect(m({ cycle: [ids[0] as string] })).toBe(false);
    expect(m({ mentions: [ids[0] as string], issue_type: ["x"] })).toBe(true);
    expect(
      matchesFilters(
        issue,
        { target_date: [{ kind: "relative", op: "before", amount: 1, unit: "weeks", direction: "fromnow" }] },
        new Date("2026-03-15T12:00:00"),
      ),
    ).toBe(true);
  });
});

describe("display scope and search", () => {
  const base: FilterableIssue = {
    priority: "none",
    state_id: null,
    state__group: "backlog",
    assignee_ids: [],
    label_ids: [],
    created_by: null,
    start_date: null,
    target_date: null,
    project_id: ids[0] as string,
    name: "Fix the Login page",
    sequence_id: 42,
  };

  it("keeps active (unstarted, started) or backlog items, and top-level ones without sub_issue", () => {
    expect(matchesDisplayScope(base, { type: "backlog" })).toBe(true);
    expect(matchesDisplayScope(base, { type: "active" })).toBe(false);
    expect(matchesDisplayScope({ ...base, state__group: "started" }, { type: "active" })).toBe(true);
    expect(matchesDisplayScope({ ...base, state__group: "unstarted" }, { type: "active" })).toBe(true);
    expect(matchesDisplayScope({ ...base, state__group: "completed" }, { type: "active" })).toBe(false);
    expect(matchesDisplayScope({ ...base, parent_id: ids[1] }, { sub_issue: false })).toBe(false);
    expect(matchesDisplayScope({ ...base, parent_id: ids[1] }, { sub_issue: true })).toBe(true);
  });

  it("finds by name or number", () => {
    expect(matchesSearch(base, "login")).toBe(true);
    expect(matchesSearch(base, "42")).toBe(true);
    expect(matchesSearch(base, "#42")).toBe(true);
    expect(matchesSearch(base, "web-42", "WEB")).toBe(true);
    expect(matchesSearch(base, "API-42", "WEB")).toBe(false);
    expect(matchesSearch(base, "4")).toBe(false);
    expect(matchesSearch(base, "  ")).toBe(true);
    expect(parseSequenceSearch("WEB-12")).toEqual({ identifier: "WEB", sequence: 12 });
    expect(parseSequenceSearch("hello")).toBeNull();
  });
});
