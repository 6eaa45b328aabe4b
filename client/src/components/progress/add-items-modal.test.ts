import { describe, expect, it } from "vitest";
import type { WorkItem } from "../../stores/work-items";
import { addableItems } from "./add-items-modal";

const item = (id: string, name: string, seq: number, extra: Partial<WorkItem> = {}) =>
  ({
    id,
    name,
    sequence_id: seq,
    module_ids: [],
    archived_at: null,
    is_draft: false,
    is_epic: false,
    ...extra,
  }) as WorkItem;

describe("addableItems (shared by cycles and modules)", () => {
  const items = [
    item("a", "Cart summary", 1, { module_ids: ["m1"] }),
    item("b", "Payment form", 12),
    item("c", "Draft idea", 3, { is_draft: true }),
    item("temp-1", "Saving…", 4),
  ];
  const inM1 = (i: WorkItem) => i.module_ids.includes("m1");
  it("leaves out what is already in, drafts and unsaved items", () => {
    expect(addableItems(items, inM1, "", "AT").map((i) => i.id)).toEqual(["b"]);
  });
  it("never offers an epic, even when it matches the query", () => {
    const withEpic = [...items, item("e", "Payments epic", 20, { is_epic: true })];
    expect(addableItems(withEpic, () => false, "payment", "AT").map((i) => i.id)).toEqual(["b"]);
    expect(addableItems(withEpic, inM1, "", "AT").map((i) => i.id)).toEqual(["b"]);
  });
  it("finds an item by its number alone as well as by key and name", () => {
    expect(addableItems(items, () => false, "12", "AT").map((i) => i.id)).toEqual(["b"]);
    expect(addableItems(items, () => false, "at-1", "AT").map((i) => i.id)).toEqual(["a", "b"]);
    expect(addableItems(items, () => false, "PAYMENT", "AT").map((i) => i.id)).toEqual(["b"]);
  });
});
