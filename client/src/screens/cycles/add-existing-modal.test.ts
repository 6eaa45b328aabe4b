import { describe, expect, it } from "vitest";
import type { WorkItem } from "../../stores/work-items";
import { addableItems } from "./add-existing-modal";

const item = (id: string, name: string, seq: number, extra: Partial<WorkItem> = {}) =>
  ({ id, name, sequence_id: seq, cycle_id: null, archived_at: null, is_draft: false, ...extra }) as WorkItem;

describe("addableItems", () => {
  const items = [
    item("a", "Login page", 1),
    item("b", "Logout", 2, { cycle_id: "c1" }),
    item("c", "Archived login", 3, { archived_at: "2026-01-01" }),
    item("d", "Signup", 4, { cycle_id: "c2" }),
    item("temp-x", "Login (saving)", 5),
  ];
  it("leaves out items already in the cycle, archived ones and unsaved ones", () => {
    expect(addableItems(items, "c1", "", "WEB").map((i) => i.id)).toEqual(["a", "d"]);
  });
  it("matches the name or the key", () => {
    expect(addableItems(items, "c1", "log", "WEB").map((i) => i.id)).toEqual(["a"]);
    expect(addableItems(items, "c1", "web-4", "WEB").map((i) => i.id)).toEqual(["d"]);
  });
});
