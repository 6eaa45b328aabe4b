import { describe, expect, it } from "vitest";
import { ESTIMATE_POINTS_MAX, ESTIMATE_POINTS_MIN, ESTIMATE_TEMPLATES } from "../constants/estimates.ts";
import {
  estimatePointsProblem,
  estimatePointValueError,
  estimateTemplatePoints,
  sameEstimateValue,
} from "./estimates.ts";

describe("estimate point values", () => {
  it("wants numbers on a points scale and any short text on a categories scale", () => {
    for (const ok of ["1", "13", "0.5", " 8 "]) expect(estimatePointValueError("points", ok)).toBeNull();
    for (const bad of ["XS", "1e3", "-1", "1.", "", "  ", "Infinity"])
      expect(estimatePointValueError("points", bad)).not.toBeNull();
    for (const ok of ["XS", "Very Hard", "3"]) expect(estimatePointValueError("categories", ok)).toBeNull();
    expect(estimatePointValueError("categories", "")).toBe("Enter a value for this point.");
    expect(estimatePointValueError("categories", "x".repeat(20))).toBeNull();
    expect(estimatePointValueError("categories", "x".repeat(21))).toMatch(/at most 20/);
  });

  it("treats equal numbers and case variants as the same point", () => {
    expect(sameEstimateValue("points", "1", "1.0")).toBe(true);
    expect(sameEstimateValue("points", "1", "2")).toBe(false);
    expect(sameEstimateValue("categories", "xs", " XS")).toBe(true);
    expect(sameEstimateValue("categories", "S", "XS")).toBe(false);
  });
});

describe("estimatePointsProblem", () => {
  it("accepts 2 to 6 distinct valid points", () => {
    expect(estimatePointsProblem("points", ["1", "2"])).toBeNull();
    expect(estimatePointsProblem("categories", ["XS", "S", "M", "L", "XL", "XXL"])).toBeNull();
  });

  it("refuses too few or too many points", () => {
    const few = estimatePointsProblem("points", ["1"]);
    expect(few).toEqual({
      index: null,
      message: `An estimate needs between ${ESTIMATE_POINTS_MIN} and ${ESTIMATE_POINTS_MAX} points.`,
    });
    expect(estimatePointsProblem("points", ["1", "2", "3", "4", "5", "6", "7"])?.index).toBeNull();
  });

  it("names the first bad or repeated point", () => {
    expect(estimatePointsProblem("points", ["1", "two", "3"])).toMatchObject({ index: 1 });
    expect(estimatePointsProblem("categories", ["S", "M", "s"])).toEqual({
      index: 2,
      message: '"s" is already a point of this estimate.',
    });
  });
});

describe("estimate templates", () => {
  it("are valid estimates of their own type", () => {
    for (const template of ESTIMATE_TEMPLATES) {
      expect(estimatePointsProblem(template.type, template.values), template.key).toBeNull();
    }
  });

  it("turn into keyed points", () => {
    expect(estimateTemplatePoints("easy-to-hard")).toEqual([
      { key: 1, value: "Easy" },
      { key: 2, value: "Medium" },
      { key: 3, value: "Hard" },
      { key: 4, value: "Very Hard" },
    ]);
    expect(estimateTemplatePoints("fibonacci").map((p) => p.value)).toEqual(["1", "2", "3", "5", "8", "13"]);
    expect(estimateTemplatePoints("nope")).toEqual([]);
  });
});
