import type { DomainEvent } from "@tideline/shared";
import { beforeAll, describe, expect, it, vi } from "vitest";

/**
 * The transport is replaced by a fake that records each channel subscription, so the test can
 * play the server's side (events, (re)syncs) without a socket.
 */
type FakeChannel = {
  name: string;
  onStateless: (message: { payload: string }) => void;
  onSynced: (message: { state: boolean }) => void;
  destroyed: boolean;
};
const channels: FakeChannel[] = [];

vi.mock("@hocuspocus/provider", () => ({
  HocuspocusProviderWebsocket: class {
    status = "connected";
  },
  HocuspocusProvider: class {
    channel: FakeChannel;
    constructor(options: Omit<FakeChannel, "destroyed">) {
      this.channel = {
        name: options.name,
        onStateless: options.onStateless,
        onSynced: options.onSynced,
        destroyed: false,
      };
      channels.push(this.channel);
    }
    attach() {}
    destroy() {
      this.channel.destroyed = true;
    }
  },
}));

beforeAll(() => {
  vi.stubGlobal("window", { location: { protocol: "http:", host: "localhost" }, addEventListener: () => undefined });
});

let n = 0;
function send(channel: FakeChannel | undefined): DomainEvent {
  n += 1;
  const event = { id: `e${n}`, type: "cycle.updated", data: {} } as unknown as DomainEvent;
  channel?.onStateless({ payload: JSON.stringify({ type: "event", event }) });
  return event;
}

describe("watchSharedChannel", () => {
  it("shares one subscription per channel between watchers and closes it with the last one", async () => {
    const { watchSharedChannel } = await import("./live");
    const applied: string[] = [];
    const heard: string[] = [];
    const store = { apply: (e: DomainEvent) => applied.push(e.id), catchUp: async () => undefined };
    const stopFirst = watchSharedChannel("project.a", store, { onEvent: (e) => heard.push(`first:${e.id}`) });
    const stopSecond = watchSharedChannel("project.a", store, { onEvent: (e) => heard.push(`second:${e.id}`) });
    const opened = channels.filter((c) => c.name === "project.a");
    expect(opened).toHaveLength(1);

    const event = send(opened[0]);
    expect(applied).toEqual([event.id]);
    expect(heard).toEqual([`first:${event.id}`, `second:${event.id}`]);

    stopFirst();
    stopFirst(); // a second call must not count twice
    expect(opened[0]?.destroyed).toBe(false);
    const later = send(opened[0]);
    expect(heard.at(-1)).toBe(`second:${later.id}`);
    expect(heard.filter((h) => h.startsWith("first:"))).toHaveLength(1);

    stopSecond();
    expect(opened[0]?.destroyed).toBe(true);
    watchSharedChannel("project.a", store)();
    expect(channels.filter((c) => c.name === "project.a")).toHaveLength(2);
  });

  it("tells the listeners of a (re)sync, catches the store up and holds events until it is done", async () => {
    const { watchSharedChannel } = await import("./live");
    const order: string[] = [];
    let finishCatchUp = () => {};
    const store = {
      apply: (e: DomainEvent) => order.push(`apply:${e.id}`),
      catchUp: () =>
        new Promise<void>((resolve) => {
          order.push("catch-up");
          finishCatchUp = resolve;
        }),
    };
    const stop = watchSharedChannel("workspace.w", store, { onSynced: () => order.push("listener-synced") });
    const channel = channels.find((c) => c.name === "workspace.w");
    channel?.onSynced({ state: true });
    await Promise.resolve();
    const held = send(channel);
    expect(order).toEqual(["listener-synced", "catch-up"]);
    finishCatchUp();
    await vi.waitFor(() => expect(order).toEqual(["listener-synced", "catch-up", `apply:${held.id}`]));
    stop();
  });
});
