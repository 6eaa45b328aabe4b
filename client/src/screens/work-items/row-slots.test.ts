import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assignRowSlots, NO_SLOTS, type RowSlots } from "./row-slots";

const slotsOf = (slots: RowSlots, ids: string[]) => ids.map((id) => slots.byRow.get(id));

describe("assignRowSlots", () => {
  it("gives each row of a first screen its own new slot", () => {
    const slots = assignRowSlots(NO_SLOTS, ["a", "b", "c"], new Set());
    expect(slotsOf(slots, ["a", "b", "c"])).toEqual(["s0", "s1", "s2"]);
    expect(slots.made).toBe(3);
  });

  it("keeps the slot of a row that stays, wherever it moves", () => {
    const first = assignRowSlots(NO_SLOTS, ["a", "b", "c"], new Set());
    const next = assignRowSlots(first, ["c", "x", "a"], new Set());
    expect(next.byRow.get("a")).toBe("s0");
    expect(next.byRow.get("c")).toBe("s2");
  });

  it("hands a row that arrives the slot of one that left, without making new ones", () => {
    const first = assignRowSlots(NO_SLOTS, ["a", "b", "c"], new Set());
    const next = assignRowSlots(first, ["x", "y", "c"], new Set());
    expect(slotsOf(next, ["x", "y", "c"])).toEqual(["s0", "s1", "s2"]);
    expect(next.made).toBe(3);
  });

  it("never hands on a busy slot (a focused row, an open picker)", () => {
    const first = assignRowSlots(NO_SLOTS, ["a", "b"], new Set());
    const next = assignRowSlots(first, ["x", "y"], new Set(["s0"]));
    expect(next.byRow.get("x")).toBe("s1");
    expect(next.byRow.get("y")).toBe("s2");
    expect([...next.byRow.values()]).not.toContain("s0");
  });

  it("makes new slots when more rows show than left", () => {
    const first = assignRowSlots(NO_SLOTS, ["a"], new Set());
    const next = assignRowSlots(first, ["a", "b", "c"], new Set());
    expect(slotsOf(next, ["a", "b", "c"])).toEqual(["s0", "s1", "s2"]);
  });

  it("gives distinct slots to distinct rows, and keeps every staying row's slot, over any sequence of screens", () => {
    const screen = fc.uniqueArray(fc.integer({ min: 0, max: 40 }).map(String), { maxLength: 25 });
    fc.assert(
      fc.property(fc.array(fc.tuple(screen, fc.array(fc.nat(30), { maxLength: 3 })), { maxLength: 12 }), (steps) => {
        let slots = NO_SLOTS;
        for (const [ids, busyAt] of steps) {
          const busy = new Set(busyAt.map((n) => `s${n}`));
          const next = assignRowSlots(slots, ids, busy);
          const given = ids.map((id) => next.byRow.get(id));
          expect(new Set(given).size).toBe(ids.length);
          for (const id of ids) {
            const before = slots.byRow.get(id);
            if (before !== undefined) expect(next.byRow.get(id)).toBe(before);
            // A new row never takes a busy slot of a row that left.
            else
              expect(
                busy.has(next.byRow.get(id) as string) &&
                  [...slots.byRow.values()].includes(next.byRow.get(id) as string),
              ).toBe(false);
          }
          expect(next.byRow.size).toBe(ids.length);
          slots = next;
        }
      }),
    );
  });
});
