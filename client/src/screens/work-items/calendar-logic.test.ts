import { parseIssueFilters } from "@tideline/shared";
import { describe, expect, it } from "vitest";
import {
  anchorFromParam,
  bucketByTargetDate,
  calendarWeeks,
  inShownPeriod,
  periodTitle,
  shiftAnchor,
  splitOverflow,
  stepDay,
  weekdayColumns,
} from "./calendar-logic";
import { filterItems, type PipelineItem, sortItems } from "./pipeline";

const dates = (weeks: ReturnType<typeof calendarWeeks>) => weeks.map((w) => w.days.map((d) => d.date));

describe("calendar grid", () => {
  it("lays a month out in Sunday-to-Saturday weeks with the leading and trailing days", () => {
    // November 2026 starts on a Sunday and ends on a Monday.
    const weeks = calendarWeeks("2026-11-25", "month", true);
    expect(weeks).toHaveLength(5);
    expect(weeks[0]?.days.map((d) => d.date)).toEqual([
      "2026-11-01",
      "2026-11-02",
      "2026-11-03",
      "2026-11-04",
      "2026-11-05",
      "2026-11-06",
      "2026-11-07",
    ]);
    const last = weeks[4]?.days ?? [];
    expect(last.map((d) => d.date)).toEqual([
      "2026-11-29",
      "2026-11-30",
      "2026-12-01",
      "2026-12-02",
      "2026-12-03",
      "2026-12-04",
      "2026-12-05",
    ]);
    expect(last.map((d) => d.inPeriod)).toEqual([true, true, false, false, false, false, false]);
    expect(weeks.every((w) => w.days[0]?.weekday === 0 && w.days.length === 7)).toBe(true);
  });

  it("starts with the previous month's days when the month starts mid-week", () => {
    // October 2026 starts on a Thursday: Sep 27–30 lead.
    const weeks = calendarWeeks("2026-10-10", "month", true);
    expect(weeks[0]?.days.slice(0, 5).map((d) => [d.date, d.inPeriod])).toEqual([
      ["2026-09-27", false],
      ["2026-09-28", false],
      ["2026-09-29", false],
      ["2026-09-30", false],
      ["2026-10-01", true],
    ]);
    expect(weeks.at(-1)?.days.at(-1)?.date).toBe("2026-10-31");
    expect(weeks).toHaveLength(5);
    // May 2026 starts on a Friday and ends on a Sunday: six rows, the last with June's days.
    const may = calendarWeeks("2026-05-01", "month", true);
    expect(may).toHaveLength(6);
    expect(may.at(-1)?.days.map((d) => d.inPeriod)).toEqual([true, false, false, false, false, false, false]);
  });

  it("handles a leap February and a year boundary", () => {
    const feb = calendarWeeks("2028-02-29", "month", true);
    expect(feb.flatMap((w) => w.days).filter((d) => d.inPeriod)).toHaveLength(29);
    const jan = calendarWeeks("2027-01-01", "month", true);
    expect(jan[0]?.days[0]?.date).toBe("2026-12-27");
  });

  it("hides Saturday and Sunday columns without weekends", () => {
    const weeks = calendarWeeks("2026-11-25", "month", false);
    expect(weeks.every((w) => w.days.length === 5)).toBe(true);
    expect(weeks.flatMap((w) => w.days).some((d) => d.weekday === 0 || d.weekday === 6)).toBe(false);
    expect(weeks[0]?.days[0]?.date).toBe("2026-11-02");
    expect(weekdayColumns(false)).toEqual([1, 2, 3, 4, 5]);
    expect(weekdayColumns(true)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("drops a month's row made only of other months' weekdays when weekends are hidden", () => {
    // August 2026 starts on a Saturday: its first week's Monday–Friday are all in July.
    expect(dates(calendarWeeks("2026-08-15", "month", true))[0]?.[6]).toBe("2026-08-01");
    const weeks = dates(calendarWeeks("2026-08-15", "month", false));
    expect(weeks[0]?.[0]).toBe("2026-08-03");
  });

  it("shows the one week holding the anchor in week mode", () => {
    expect(dates(calendarWeeks("2026-11-25", "week", true))).toEqual([
      ["2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28"],
    ]);
    expect(dates(calendarWeeks("2026-11-22", "week", false))).toEqual([
      ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27"],
    ]);
    // A week across the year's end.
    expect(dates(calendarWeeks("2026-12-31", "week", true))[0]?.[6]).toBe("2027-01-02");
  });
});

describe("navigation", () => {
  it("moves by a month (clamped to the month's last day) or a week", () => {
    expect(shiftAnchor("2026-01-31", "month", 1)).toBe("2026-02-28");
    expect(shiftAnchor("2026-11-25", "month", -1)).toBe("2026-10-25");
    expect(shiftAnchor("2026-12-30", "week", 1)).toBe("2027-01-06");
  });

  it("reads ?date= only when it is a real day", () => {
    expect(anchorFromParam("2026-02-10", "2026-11-25")).toBe("2026-02-10");
    expect(anchorFromParam("2026-02-30", "2026-11-25")).toBe("2026-11-25");
    expect(anchorFromParam("tomorrow", "2026-11-25")).toBe("2026-11-25");
    expect(anchorFromParam(null, "2026-11-25")).toBe("2026-11-25");
  });

  it("steps the keyboard focus by days and rows, skipping hidden weekends", () => {
    expect(stepDay("2026-11-27", 1, true)).toBe("2026-11-28");
    expect(stepDay("2026-11-27", 1, false)).toBe("2026-11-30");
    expect(stepDay("2026-11-30", -1, false)).toBe("2026-11-27");
    expect(stepDay("2026-11-25", 7, true)).toBe("2026-12-02");
    expect(stepDay("2026-11-25", 5, false)).toBe("2026-12-02");
    expect(stepDay("2026-11-25", -5, false)).toBe("2026-11-18");
  });

  it("knows whether a day is in the shown period", () => {
    expect(inShownPeriod("2026-11-01", "2026-11-25", "month")).toBe(true);
    expect(inShownPeriod("2026-12-01", "2026-11-25", "month")).toBe(false);
    expect(inShownPeriod("2026-11-22", "2026-11-28", "week")).toBe(true);
    expect(inShownPeriod("2026-11-29", "2026-11-28", "week")).toBe(false);
  });

  it("titles the period", () => {
    expect(periodTitle("2026-11-25", "month", "en-US")).toBe("November 2026");
    expect(periodTitle("2026-11-25", "week", "en-US")).toMatch(/^Nov 22\s*–\s*28, 2026$/);
    expect(periodTitle("2026-11-25", "week", "en-US", true)).toMatch(/^Nov 22\s*–\s*28$/);
    // Across a new year the years stay (Intl adds them where the ends differ).
    expect(periodTitle("2026-12-30", "week", "en-US", true)).toMatch(/2026.*2027/);
  });
});

let seq = 0;
function item(patch: Partial<PipelineItem>): PipelineItem {
  seq += 1;
  return {
    id: `00000000-0000-4000-9000-${String(seq).padStart(12, "0")}`,
    name: `Item ${seq}`,
    sequence_id: seq,
    sort_order: seq * 10000,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    project_id: "p",
    priority: "none",
    state_id: null,
    state__group: "unstarted",
    assignee_ids: [],
    label_ids: [],
    created_by: null,
    start_date: null,
    target_date: null,
    estimate_point: null,
    archived_at: null,
    is_draft: false,
    parent_id: null,
    ...patch,
  };
}

describe("bucketing by target date", () => {
  it("puts the pipeline's items on their day in its order and counts the undated ones", () => {
    const a = item({ target_date: "2026-11-25", priority: "low" });
    const b = item({ target_date: "2026-11-25", priority: "urgent" });
    const c = item({ target_date: "2026-11-26T00:00:00.000Z", priority: "high" });
    const d = item({ target_date: null, priority: "urgent" });
    const archived = item({ target_date: "2026-11-25", priority: "urgent", archived_at: "2026-11-01T00:00:00Z" });
    const draft = item({ target_date: "2026-11-25", priority: "urgent", is_draft: true });
    const ctx = { states: [], labels: [], members: [], estimatePoints: [], today: "2026-11-25" };
    const { filters } = parseIssueFilters({ priority: "urgent,low,high" });
    const filtered = filterItems([a, b, c, d, archived, draft], { filters, scope: {} }, ctx.today);
    const { byDate, undated } = bucketByTargetDate(sortItems(filtered, "priority", ctx));
    expect(byDate.get("2026-11-25")?.map((i) => i.id)).toEqual([b.id, a.id]);
    expect(byDate.get("2026-11-26")?.map((i) => i.id)).toEqual([c.id]);
    expect(undated).toBe(1);
    expect([...byDate.keys()].sort()).toEqual(["2026-11-25", "2026-11-26"]);

    // A filter the items don't pass leaves their days empty.
    const onlyHigh = parseIssueFilters({ priority: "high" }).filters;
    const narrowed = bucketByTargetDate(filterItems([a, b, c, d], { filters: onlyHigh, scope: {} }, ctx.today));
    expect(narrowed.byDate.has("2026-11-25")).toBe(false);
    expect(narrowed.undated).toBe(0);
  });
});

describe("overflow", () => {
  it("keeps every item when they fit, else leaves the last row to '+N more'", () => {
    expect(splitOverflow([1, 2, 3], 3)).toEqual({ shown: [1, 2, 3], more: 0 });
    expect(splitOverflow([1, 2, 3, 4, 5], 3)).toEqual({ shown: [1, 2], more: 3 });
    expect(splitOverflow([1, 2], 1)).toEqual({ shown: [], more: 2 });
    expect(splitOverflow([], 3)).toEqual({ shown: [], more: 0 });
  });
});
