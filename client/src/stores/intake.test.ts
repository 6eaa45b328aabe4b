import { describe, expect, it } from "vitest";
import {
  compareRequests,
  effectiveStatus,
  INTAKE_STATUS,
  type IntakeRequest,
  intakeListParams,
  listStatuses,
  matchesList,
  NO_INTAKE_FILTERS,
  patched,
  tabOf,
} from "./intake";

const NOW = Date.parse("2026-06-01T12:00:00Z");
const NONE = NO_INTAKE_FILTERS;

function request(over: Partial<IntakeRequest> = {}, issue: Partial<IntakeRequest["issue"]> = {}): IntakeRequest {
  return {
    id: "r1",
    status: INTAKE_STATUS.pending,
    snoozed_till: null,
    duplicate_to: null,
    duplicate_issue_detail: null,
    source: "IN_APP",
    project: "p",
    workspace: "w",
    created_by: "u",
    updated_by: "u",
    created_at: "2026-05-01T00:00:00.000Z",
    updated_at: "2026-05-01T00:00:00.000Z",
    ...over,
    issue: {
      id: "i1",
      name: "Request",
      sequence_id: 1,
      project_id: "p",
      priority: "none",
      description_html: null,
      state_id: null,
      label_ids: [],
      assignee_ids: [],
      created_at: "2026-05-01T00:00:00.000Z",
      updated_at: "2026-05-01T00:00:00.000Z",
      created_by: "u",
      ...issue,
    },
  };
}

describe("intake tabs (product-domain §4)", () => {
  it("a snoozed request is open until its date, then pending", () => {
    const future = request({ status: INTAKE_STATUS.snoozed, snoozed_till: "2026-06-02T00:00:00Z" });
    const past = request({ status: INTAKE_STATUS.snoozed, snoozed_till: "2026-05-30T00:00:00Z" });
    expect(effectiveStatus(future, NOW)).toBe(INTAKE_STATUS.snoozed);
    expect(effectiveStatus(past, NOW)).toBe(INTAKE_STATUS.pending);
    expect(tabOf(future)).toBe("open");
  });

  it("accepted, declined and duplicate are closed", () => {
    for (const status of [INTAKE_STATUS.accepted, INTAKE_STATUS.declined, INTAKE_STATUS.duplicate])
      expect(tabOf(request({ status }))).toBe("closed");
  });

  it("the status filter narrows the tab and ignores the other tab's statuses", () => {
    expect(listStatuses("open", { ...NONE, priority: [], status: [] })).toEqual([-2, 0]);
    expect(listStatuses("closed", { ...NONE, priority: [], status: [INTAKE_STATUS.declined] })).toEqual([-1]);
    expect(listStatuses("open", { ...NONE, priority: [], status: [INTAKE_STATUS.declined] })).toEqual([-2, 0]);
  });

  it("matches the list by status and priority", () => {
    const r = request({}, { priority: "high" });
    expect(matchesList(r, "open", { ...NONE, priority: [], status: [] })).toBe(true);
    expect(matchesList(r, "open", { ...NONE, priority: ["low"], status: [] })).toBe(false);
    expect(matchesList(r, "closed", { ...NONE, priority: [], status: [] })).toBe(false);
  });

  it("matches labels and assignees by any of the chosen, and the submitter", () => {
    const r = request({ created_by: "guest" }, { label_ids: ["bug", "ui"], assignee_ids: ["ann"] });
    expect(matchesList(r, "open", { ...NONE, labels: ["ui", "docs"] })).toBe(true);
    expect(matchesList(r, "open", { ...NONE, labels: ["docs"] })).toBe(false);
    expect(matchesList(r, "open", { ...NONE, assignees: ["bob", "ann"] })).toBe(true);
    expect(matchesList(r, "open", { ...NONE, assignees: ["bob"] })).toBe(false);
    expect(matchesList(r, "open", { ...NONE, created_by: ["guest"] })).toBe(true);
    expect(matchesList(r, "open", { ...NONE, created_by: ["ann"] })).toBe(false);
    // Every filter at once.
    expect(matchesList(r, "open", { ...NONE, labels: ["bug"], assignees: ["bob"] })).toBe(false);
  });
});

describe("intake changes", () => {
  it("a snooze date makes it snoozed, clearing it makes it pending", () => {
    const snoozed = patched(request(), { snoozed_till: "2099-01-01T00:00:00Z" });
    expect(snoozed.status).toBe(INTAKE_STATUS.snoozed);
    const back = patched(snoozed, { snoozed_till: null });
    expect(back).toMatchObject({ status: INTAKE_STATUS.pending, snoozed_till: null });
  });

  it("duplicate keeps its target; any other status drops it", () => {
    const target = { id: "t", sequence_id: 4, name: "Original", project_id: "p" };
    const dup = patched(request(), { status: INTAKE_STATUS.duplicate, duplicate_to: "t" }, target);
    expect(dup).toMatchObject({ duplicate_to: "t", duplicate_issue_detail: target });
    expect(patched(dup, { status: INTAKE_STATUS.pending })).toMatchObject({
      duplicate_to: null,
      duplicate_issue_detail: null,
    });
  });

  it("edits reach the work item", () => {
    expect(patched(request(), { issue: { name: "New" } }).issue.name).toBe("New");
  });
});

describe("intake paging and order (§9)", () => {
  it("asks for 10 a page from 10:0:0, newest first by default", () => {
    expect(
      intakeListParams("open", { ...NONE, priority: ["high", "urgent"], status: [] }, "-created_at", "10:0:0"),
    ).toEqual({
      status: "-2,0",
      order_by: "-created_at",
      per_page: "10",
      cursor: "10:0:0",
      priority: "high,urgent",
    });
    const people = { ...NONE, labels: ["l1", "l2"], assignees: ["u1"], created_by: ["u2"] };
    expect(intakeListParams("closed", people, "updated_at", "10:0:0")).toMatchObject({
      labels: "l1,l2",
      assignees: "u1",
      created_by: "u2",
    });
  });

  it("sorts by the work item's dates", () => {
    const a = request({ id: "a" }, { created_at: "2026-05-01T00:00:00Z" });
    const b = request({ id: "b" }, { created_at: "2026-05-02T00:00:00Z" });
    expect([a, b].sort(compareRequests("-created_at")).map((r) => r.id)).toEqual(["b", "a"]);
    expect([b, a].sort(compareRequests("created_at")).map((r) => r.id)).toEqual(["a", "b"]);
  });
});
