import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { STATE_GROUPS } from "../constants/project.ts";
import { addDays } from "./issue-filters.ts";
import { isClosedStateGroup, isOverdue } from "./overdue.ts";

describe("isOverdue", () => {
  it("is overdue on or after the target day while not completed or cancelled", () => {
    expect(isOverdue({ target_date: "2026-03-15", state__group: "started" }, "2026-03-15")).toBe(true);
    expect(isOverdue({ target_date: "2026-03-14", state__group: "backlog" }, "2026-03-15")).toBe(true);
    expect(isOverdue({ target_date: "2026-03-16", state__group: "started" }, "2026-03-15")).toBe(false);
    expect(isOverdue({ target_date: "2026-03-01", state__group: "completed" }, "2026-03-15")).toBe(false);
    expect(isOverdue({ target_date: "2026-03-01", state__group: "cancelled" }, "2026-03-15")).toBe(false);
    expect(isOverdue({ target_date: null, state__group: "started" }, "2026-03-15")).toBe(false);
    expect(isOverdue({ target_date: "2026-03-15T20:00:00Z" }, new Date(2026, 2, 15, 9))).toBe(true);
  });

  it("holds for every day and group", () => {
    fc.assert(
      fc.property(fc.integer({ min: -400, max: 400 }), fc.constantFrom(...STATE_GROUPS), (offset, group) => {
        const today = "2026-06-30";
        const target = addDays(today, offset);
        expect(isOverdue({ target_date: target, state__group: group }, today)).toBe(
          offset <= 0 && !isClosedStateGroup(group),
        );
      }),
    );
  });
});
