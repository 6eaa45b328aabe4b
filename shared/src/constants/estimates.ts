/**
 * Estimates (product-domain §3, §5, §9): three kinds of scale, 2 to 6 points each, and the
 * ready-made templates the create form offers. "time" exists in the data model but is an
 * enterprise feature, so this edition refuses it.
 */

export const ESTIMATE_TYPES = ["points", "categories", "time"] as const;
export type EstimateType = (typeof ESTIMATE_TYPES)[number];

/** The types this edition can create. */
export const AVAILABLE_ESTIMATE_TYPES = ["points", "categories"] as const satisfies readonly EstimateType[];

export const ESTIMATE_POINTS_MIN = 2;
export const ESTIMATE_POINTS_MAX = 6;
/** Longest value of one point ("Maximum name length 20" in the spec's constants). */
export const ESTIMATE_POINT_VALUE_MAX = 20;
export const ESTIMATE_NAME_MAX = 255;

export const ESTIMATE_TIME_UNAVAILABLE = "Time estimates are available in the enterprise edition.";

export type EstimateTemplate = {
  key: string;
  name: string;
  type: Exclude<EstimateType, "time">;
  values: readonly string[];
};

export const ESTIMATE_TEMPLATES: readonly EstimateTemplate[] = [
  { key: "fibonacci", name: "Fibonacci", type: "points", values: ["1", "2", "3", "5", "8", "13"] },
  { key: "linear", name: "Linear", type: "points", values: ["1", "2", "3", "4", "5", "6"] },
  { key: "squares", name: "Squares", type: "points", values: ["1", "4", "9", "16", "25", "36"] },
  { key: "t-shirt-sizes", name: "T-Shirt Sizes", type: "categories", values: ["XS", "S", "M", "L", "XL", "XXL"] },
  { key: "easy-to-hard", name: "Easy to hard", type: "categories", values: ["Easy", "Medium", "Hard", "Very Hard"] },
];
