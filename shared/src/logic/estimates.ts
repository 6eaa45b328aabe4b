/**
 * Rules for estimate points, shared by the create form and the server so both refuse the
 * same things with the same words: 2 to 6 points, values of at most 20 characters, numbers
 * for a points scale, and no value twice in one estimate.
 */
import {
  ESTIMATE_POINT_VALUE_MAX,
  ESTIMATE_POINTS_MAX,
  ESTIMATE_POINTS_MIN,
  ESTIMATE_TEMPLATES,
  type EstimateType,
} from "../constants/estimates.ts";

/** A decimal number as typed: "3", "0.5", "13.0"; no signs other than none, no exponents. */
const NUMERIC = /^\d+(\.\d+)?$/;

/** Why `value` can't be a point of an estimate of `type`, or null when it can. */
export function estimatePointValueError(type: EstimateType, value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return "Enter a value for this point.";
  if (trimmed.length > ESTIMATE_POINT_VALUE_MAX)
    return `A point can be at most ${ESTIMATE_POINT_VALUE_MAX} characters long.`;
  if (type === "points" && !NUMERIC.test(trimmed)) return "Points must be numbers, such as 1, 2 or 0.5.";
  return null;
}

/** Two values name the same point when they are equal as numbers (points) or ignoring case (categories). */
export function sameEstimateValue(type: EstimateType, a: string, b: string): boolean {
  if (type === "points" && NUMERIC.test(a.trim()) && NUMERIC.test(b.trim())) return Number(a) === Number(b);
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export type EstimatePointsProblem = { message: string; index: number | null };

/**
 * The first problem with a whole set of point values (in order), or null. `index` names the
 * offending point, or is null when the count is wrong.
 */
export function estimatePointsProblem(type: EstimateType, values: readonly string[]): EstimatePointsProblem | null {
  if (values.length < ESTIMATE_POINTS_MIN || values.length > ESTIMATE_POINTS_MAX) {
    return {
      message: `An estimate needs between ${ESTIMATE_POINTS_MIN} and ${ESTIMATE_POINTS_MAX} points.`,
      index: null,
    };
  }
  for (const [index, value] of values.entries()) {
    const error = estimatePointValueError(type, value);
    if (error) return { message: error, index };
    if (values.slice(0, index).some((earlier) => sameEstimateValue(type, earlier, value))) {
      return { message: `"${value.trim()}" is already a point of this estimate.`, index };
    }
  }
  return null;
}

/** The points of a template, keyed 1..n in order, ready for a create request. */
export function estimateTemplatePoints(templateKey: string): { key: number; value: string }[] {
  const template = ESTIMATE_TEMPLATES.find((t) => t.key === templateKey);
  return template ? template.values.map((value, i) => ({ key: i + 1, value })) : [];
}
