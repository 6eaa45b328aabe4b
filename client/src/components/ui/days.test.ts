import { describe, expect, it } from "vitest";
import { parseDay, showDay, toDay } from "./days";

describe("days of the date picker", () => {
  it("reads an API day as local midnight and writes it back unchanged", () => {
    const date = parseDay("2026-01-05");
    expect(date).toEqual(new Date(2026, 0, 5));
    expect(toDay(date as Date)).toBe("2026-01-05");
    // A timestamp's first ten characters are its day.
    expect(parseDay("2026-01-05T23:30:00Z")).toEqual(new Date(2026, 0, 5));
  });

  it("refuses what is not a real day (no silent roll-over into the next month)", () => {
    for (const bad of ["2026-02-30", "2026-13-01", "2026-00-10", "05/01/2026", "", null, undefined]) {
      expect(parseDay(bad), String(bad)).toBeNull();
    }
    expect(parseDay("2028-02-29")).toEqual(new Date(2028, 1, 29));
  });

  it("shows a day as MMM dd, yyyy", () => {
    expect(showDay("2026-01-05")).toBe("Jan 05, 2026");
    expect(showDay(null)).toBe("");
    expect(showDay("2026-02-30")).toBe("");
  });
});
