import { describe, expect, it } from "vitest";
import { LocalChanges } from "./local-changes";

/** A promise with its resolver, to hold a change "on its way to the server". */
function pending() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("LocalChanges", () => {
  it("keeps a fetch's copy when nothing changed here", () => {
    const changes = new LocalChanges();
    const since = changes.now();
    expect(changes.isNewerHere("a", since)).toBe(false);
  });

  it("drops a copy fetched while a change was in flight, and one fetched before it settled", async () => {
    const changes = new LocalChanges();
    const startedBefore = changes.now();
    const server = pending();
    const change = changes.track("a", () => server.promise);
    const startedDuring = changes.now();
    expect(changes.isNewerHere("a", startedBefore)).toBe(true);
    expect(changes.isNewerHere("a", startedDuring)).toBe(true);
    expect(changes.isNewerHere("b", startedBefore)).toBe(false);

    server.resolve();
    await change;
    // Both fetches began before the server had the change: their copies are older.
    expect(changes.isNewerHere("a", startedBefore)).toBe(true);
    expect(changes.isNewerHere("a", startedDuring)).toBe(true);
    // A fetch that begins after the change settled is current.
    expect(changes.isNewerHere("a", changes.now())).toBe(false);
  });

  it("drops a copy fetched before a stamp, keeps one fetched after", () => {
    const changes = new LocalChanges();
    const before = changes.now();
    changes.stamp("a");
    expect(changes.isNewerHere("a", before)).toBe(true);
    expect(changes.isNewerHere("a", changes.now())).toBe(false);
  });

  it("stays in flight until the last of queued changes settles, refused ones included", async () => {
    const changes = new LocalChanges();
    const first = pending();
    const one = changes.track("a", () => first.promise);
    const two = changes.track("a", async () => {
      throw new Error("refused");
    });
    const three = pending();
    const third = changes.track("a", () => three.promise);
    first.resolve();
    await one;
    await expect(two).rejects.toThrow("refused");
    expect(changes.isNewerHere("a", changes.now())).toBe(true);
    three.resolve();
    await third;
    expect(changes.isNewerHere("a", changes.now())).toBe(false);
  });

  it("sends changes of one object in order, each after the one before settled; other objects do not wait", async () => {
    const changes = new LocalChanges();
    const started: string[] = [];
    const off = pending();
    const on = pending();
    const switchedOff = changes.track("widget", () => {
      started.push("off");
      return off.promise;
    });
    const switchedOn = changes.track("widget", () => {
      started.push("on");
      return on.promise;
    });
    const other = changes.track("link", async () => {
      started.push("link");
    });
    await other;
    expect(started).toEqual(["off", "link"]);
    off.resolve();
    await switchedOff;
    await expect.poll(() => started).toEqual(["off", "link", "on"]);
    on.resolve();
    await switchedOn;
  });

  it("a refused change does not hold back the next one", async () => {
    const changes = new LocalChanges();
    const refused = changes.track("a", async () => {
      throw new Error("refused");
    });
    const next = changes.track("a", async () => "stored");
    await expect(refused).rejects.toThrow("refused");
    await expect(next).resolves.toBe("stored");
  });
});
