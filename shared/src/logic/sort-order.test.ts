import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { issuePosition, labelPosition, statePosition } from "./sort-order.ts";

const finite = fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true });

describe("sort order", () => {
  it("follows the spec's constants at the ends and when empty", () => {
    expect(statePosition(null, null)).toBe(65535);
    expect(statePosition(null, 100)).toBe(100 - 65535);
    expect(statePosition(100, null)).toBe(100 + 65535);
    expect(issuePosition(null, 50000)).toBe(40000);
    expect(issuePosition(50000, null)).toBe(60000);
    expect(labelPosition(null, 300)).toBe(150);
    expect(labelPosition(300, null)).toBe(10300);
    expect(labelPosition(null, null)).toBe(65535);
  });

  it("always lands strictly between distinct neighbours", () => {
    fc.assert(
      fc.property(finite, finite, (a, b) => {
        fc.pre(Math.abs(a - b) > 1e-6);
        const [lo, hi] = a < b ? [a, b] : [b, a];
        for (const f of [statePosition, issuePosition, labelPosition]) {
          const p = f(lo, hi);
          expect(p).toBeGreaterThan(lo);
          expect(p).toBeLessThan(hi);
        }
      }),
    );
  });

  it("keeps order when moving to either end", () => {
    fc.assert(
      fc.property(finite, (x) => {
        expect(issuePosition(null, x)).toBeLessThan(x);
        expect(issuePosition(x, null)).toBeGreaterThan(x);
        expect(statePosition(null, x)).toBeLessThan(x);
        expect(statePosition(x, null)).toBeGreaterThan(x);
      }),
    );
  });
});
