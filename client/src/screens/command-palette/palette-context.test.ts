import { describe, expect, it } from "vitest";
import { workItemDetail } from "../../stores/work-item-detail";
import { paletteContext } from "./palette-context";

describe("where the palette was opened", () => {
  it("a project's screen names its project, and no work item", () => {
    expect(paletteContext("acme", "/acme/projects/p1/cycles/", "")).toEqual({ projectId: "p1", workItem: null });
    expect(paletteContext("acme", "/acme/projects/archives/", "")).toEqual({ projectId: null, workItem: null });
    expect(paletteContext("acme", "/acme/", "")).toEqual({ projectId: null, workItem: null });
  });

  it("a board's peek is the open work item", () => {
    expect(paletteContext("acme", "/acme/projects/p1/issues/", "?peekId=i9")).toEqual({
      projectId: "p1",
      workItem: { id: "i9", projectId: "p1" },
    });
    // An archived item's peek is read only: nothing to change.
    expect(paletteContext("acme", "/acme/projects/p1/archives/issues/", "?peekId=i9").workItem).toBeNull();
  });

  it("an epic's page, and a work item's page by its key once read", () => {
    expect(paletteContext("acme", "/acme/projects/p1/epics/e1/", "").workItem).toEqual({ id: "e1", projectId: "p1" });
    expect(paletteContext("acme", "/acme/browse/WEB-3/", "").workItem).toBeNull();
    workItemDetail.keys["WEB-3"] = { id: "i3", projectId: "p2" };
    expect(paletteContext("acme", "/acme/browse/web-3/", "")).toEqual({
      projectId: "p2",
      workItem: { id: "i3", projectId: "p2" },
    });
  });
});
