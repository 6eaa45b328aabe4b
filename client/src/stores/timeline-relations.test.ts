import type { DomainEvent } from "@tideline/shared";
import { describe, expect, it } from "vitest";
import {
  applyTimelineRelationEvent,
  blockingPairOf,
  getBlockingPairs,
  resyncTimelineRelations,
  timelineRelations,
} from "./timeline-relations";

let sequence = 0;
function relationEvent(
  type: "relation.created" | "relation.deleted",
  projectId: string,
  data: { issue_id: string; related_issue_id: string; relation_type: string },
): DomainEvent {
  sequence += 1;
  return {
    id: `e${sequence}`,
    type,
    workspace_id: "w1",
    project_id: projectId,
    entity_id: `r-${data.issue_id}-${data.related_issue_id}`,
    actor_id: "u1",
    client_mutation_id: null,
    occurred_at: new Date(2026, 10, 25, 10, 0, sequence).toISOString(),
    data,
  };
}

describe("a relation event's blocking pair", () => {
  it("reads the relation as the event's item sees it", () => {
    expect(blockingPairOf({ issue_id: "b", related_issue_id: "a", relation_type: "blocked_by" })).toEqual({
      from: "a",
      to: "b",
    });
    expect(blockingPairOf({ issue_id: "a", related_issue_id: "b", relation_type: "blocking" })).toEqual({
      from: "a",
      to: "b",
    });
  });
  it("is none for the other relations or a malformed event", () => {
    for (const relation_type of ["relates_to", "duplicate", "start_before", "finish_after"]) {
      expect(blockingPairOf({ issue_id: "a", related_issue_id: "b", relation_type })).toBeNull();
    }
    expect(blockingPairOf({ issue_id: "a", relation_type: "blocking" })).toBeNull();
    expect(blockingPairOf({ issue_id: "", related_issue_id: "b", relation_type: "blocking" })).toBeNull();
  });
});

describe("live relation changes on the timeline", () => {
  it("a blocking relation created shows, once, and its deletion takes it away", () => {
    const before = timelineRelations.version.p1 ?? 0;
    const created = { issue_id: "b", related_issue_id: "a", relation_type: "blocked_by" };
    applyTimelineRelationEvent(relationEvent("relation.created", "p1", created));
    expect(getBlockingPairs("p1")).toEqual([{ from: "a", to: "b" }]);
    expect(timelineRelations.version.p1).toBe(before + 1);
    // Our own change's echo, or the same event twice: nothing more.
    applyTimelineRelationEvent(relationEvent("relation.created", "p1", created));
    expect(getBlockingPairs("p1")).toEqual([{ from: "a", to: "b" }]);
    expect(timelineRelations.version.p1).toBe(before + 1);

    applyTimelineRelationEvent(relationEvent("relation.deleted", "p1", created));
    expect(getBlockingPairs("p1")).toEqual([]);
    expect(timelineRelations.version.p1).toBe(before + 2);
  });

  it("a relation replaced by a non-blocking one (a deletion then a creation) leaves no arrow", () => {
    const blocking = { issue_id: "c", related_issue_id: "d", relation_type: "blocking" };
    applyTimelineRelationEvent(relationEvent("relation.created", "p2", blocking));
    expect(getBlockingPairs("p2")).toEqual([{ from: "c", to: "d" }]);
    applyTimelineRelationEvent(relationEvent("relation.deleted", "p2", blocking));
    applyTimelineRelationEvent(
      relationEvent("relation.created", "p2", { issue_id: "c", related_issue_id: "d", relation_type: "relates_to" }),
    );
    expect(getBlockingPairs("p2")).toEqual([]);
  });

  it("a pair across two projects goes when either project's deletion arrives", () => {
    // Each project's channel names the pair from its own item's side.
    applyTimelineRelationEvent(
      relationEvent("relation.created", "p3", { issue_id: "x", related_issue_id: "y", relation_type: "blocked_by" }),
    );
    applyTimelineRelationEvent(
      relationEvent("relation.created", "p4", { issue_id: "y", related_issue_id: "x", relation_type: "blocking" }),
    );
    expect(getBlockingPairs("p3")).toEqual([{ from: "y", to: "x" }]);
    expect(getBlockingPairs("p4")).toEqual([{ from: "y", to: "x" }]);
    applyTimelineRelationEvent(
      relationEvent("relation.deleted", "p4", { issue_id: "y", related_issue_id: "x", relation_type: "blocking" }),
    );
    expect(getBlockingPairs("p3")).toEqual([]);
    expect(getBlockingPairs("p4")).toEqual([]);
  });

  it("other events change nothing; a reconnection reads again only projects a timeline shows", () => {
    const versions = { ...timelineRelations.version };
    applyTimelineRelationEvent({
      ...relationEvent("relation.created", "p1", { issue_id: "b", related_issue_id: "a", relation_type: "blocked_by" }),
      type: "issue.updated",
    });
    expect(getBlockingPairs("p1")).toEqual([]);
    // No timeline shows p1 here: nothing is requested, nothing changes.
    resyncTimelineRelations("p1");
    expect({ ...timelineRelations.version }).toEqual(versions);
  });
});
