import type { DomainEvent, DomainEventType } from "@tideline/shared";
import { describe, expect, it } from "vitest";
import {
  type CatchUpState,
  EventDeduper,
  LiveChannelSync,
  liveIndicatorStatus,
  type PlanContext,
  planEvent,
} from "./live-board-events";

let n = 0;
function ev(type: DomainEventType, data: Record<string, unknown>, extra: Partial<DomainEvent> = {}): DomainEvent {
  n += 1;
  return {
    id: `e${n}`,
    type,
    workspace_id: "w",
    project_id: "p",
    entity_id: typeof data.id === "string" ? data.id : "x",
    actor_id: "u",
    client_mutation_id: null,
    occurred_at: "2026-01-01T00:00:00Z",
    data,
    ...extra,
  };
}

const item = (id: string, updated_at: string) => ({ id, updated_at, project_id: "p", name: id, is_draft: false });

function ctx(cache: Record<string, { id: string; updated_at: string }> = {}, own: string[] = []): PlanContext {
  return { isOwnMutation: (id) => Boolean(id && own.includes(id)), cached: (id) => cache[id] };
}

describe("planEvent", () => {
  it("upserts created, updated, restored and archived items", () => {
    for (const type of ["issue.created", "issue.updated", "issue.restored", "issue.archived"] as const) {
      expect(planEvent(ev(type, item("a", "2026-01-02")), ctx())).toEqual({
        kind: "upsert",
        item: item("a", "2026-01-02"),
      });
    }
  });

  it("removes deleted items", () => {
    expect(planEvent(ev("issue.deleted", item("a", "t")), ctx())).toEqual({ kind: "remove", id: "a" });
  });

  it("skips the echo of our own change, drafts and events older than the cache", () => {
    expect(planEvent(ev("issue.updated", item("a", "2"), { client_mutation_id: "m1" }), ctx({}, ["m1"])).kind).toBe(
      "ignore",
    );
    expect(planEvent(ev("issue.created", { ...item("a", "2"), is_draft: true }), ctx()).kind).toBe("ignore");
    expect(planEvent(ev("issue.updated", item("a", "2026-01-01")), ctx({ a: item("a", "2026-01-02") })).kind).toBe(
      "ignore",
    );
    // Equal or newer: applied (idempotent).
    expect(planEvent(ev("issue.updated", item("a", "2026-01-02")), ctx({ a: item("a", "2026-01-02") })).kind).toBe(
      "upsert",
    );
  });

  it("maps detail events to the item and its widgets, with count changes", () => {
    expect(planEvent(ev("comment.created", { id: "c", issue: "a", issue_id: "a" }), ctx())).toEqual({
      kind: "detail",
      issueId: "a",
      widgets: ["timeline"],
    });
    expect(planEvent(ev("reaction.created", { id: "r", comment: "c", issue: "a" }), ctx())).toMatchObject({
      issueId: "a",
      widgets: ["timeline"],
    });
    expect(planEvent(ev("reaction.deleted", { id: "r", issue: "a" }), ctx())).toMatchObject({ widgets: ["item"] });
    expect(planEvent(ev("link.created", { id: "l", issue: "a" }), ctx())).toEqual({
      kind: "detail",
      issueId: "a",
      widgets: ["links", "timeline"],
      count: { field: "link_count", delta: 1 },
    });
    expect(planEvent(ev("link.updated", { id: "l", issue: "a" }), ctx())).not.toHaveProperty("count");
    expect(planEvent(ev("attachment.deleted", { id: "f", issue_id: "a" }), ctx())).toMatchObject({
      count: { field: "attachment_count", delta: -1 },
    });
    expect(planEvent(ev("relation.created", { id: "r", issue_id: "a" }), ctx())).toMatchObject({ issueId: "a" });
    expect(
      planEvent(ev("subscription.created", { issue_id: "a", subscribed: true }, { entity_id: "a" }), ctx()),
    ).toMatchObject({ issueId: "a", widgets: ["item"] });
    expect(planEvent(ev("comment.created", { id: "c" }), ctx()).kind).toBe("ignore");
  });

  it("reloads the project's metadata on state, label and estimate events; ignores the rest", () => {
    for (const type of ["state.created", "label.deleted", "estimate.updated"] as const) {
      expect(planEvent(ev(type, { id: "s" }), ctx()).kind).toBe("meta");
    }
    expect(planEvent(ev("page.created", { id: "x" }), ctx()).kind).toBe("ignore");
  });
});

describe("EventDeduper", () => {
  it("accepts an id once and forgets the oldest past its limit", () => {
    const d = new EventDeduper(2);
    expect(d.accept("a")).toBe(true);
    expect(d.accept("a")).toBe(false);
    d.accept("b");
    d.accept("c");
    expect(d.accept("a")).toBe(true);
    expect(d.accept("c")).toBe(false);
  });
});

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("LiveChannelSync", () => {
  it("applies events at once, each id once", () => {
    const applied: string[] = [];
    const sync = new LiveChannelSync({ apply: (e) => applied.push(e.id), catchUp: async () => undefined });
    const a = ev("issue.updated", item("a", "1"));
    sync.event(a);
    sync.event(a);
    expect(applied).toEqual([a.id]);
  });

  it("holds events during a catch-up and applies them after it, in order", async () => {
    const log: string[] = [];
    const gate = deferred();
    const sync = new LiveChannelSync({
      apply: (e) => log.push(e.id),
      catchUp: async () => {
        log.push("catch-up:start");
        await gate.promise;
        log.push("catch-up:done");
      },
    });
    const done = sync.synced();
    expect(sync.catchingUp).toBe(true);
    const a = ev("issue.created", item("a", "1"));
    const b = ev("issue.updated", item("a", "2"));
    sync.event(a);
    sync.event(b);
    sync.event(a);
    expect(log).toEqual(["catch-up:start"]);
    gate.resolve();
    await done;
    expect(log).toEqual(["catch-up:start", "catch-up:done", a.id, b.id]);
    expect(sync.catchingUp).toBe(false);
  });

  it("runs one more catch-up when a reconnection happens during one", async () => {
    const gates = [deferred(), deferred()];
    let calls = 0;
    const sync = new LiveChannelSync({
      apply: () => undefined,
      catchUp: () => {
        const gate = gates[calls];
        calls += 1;
        return gate ? gate.promise : Promise.resolve();
      },
    });
    const first = sync.synced();
    void sync.synced();
    void sync.synced();
    gates[0]?.resolve();
    await Promise.resolve();
    gates[1]?.resolve();
    await first;
    expect(calls).toBe(2);
  });

  it("still applies held events when the catch-up fails", async () => {
    const applied: string[] = [];
    const errors: unknown[] = [];
    const gate = deferred();
    const sync = new LiveChannelSync({
      apply: (e) => applied.push(e.id),
      catchUp: () => gate.promise,
      onError: (e) => errors.push(e),
    });
    const done = sync.synced();
    const a = ev("issue.created", item("a", "1"));
    sync.event(a);
    gate.reject(new Error("offline"));
    await done;
    expect(applied).toEqual([a.id]);
    expect(errors).toHaveLength(1);
  });

  it("drops everything after stop", async () => {
    const applied: string[] = [];
    const sync = new LiveChannelSync({ apply: (e) => applied.push(e.id), catchUp: async () => undefined });
    sync.stop();
    sync.event(ev("issue.created", item("a", "1")));
    await sync.synced();
    expect(applied).toEqual([]);
  });
});

describe("LiveChannelSync states", () => {
  it("says catching-up, then caught-up or failed after the last round (the held events applied first)", async () => {
    const log: string[] = [];
    let fail = true;
    const sync = new LiveChannelSync({
      apply: (e) => log.push(`apply:${e.id}`),
      catchUp: async () => {
        if (fail) throw new Error("offline");
      },
      onState: (state: CatchUpState) => log.push(state),
    });
    await sync.synced();
    expect(log).toEqual(["catching-up", "failed"]);
    fail = false;
    log.length = 0;
    await sync.synced();
    expect(log).toEqual(["catching-up", "caught-up"]);
  });

  it("a failed round followed by a successful one (a reconnection meanwhile) ends caught-up", async () => {
    const states: CatchUpState[] = [];
    const gate = deferred();
    let calls = 0;
    const sync = new LiveChannelSync({
      apply: () => undefined,
      catchUp: () => {
        calls += 1;
        return calls === 1 ? gate.promise : Promise.resolve();
      },
      onState: (state) => states.push(state),
    });
    const first = sync.synced();
    void sync.synced();
    gate.reject(new Error("dropped"));
    await first;
    expect(calls).toBe(2);
    expect(states).toEqual(["catching-up", "caught-up"]);
  });
});

describe("liveIndicatorStatus", () => {
  it("is live only when the socket is connected and the channel caught up", () => {
    expect(liveIndicatorStatus("connected", "live")).toBe("connected");
    expect(liveIndicatorStatus("connected", "catching-up")).toBe("catchingUp");
    expect(liveIndicatorStatus("connected", "connecting")).toBe("connecting");
    expect(liveIndicatorStatus("connected", undefined)).toBe("connecting");
    expect(liveIndicatorStatus("connected", "behind")).toBe("behind");
    expect(liveIndicatorStatus("offline", "live")).toBe("offline");
    expect(liveIndicatorStatus("connecting", "live")).toBe("connecting");
    expect(liveIndicatorStatus("offline", "behind")).toBe("offline");
  });

  it("says no access whatever the socket does once the channel was refused", () => {
    expect(liveIndicatorStatus("connected", "refused")).toBe("refused");
    expect(liveIndicatorStatus("offline", "refused")).toBe("refused");
  });
});
